import type { ChatMessage, StrategyContext } from '../../harness/core/index.ts';
import { toChat } from '../compose.ts';
import {
  answerPending,
  conversation,
  freshCallId,
  functionStyle,
  receiverName,
  sourceName,
  sourcesOf,
} from './shared.ts';

// The OpenAI Agents SDK's handoff, shared by agents-sdk-full, -nested and -remove-tools: what the
// receiving agent's model input holds after `handoff()` — the conversation so far, closed by the SDK's
// own handoff call and its output.
//
// Source: openai/openai-agents-js v0.14.3 (94a3edc3e5318fdbc4ceb045df4dad934ca4ab2b, the npm release
// @openai/agents-core@0.14.3 pinned as a devDependency), packages/agents-core/src/handoff.ts:
// `getTransferMessage(agent)` is `JSON.stringify({ assistant: agent.name })`, the handoff tool is
// `transfer_to_<agent name in function style>`; without an input filter the receiver gets the whole
// history (`handoff.inputFilter` undefined). The same in openai/openai-agents-python v0.22.0
// (4df9ecfae1761ca6fea67cc5a20b383c1d492024), src/agents/handoffs/__init__.py.

/** The SDK's handoff tool output: `{"assistant": "<name>"}` (getTransferMessage). */
export const transferMessage = (agent: string): string => JSON.stringify({ assistant: agent });

/**
 * The conversation as the receiver's model input holds it: the receiver's history (a pending spawn
 * call answered by the SDK's transfer output — the call was the handoff to the child), the source's
 * work, then the source's handoff to the receiver (`transfer_to_<receiver>` and its output).
 */
export function sdkConversation(
  ctx: StrategyContext,
  raw = false,
): { history: ChatMessage[]; work: ChatMessage[]; handoff: ChatMessage[] } {
  const { history, work } = raw ? conversation(ctx, (ms) => ms.map(toChat)) : conversation(ctx);
  const child = sourceName(sourcesOf(ctx)[0]!, 'agent');
  const answered = answerPending(history, [transferMessage(child)]);
  const receiver = receiverName(ctx);
  const id = freshCallId([...answered, ...work], 'call_handoff_');
  const handoff: ChatMessage[] = [
    { role: 'assistant', toolCalls: [{ id, name: `transfer_to_${functionStyle(receiver)}`, input: {} }] },
    { role: 'user', toolResults: [{ callId: id, content: transferMessage(receiver) }] },
  ];
  return { history: answered, work, handoff };
}
