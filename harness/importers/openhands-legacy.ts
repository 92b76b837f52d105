import type { Transcript } from '../core/index.ts';
import { countSkip, makeTranscript, TranscriptBuilder, type Skipped } from './builder.ts';
import { isRecord, stringify } from './source.ts';

/**
 * The older OpenHands history, as the resolver's `output.jsonl` (ResolverOutput) and early EvalOutput
 * lines hold it: events serialised flat — an action's fields at the top level next to `action`
 * (`{command, thought, action: "run"}`), an observation's next to `observation` — with no `id` or
 * `cause`; or `[action, observation]` pairs. Nothing links an observation to its action but
 * position: an observation answers the action right before it (ids `action-<n>` are made up).
 * Without `source`, the first `message` action is the user's task and later ones the agent's.
 */
export function convertLegacyHistory(
  history: unknown[],
  parts: { file: string; id: string; model?: string; meta: Record<string, unknown> },
  skipped: Skipped,
): Transcript {
  const b = new TranscriptBuilder('main');
  let pending: string | undefined;
  let actions = 0;
  let messages = 0;
  for (const e of flatten(history)) {
    if (!isRecord(e)) continue;
    if (typeof e.observation === 'string') {
      if (pending !== undefined) {
        b.result(pending, stringify(e.content), e.observation === 'error');
        pending = undefined;
      } else countSkip(skipped, `observation:${e.observation}`);
      continue;
    }
    if (typeof e.action !== 'string') {
      countSkip(skipped, 'legacy_event');
      continue;
    }
    pending = undefined;
    if (e.action === 'message') {
      const fromUser = e.source === 'user' || (e.source === undefined && messages === 0);
      messages++;
      if (fromUser) b.userText(stringify(e.content));
      else b.assistant(stringify(e.content), []);
      continue;
    }
    if (e.action === 'system' || e.action === 'recall' || e.action === 'change_agent_state') {
      countSkip(skipped, e.action === 'change_agent_state' ? 'action:change_agent_state' : e.action);
      continue;
    }
    const id = `action-${++actions}`;
    b.assistant(stringify(e.thought), [{ id, name: e.action, input: actionInput(e) }]);
    // `finish` ends the run: no observation follows it.
    pending = e.action === 'finish' ? undefined : id;
  }
  return makeTranscript(b.messages, {
    format: 'openhands',
    file: parts.file,
    id: parts.id,
    agents: { main: { role: 'primary', ...(parts.model ? { model: parts.model } : {}) } },
    meta: { ...parts.meta, history: 'legacy (positional pairing)' },
  });
}

/** `[action, observation]` pairs become the flat sequence they stand for. */
function flatten(history: unknown[]): unknown[] {
  return history.flatMap((e) => (Array.isArray(e) ? e : [e]));
}

/** What the model asked for: the action's own fields, without the runtime's bookkeeping. */
function actionInput(e: Record<string, unknown>): Record<string, unknown> {
  const plumbing = new Set([
    'action',
    'thought',
    'is_confirmed',
    'action_risk',
    'security_risk',
    'keep_prompt',
    'blocking',
    'hidden',
    'confirmation_state',
  ]);
  return Object.fromEntries(Object.entries(e).filter(([k]) => !plumbing.has(k)));
}

/** A history is legacy when no event carries an event id. */
export function isLegacyHistory(history: unknown[]): boolean {
  const events = flatten(history).filter(isRecord);
  return events.length > 0 && events.every((e) => typeof e.id !== 'number');
}
