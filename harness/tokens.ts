import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { TextDecoder } from 'node:util';
import { GptEncoding } from 'gpt-tokenizer/GptEncoding';
import type { ChatMessage, ModelRequestInput, ToolCall } from './types.ts';

/**
 * Token counts where a provider gives none (o200k_base via gpt-tokenizer). Counts are memoised per
 * distinct text: the same transcript messages recur across arms and reps, so each is tokenized once.
 *
 * The rank table is read from the package's own data file (data/o200k_base.tiktoken) rather than
 * imported as its 2.4 MB generated JS module (`gpt-tokenizer/encoding/o200k_base`): the same table,
 * built the way the package's generator builds it (test/core/tokens.test.ts compares every rank),
 * hence the same counts, but without V8 parsing a 200k-element array literal — that parse alone costs
 * ~25 MB of peak RSS per process (tsx-loaded; measured in docs/providers.md), for every run.
 */
let counter: ((text: string) => number) | undefined;
const plainText = { disallowedSpecial: new Set<string>() };

function encoder(): (text: string) => number {
  if (!counter) {
    const ranks = loadRanks(createRequire(import.meta.url).resolve('gpt-tokenizer/data/o200k_base.tiktoken'));
    const api = GptEncoding.getEncodingApi('o200k_base', () => ranks);
    // Text that happens to spell a special token ("<|endoftext|>") is counted as ordinary text, never rejected.
    counter = (text) => api.countTokens(text, plainText);
  }
  return counter;
}

/**
 * A .tiktoken file (one "base64-bytes rank" per line) → the package's rank table: index = rank, the
 * token as a string when its bytes are UTF-8 that survives a round trip, else as its bytes; '' for
 * an unused rank (gpt-tokenizer's codegen/generateJsBpe.ts does exactly this).
 */
export function loadRanks(file: string): (string | number[])[] {
  const text = readFileSync(file, 'latin1');
  const utf8 = new TextDecoder('utf8', { fatal: true });
  const ranks: (string | number[])[] = [];
  for (let i = 0; i < text.length; ) {
    const nl = text.indexOf('\n', i);
    const end = nl < 0 ? text.length : nl;
    const space = text.indexOf(' ', i);
    if (end > i && space > i && space < end) {
      const bytes = Buffer.from(text.slice(i, space), 'base64');
      const rank = Number(text.slice(space + 1, end));
      while (ranks.length < rank) ranks.push('');
      ranks.push(utf8Token(utf8, bytes) ?? [...bytes]);
    }
    i = end + 1;
  }
  return ranks;
}

function utf8Token(decoder: TextDecoder, bytes: Buffer): string | undefined {
  try {
    const s = decoder.decode(bytes);
    return Buffer.byteLength(s) === bytes.length ? s : undefined;
  } catch {
    return undefined;
  }
}

const memo = new Map<string, number>();
const MEMO_LIMIT = 200_000;

export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  let n = memo.get(text);
  if (n === undefined) {
    n = encoder()(text);
    if (memo.size >= MEMO_LIMIT) memo.clear();
    memo.set(text, n);
  }
  return n;
}

/** Per-message framing overhead, as chat formats add a few tokens per message. */
const PER_MESSAGE = 4;

export function messageTokens(m: ChatMessage): number {
  let n = PER_MESSAGE + (m.text ? countTokens(m.text) : 0);
  for (const c of m.toolCalls ?? []) n += callTokens(c);
  for (const r of m.toolResults ?? []) n += PER_MESSAGE + countTokens(r.content);
  return n;
}

function callTokens(c: ToolCall): number {
  return PER_MESSAGE + countTokens(c.name) + countTokens(typeof c.input === 'string' ? c.input : JSON.stringify(c.input ?? {}));
}

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
