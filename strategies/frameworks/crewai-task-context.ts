import { defineStrategy } from '../define.ts';
import { finishHandoff } from '../compose.ts';
import { endedSessions, framingFor, lastMessageText, sourcesOf } from './shared.ts';

/**
 * CrewAI task `context`: a task that lists other tasks as its context gets their raw outputs (each
 * agent's final answer), joined by `\n\n----------\n\n`, after its own description — "This is the
 * context you're working with:\n{context}". A task's agent starts a fresh conversation: nothing else
 * of the other agents' work (their tool calls, results, earlier messages) and none of its own earlier
 * history comes along. The harness appends the task as the receiver's last message, so the context
 * block (CrewAI's suffix of the task prompt) comes before it.
 *
 * Source: crewAIInc/crewAI 1.15.17 (b3ab193c316cda70c2afedc8b5f56d3bf3beb44d):
 * lib/crewai/src/crewai/crew.py `Crew._get_context`, lib/crewai/src/crewai/utilities/formatter.py
 * `aggregate_raw_outputs_from_tasks` / `DIVIDERS`, lib/crewai/src/crewai/agent/utils.py
 * `format_task_with_context` with the `task_with_context` slice of translations/en.json. Checked
 * against the request recorded in CrewAI's own cassette (test/fixtures/frameworks/crewai/).
 */
export const crewaiTaskContext = defineStrategy({
  name: 'crewai-task-context',
  description:
    "CrewAI task context: the listed tasks' raw outputs, joined by CrewAI's dividers, with the task.",
  seed: 'framework: crewAIInc/crewAI 1.15.17 (b3ab193c) lib/crewai/src/crewai/crew.py Crew._get_context, utilities/formatter.py, agent/utils.py format_task_with_context',
  deterministic: true,
  params: {},
  async prepare(ctx) {
    const outputs = endedSessions(ctx).map(lastMessageText);
    const context = aggregateRawOutputs(outputs);
    const text = contextSuffix(context);
    return finishHandoff(ctx, {
      system: framingFor(ctx),
      messages: text ? [{ role: 'user', text }] : [],
      payload: context,
      retained: outputs.length,
      dropped: sourcesOf(ctx).reduce((n, s) => n + s.messages.length, 0) - outputs.length,
    });
  },
});

/** `DIVIDERS` of crewai/utilities/formatter.py. */
export const DIVIDERS = '\n\n----------\n\n';

/** `aggregate_raw_outputs_from_task_outputs`: the raw outputs joined by DIVIDERS. */
export function aggregateRawOutputs(raw: readonly string[]): string {
  return raw.join(DIVIDERS);
}

/** `format_task_with_context(task, context)`: the task prompt, then the context block (none without context). */
export function formatTaskWithContext(task: string, context: string): string {
  return context ? `${task}\n\nThis is the context you're working with:\n${context}` : task;
}

/** The context block alone, as the receiver sees it before the task the harness appends. */
function contextSuffix(context: string): string {
  return context ? formatTaskWithContext('', context).replace(/^\n\n/, '') : '';
}
