import type { ChatMessage, Message, ToolCall, Transcript } from '../harness/types.ts';

/** Tool call arguments as one line of JSON (strings stay strings). */
export function formatArgs(input: unknown): string {
  if (typeof input === 'string') return input;
  return JSON.stringify(input ?? {});
}

export function formatCall(call: ToolCall): string {
  return `${call.name}(${formatArgs(call.input)})`;
}

/**
 * A transcript rendered as one readable string: every text, tool call (with arguments) and result,
 * in order. This is what `full-transcript` passes and what `render` prints.
 */
export function renderTranscript(t: Transcript | { messages: readonly ChatMessage[] }): string {
  const out: string[] = [];
  for (const m of t.messages) out.push(renderMessage(m));
  return out.join('\n\n');
}

export function renderMessage(m: ChatMessage | Message): string {
  const who = 'agent' in m && m.agent ? `${m.role}:${m.agent}` : m.role;
  const parts: string[] = [];
  if ('compacted' in m && m.compacted) parts.push(`[${who} — compaction summary]\n${m.text ?? ''}`);
  else if (m.text) parts.push(`[${who}]\n${m.text}`);
  for (const c of m.toolCalls ?? []) parts.push(`[${who} → tool call ${c.id}] ${formatCall(c)}`);
  for (const r of m.toolResults ?? []) parts.push(`[tool result ${r.callId}${r.isError ? ' — error' : ''}]\n${r.content}`);
  return parts.join('\n');
}
