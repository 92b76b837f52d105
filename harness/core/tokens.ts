import { o200kCounter } from './tokenizer/o200k.ts';
import type { ChatMessage, ToolCall } from './types/transcript.ts';
import type { ModelRequestInput } from './types/model-call.ts';

/**
 * Token counts where a provider gives none: o200k_base (harness/tokenizer/o200k.ts, the rank table from
 * gpt-tokenizer's data file in typed arrays). Counts are memoised per distinct text: the same transcript
 * messages recur across arms and reps, so each is tokenized once.
 */
const memo = new Map<string, number>();
const MEMO_LIMIT = 200_000;

/** o200k tokens of a text (memoised). */
export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  let n = memo.get(text);
  if (n === undefined) {
    n = o200kCounter()(text);
    if (memo.size >= MEMO_LIMIT) memo.clear();
    memo.set(text, n);
  }
  return n;
}

/** Per-message framing overhead, as chat formats add a few tokens per message. */
const PER_MESSAGE = 4;

/** o200k tokens of one chat message: its text, tool calls and results, plus the per-message overhead. */
export function messageTokens(m: ChatMessage): number {
  let n = PER_MESSAGE + (m.text ? countTokens(m.text) : 0);
  for (const c of m.toolCalls ?? []) n += callTokens(c);
  for (const r of m.toolResults ?? []) n += PER_MESSAGE + countTokens(r.content);
  return n;
}

function callTokens(c: ToolCall): number {
  return (
    PER_MESSAGE +
    countTokens(c.name) +
    countTokens(typeof c.input === 'string' ? c.input : JSON.stringify(c.input ?? {}))
  );
}

/** o200k tokens of a list of chat messages (sum of messageTokens). */
export function messagesTokens(messages: readonly ChatMessage[]): number {
  let n = 0;
  for (const m of messages) n += messageTokens(m);
  return n;
}

/** Estimated input tokens of a request: system, messages and tool definitions. */
export function requestTokens(req: Pick<ModelRequestInput, 'system' | 'messages' | 'tools'>): number {
  let n = req.system ? countTokens(req.system) + PER_MESSAGE : 0;
  n += messagesTokens(req.messages);
  for (const t of req.tools ?? []) n += countTokens(t.name + t.description + JSON.stringify(t.inputSchema));
  return n;
}
