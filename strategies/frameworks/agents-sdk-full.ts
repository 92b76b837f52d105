import { defineStrategy } from '../define.ts';
import { finishHandoff } from '../compose.ts';
import { renderMessages } from '../render.ts';
import { sdkConversation } from './agents-sdk.ts';
import { framingFor } from './shared.ts';

/**
 * OpenAI Agents SDK handoff without an input filter and without nesting (the default): the receiving
 * agent gets the entire conversation — every message, tool call and tool result — followed by the
 * SDK's own `transfer_to_<receiver>` call and its `{"assistant": "<receiver>"}` output.
 *
 * Source: openai/openai-agents-js v0.14.3 (94a3edc3e5318fdbc4ceb045df4dad934ca4ab2b),
 * packages/agents-core/src/handoff.ts `handoff()` / `getTransferMessage()` (no `inputFilter`: the
 * history passes unchanged); openai/openai-agents-python v0.22.0 (4df9ecfa…), where
 * `RunConfig.nest_handoff_history` defaults to False. Checked against @openai/agents-core's Runner in
 * test/strategies/frameworks/agents-sdk.test.ts.
 */
export const agentsSdkFull = defineStrategy({
  name: 'agents-sdk-full',
  description:
    'OpenAI Agents SDK handoff (no filter, no nesting): the whole conversation, then the handoff pair.',
  seed: 'framework: openai/openai-agents-js v0.14.3 (94a3edc3) packages/agents-core/src/handoff.ts handoff() without inputFilter, getTransferMessage',
  deterministic: true,
  properties: { superset: true },
  declares: {
    'spawn-instructions':
      "hands the receiving agent the whole conversation with its roles, as the framework does: on a spawn the parent's own requests reach the child as user turns",
  },
  params: {},
  async prepare(ctx) {
    const { history, work, handoff } = sdkConversation(ctx);
    const payloadMessages = [...work, ...handoff];
    return finishHandoff(ctx, {
      system: framingFor(ctx),
      messages: [...history, ...payloadMessages],
      payload: renderMessages(payloadMessages).join('\n\n'),
      payloadMessages,
      retained: work.length,
    });
  },
});
