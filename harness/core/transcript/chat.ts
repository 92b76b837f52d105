import type { ChatMessage, Draft } from '../types/transcript.ts';

/**
 * A message as chat: only its role, text, tool calls and tool results (agent names, compaction flags and
 * other source fields dropped).
 */
export function toChat(m: ChatMessage): ChatMessage {
  const out: Draft<ChatMessage> = { role: m.role };
  if (m.text !== undefined) out.text = m.text;
  if (m.toolCalls) out.toolCalls = m.toolCalls;
  if (m.toolResults) out.toolResults = m.toolResults;
  return out;
}
