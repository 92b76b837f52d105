import type { ChatMessage, ChatRole, StrategyContext, Transcript } from '../../harness/core/index.ts';
import { defineStrategy } from '../define.ts';
import { finishHandoff, receiverHistory, simHintsOf, toChat } from '../compose.ts';
import { answerPending, endedSessions, framingFor, pendingCalls } from './shared.ts';

// AG2 (formerly AutoGen) sequential chats: each finished chat's summary is carried over into the next
// chat's first message. Source: ag2ai/ag2 at 007eba9b197999760ed4887a129fc1d74eda161b (the snapshot
// the code index holds; the repository is too large to fetch here, so no release tag was resolved),
// autogen/agentchat/conversable_agent.py: `DEFAULT_SUMMARY_METHOD = "last_msg"`,
// `DEFAULT_SUMMARY_PROMPT`, `_summarize_chat`, `_last_msg_as_summary` (the recipient's last message
// content with "TERMINATE" removed), `_reflection_with_llm_as_summary` / `_reflection_with_llm` (the
// chat's messages plus the prompt as a message of role `summary_role`, default "system"), and
// `_process_carryover` (the message, then "\nContext: \n", then the carryover items joined by "\n");
// `initiate_chat(clear_history=True)` starts the next chat without the recipient's earlier messages.

/** `ConversableAgent.DEFAULT_SUMMARY_PROMPT`. */
export const AG2_SUMMARY_PROMPT =
  'Summarize the takeaway from the conversation. Do not add any introductory phrases.';

/** `_process_carryover(content, {carryover})`: the message, then "\nContext: \n" and the items joined by "\n". */
export function processCarryover(content: string, carryover: readonly string[]): string {
  return carryover.length ? `${content}\nContext: \n${carryover.join('\n')}` : content;
}

/**
 * `_last_msg_as_summary`: the chat's last message content with "TERMINATE" removed — whoever wrote it;
 * a tool message's content is its results joined by "\n\n" (AG2's tool-response message).
 */
export function lastMsgSummary(t: Transcript): string {
  const last = t.messages[t.messages.length - 1];
  if (!last) return '';
  const content = last.text ?? (last.toolResults ?? []).map((r) => r.content).join('\n\n');
  return content.replaceAll('TERMINATE', '');
}

const clearHistory = {
  type: 'boolean',
  default: true,
  description:
    "initiate_chat's clear_history (AG2 default true): the receiver starts the chat without its own earlier messages",
} as const;

/** The receiver's messages: the carryover message, after its own history when that is kept. */
function carried(ctx: StrategyContext, summaries: readonly string[], keepHistory: boolean) {
  const text = processCarryover('', summaries).replace(/^\n/, '');
  const history = keepHistory ? receiverHistory(ctx) : [];
  const messages: ChatMessage[] = pendingCalls(history).length
    ? answerPending(history, [text])
    : [...history, { role: 'user', text }];
  return { messages, text };
}

export const ag2CarryoverLast = defineStrategy({
  name: 'ag2-carryover-last',
  description:
    'AG2 carryover with summary_method="last_msg": the last message of the chat, after "Context:".',
  seed: 'framework: ag2ai/ag2 (stored 007eba9b) autogen/agentchat/conversable_agent.py _last_msg_as_summary, _process_carryover',
  deterministic: true,
  params: { clearHistory },
  async prepare(ctx, params) {
    const sources = endedSessions(ctx);
    const summaries = sources.map(lastMsgSummary);
    const { messages, text } = carried(ctx, summaries, !params.clearHistory);
    return finishHandoff(ctx, {
      system: framingFor(ctx),
      messages,
      payload: text,
      retained: sources.length,
      dropped: sources.reduce((n, s) => n + s.messages.length, 0) - sources.length,
    });
  },
});

export const ag2CarryoverReflection = defineStrategy({
  name: 'ag2-carryover-reflection',
  description:
    'AG2 carryover with summary_method="reflection_with_llm": the source model summarises the chat, carried after "Context:".',
  seed: 'framework: ag2ai/ag2 (stored 007eba9b) autogen/agentchat/conversable_agent.py _reflection_with_llm_as_summary, _process_carryover',
  params: {
    clearHistory,
    summaryPrompt: {
      type: 'string',
      default: AG2_SUMMARY_PROMPT,
      description: 'summary_args["summary_prompt"] (AG2 default)',
    },
    summaryRole: {
      type: 'enum',
      values: ['system', 'user'],
      default: 'system',
      description: 'summary_args["summary_role"]: the role of the prompt message (AG2 default "system")',
    },
    maxTokens: {
      type: 'number',
      default: 1024,
      description: "the reflection call's output cap (AG2 sets none; the harness needs one)",
    },
  },
  async prepare(ctx, params) {
    const sources = endedSessions(ctx);
    const summaries: string[] = [];
    for (const s of sources) {
      const r = await ctx.call('source', {
        purpose: 'summarize',
        messages: [
          ...s.messages.map(toChat),
          { role: params.summaryRole as ChatRole, text: params.summaryPrompt },
        ],
        maxTokens: params.maxTokens,
        cachePrefix: s.messages.length,
        sim: simHintsOf(ctx.case),
      });
      summaries.push(r.text);
    }
    const { messages, text } = carried(ctx, summaries, !params.clearHistory);
    return finishHandoff(ctx, {
      system: framingFor(ctx),
      messages,
      payload: text,
      retained: 0,
      dropped: sources.reduce((n, s) => n + s.messages.length, 0),
      artifacts: { summary: summaries.join('\n') },
    });
  },
});
