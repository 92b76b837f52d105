import type { ChatMessage, StrategyContext, Transcript } from '../../harness/core/index.ts';
import { receiverHistory } from '../compose.ts';
import {
  answerPending,
  endedSessions,
  freshCallId,
  functionStyle,
  pendingCalls,
  sourceName,
  spawnedBy,
} from './shared.ts';

/**
 * A sub-agent's return as tool results, one per child, the way agents-as-tools frameworks deliver it:
 * each result answers the receiver's pending spawn call for that child (one result per call); without
 * pending calls — an escalation, a bare session rendered — the receiver gets a call of its own to the
 * sub-agent's tool (`toolName(source)`, input: the source's opening request) answered by the result.
 */
export function asToolResults(
  ctx: StrategyContext,
  results: readonly string[],
  toolName: (source: Transcript) => string,
): ChatMessage[] {
  const history = receiverHistory(ctx);
  if (pendingCalls(history).length) return answerPending(history, results, spawnedBy(endedSessions(ctx)));
  const sources = endedSessions(ctx);
  const calls = sources.map((s, i) => ({
    id: freshCallId(history, `call_subagent_${i}_`),
    name: toolName(s),
    input: { input: s.messages.find((m) => m.role === 'user' && m.text)?.text ?? '' },
  }));
  return [
    ...history,
    { role: 'assistant', toolCalls: calls },
    { role: 'user', toolResults: calls.map((c, i) => ({ callId: c.id, content: results[i] ?? '' })) },
  ];
}

/** The Agents SDK's default tool name for an agent used as a tool (its name in function style). */
export const sdkToolName = (s: Transcript): string => functionStyle(sourceName(s));
