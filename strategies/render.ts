import type { ChatMessage, Message, ToolCall, Transcript } from '../harness/core/index.ts';
import { fence } from '../harness/core/text/fence.ts';

/** Tool call arguments as one line of JSON (strings stay strings). */
export function formatArgs(input: unknown): string {
  if (typeof input === 'string') return input;
  return JSON.stringify(input ?? {});
}

/** A tool call written out as `name(arguments)`. */
export function formatCall(call: ToolCall): string {
  return `${call.name}(${formatArgs(call.input)})`;
}

/**
 * A transcript rendered as one readable string: every text, tool call (with arguments) and result,
 * in order. This is what `full-transcript` passes and what `render` prints.
 */
export function renderTranscript(t: Transcript | { messages: readonly ChatMessage[] }): string {
  let memo = renderedTranscripts.get(t.messages);
  if (memo === undefined || memo.n !== t.messages.length) {
    memo = { n: t.messages.length, text: renderMessages(t.messages).join('\n\n') };
    renderedTranscripts.set(t.messages, memo);
  }
  return memo.text;
}

/**
 * Every message rendered, memoised per message array: a case's transcripts are rendered for every
 * cell of every arm, and a handoff's messages for its stats, its checks and its row. Arrays are
 * never changed once rendered (cases are read-only; a handoff is final once built); a length check
 * guards against an array that grew since.
 */
export function renderMessages(messages: readonly (ChatMessage | Message)[]): readonly string[] {
  let out = renderedLists.get(messages);
  if (out === undefined || out.length !== messages.length) {
    out = messages.map(renderMessage);
    renderedLists.set(messages, out);
  }
  return out;
}

const renderedLists = new WeakMap<readonly (ChatMessage | Message)[], string[]>();
const renderedTranscripts = new WeakMap<readonly (ChatMessage | Message)[], { n: number; text: string }>();

/**
 * A transcript as one string for a receiver to read (full-transcript's payload): as renderTranscript,
 * but every tool result quoted between fence markers unique to its content (harness/core/text/fence.ts),
 * as parity-narration quotes them — a forged `[tool result …]` or `[result: …]` line inside a result
 * stays quoted data and cannot pass for the transcript's own structure.
 */
export function renderTranscriptFenced(t: Transcript | { messages: readonly ChatMessage[] }): string {
  return t.messages.map((m) => renderMessageWith(m, { fenceResults: true })).join('\n\n');
}

/**
 * One message as readable text: `[role]` (or `[role:agent]`) and its text, its tool calls as `[… → tool call
 * id] name(args)`, its results as `[tool result id]`.
 */
export function renderMessage(m: ChatMessage | Message): string {
  return renderMessageWith(m, {});
}

/** renderMessage with options: `fenceResults` quotes each tool result between fence markers. */
export function renderMessageWith(m: ChatMessage | Message, opts: { fenceResults?: boolean }): string {
  const who = 'agent' in m && m.agent ? `${m.role}:${m.agent}` : m.role;
  const parts: string[] = [];
  if ('compacted' in m && m.compacted) parts.push(`[${who} — compaction summary]\n${m.text ?? ''}`);
  else if (m.text) parts.push(`[${who}]\n${m.text}`);
  for (const c of m.toolCalls ?? []) parts.push(`[${who} → tool call ${c.id}] ${formatCall(c)}`);
  for (const r of m.toolResults ?? [])
    parts.push(
      `[tool result ${r.callId}${r.isError ? ' — error' : ''}]\n${opts.fenceResults ? fence(r.content).text : r.content}`,
    );
  return parts.join('\n');
}
