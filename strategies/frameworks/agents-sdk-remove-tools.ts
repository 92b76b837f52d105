import type { ChatMessage, Draft } from '../../harness/core/index.ts';
import { defineStrategy } from '../define.ts';
import { finishHandoff } from '../compose.ts';
import { renderMessages } from '../render.ts';
import { sdkConversation } from './agents-sdk.ts';
import { framingFor } from './shared.ts';

/**
 * OpenAI Agents SDK handoff with the `removeAllTools` input filter: the conversation with every tool
 * call, tool output and reasoning item removed — the handoff call pair included — and no marker where
 * they were. (The kit's `cuts-marked` covers results shown in part; whole items dropped, as here, are
 * counted in `stats.dropped`, so the strategy passes the kit without declaring anything.) An assistant message that carried text and calls keeps its text (in the SDK the text is
 * a message item of its own); a message left empty disappears.
 *
 * Source: openai/openai-agents-js v0.14.3 (94a3edc3e5318fdbc4ceb045df4dad934ca4ab2b),
 * packages/agents-core/src/extensions/handoffFilters.ts `removeAllTools` (TOOL_TYPES,
 * `removeToolsFromItems`); openai/openai-agents-python v0.22.0 (4df9ecfa…)
 * src/agents/extensions/handoff_filters.py `remove_all_tools`. Checked message by message against
 * @openai/agents-core's `removeAllTools` in test/strategies/frameworks/agents-sdk.test.ts.
 */
export const agentsSdkRemoveTools = defineStrategy({
  name: 'agents-sdk-remove-tools',
  description:
    "OpenAI Agents SDK handoff with removeAllTools: the conversation's text only, tool items dropped unmarked.",
  seed: 'framework: openai/openai-agents-js v0.14.3 (94a3edc3) packages/agents-core/src/extensions/handoffFilters.ts removeAllTools',
  deterministic: true,
  declares: {
    'spawn-instructions':
      "hands the receiving agent the whole conversation with its roles, as the framework does: on a spawn the parent's own requests reach the child as user turns",
  },
  params: {},
  async prepare(ctx) {
    const { history, work, handoff } = sdkConversation(ctx, true);
    const kept = withoutTools([...history, ...work, ...handoff]);
    const own = withoutTools(history).length;
    const payloadMessages = kept.slice(own);
    return finishHandoff(ctx, {
      system: framingFor(ctx),
      messages: kept,
      payload: renderMessages(payloadMessages).join('\n\n'),
      payloadMessages,
      retained: payloadMessages.length,
      dropped: work.length - payloadMessages.length,
    });
  },
});

/** Every message without its tool calls and results; messages left with nothing are dropped. */
export function withoutTools(messages: readonly ChatMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const m of messages) {
    if (m.text === undefined || m.text === '') continue;
    const kept: Draft<ChatMessage> = { role: m.role, text: m.text };
    out.push(kept);
  }
  return out;
}
