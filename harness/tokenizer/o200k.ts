import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { asciiPieceEnd } from './ascii-split.ts';

/**
 * A token counter for o200k_base that holds its 200k-entry rank table in three typed arrays (~4 MB)
 * instead of gpt-tokenizer's maps of strings (~15 MB live, ~40 MB of peak RSS while they are built).
 * Same algorithm as gpt-tokenizer's BytePairEncodingCore, hence the same counts (test/core/tokens.test.ts
 * compares them on every real transcript and on generated text): split with the o200k pattern; a piece
 * whose bytes are a token is one token; otherwise merge its bytes, lowest-ranked adjacent pair first.
 * It only counts: nothing here decodes, and text spelling a special token ("<|endoftext|>") is
 * counted as ordinary text.
 */

const CONTRACTION = String.raw`(?:'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE]))?`;
/** The o200k_base pre-tokenizer pattern (tiktoken's, as gpt-tokenizer spells it). */
export const O200K_SPLIT = new RegExp(
  String.raw`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+${CONTRACTION}|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*${CONTRACTION}|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`,
  'gu',
);

export interface RankTable {
  /** Every token's bytes, back to back, in rank order. */
  bytes: Uint8Array;
  /** Token r occupies bytes[start[r] .. start[r + 1]). */
  start: Int32Array;
  /** Open addressing over FNV-1a of the bytes: rank + 1, 0 for an empty slot. */
  slots: Int32Array;
}

/** Builds the table from a .tiktoken file: one "base64(bytes) rank" per line, ranks ascending. */
export function loadRankTable(file: string): RankTable {
  const text = readFileSync(file, 'latin1');
  const count = countLines(text);
  const bytes = new Uint8Array(Math.ceil((text.length * 3) / 4));
  const start = new Int32Array(count + 1);
  let at = 0;
  let rank = 0;
  for (let i = 0; i < text.length; ) {
    let nl = text.indexOf('\n', i);
    if (nl < 0) nl = text.length;
    const space = text.indexOf(' ', i);
    if (space > i && space < nl) {
      const r = Number(text.slice(space + 1, nl));
      if (r !== rank) throw new Error(`${file}: rank ${r} out of order (expected ${rank})`);
      start[rank] = at;
      at = decodeBase64(text, i, space, bytes, at);
      rank++;
    }
    i = nl + 1;
  }
  start[rank] = at;
  const table: RankTable = { bytes: bytes.subarray(0, at), start: start.subarray(0, rank + 1), slots: new Int32Array(slotCount(rank)) };
  for (let r = 0; r < rank; r++) insert(table, r);
  return table;
}

function countLines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return text.endsWith('\n') ? n : n + 1;
}

function slotCount(entries: number): number {
  let n = 1;
  while (n < entries * 2) n <<= 1;
  return n;
}

const B64 = (() => {
  const t = new Int8Array(128).fill(-1);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  for (let i = 0; i < alphabet.length; i++) t[alphabet.charCodeAt(i)] = i;
  return t;
})();

/** Decodes text[from, to) (standard base64, '=' padded) into out at `at`; returns the new end. */
function decodeBase64(text: string, from: number, to: number, out: Uint8Array, at: number): number {
  let acc = 0;
  let bits = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 61) break; // '='
    const v = c < 128 ? B64[c]! : -1;
    if (v < 0) throw new Error(`invalid base64 at offset ${i}`);
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[at++] = (acc >> bits) & 0xff;
    }
  }
  return at;
}

function hash(buf: Uint8Array, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) h = Math.imul(h ^ buf[i]!, 0x01000193);
  return h >>> 0;
}

function insert(t: RankTable, rank: number): void {
  const mask = t.slots.length - 1;
  let s = hash(t.bytes, t.start[rank]!, t.start[rank + 1]!) & mask;
  while (t.slots[s] !== 0) s = (s + 1) & mask;
  t.slots[s] = rank + 1;
}

/** The rank of buf[from, to) as one token, or -1. */
export function rankOf(t: RankTable, buf: Uint8Array, from: number, to: number): number {
  const mask = t.slots.length - 1;
  const len = to - from;
  for (let s = hash(buf, from, to) & mask; ; s = (s + 1) & mask) {
    const slot = t.slots[s]!;
    if (slot === 0) return -1;
    const r = slot - 1;
    const a = t.start[r]!;
    if (t.start[r + 1]! - a !== len) continue;
    let i = 0;
    while (i < len && t.bytes[a + i] === buf[from + i]) i++;
    if (i === len) return r;
  }
}

/**
 * How many tokens buf[0, len) becomes: byte pair merges, always the lowest-ranked adjacent pair
 * first (leftmost on ties), until no adjacent pair is a token.
 */
function mergedCount(t: RankTable, buf: Uint8Array, len: number): number {
  if (len <= 1) return len;
  const starts: number[] = [];
  const ranks: number[] = [];
  const pairRank = (i: number): number => (i + 2 < starts.length ? rankOrInf(t, buf, starts[i]!, starts[i + 2]!) : Infinity);
  for (let i = 0; i <= len; i++) starts.push(i);
  for (let i = 0; i < len; i++) ranks.push(i < len - 1 ? rankOrInf(t, buf, i, i + 2) : Infinity);
  ranks.push(Infinity);
  while (starts.length > 1) {
    let lowest = Infinity;
    let at = -1;
    for (let i = 0; i < ranks.length - 1; i++) {
      if (ranks[i]! < lowest) {
        lowest = ranks[i]!;
        at = i;
      }
    }
    if (at < 0) break;
    starts.splice(at + 1, 1);
    ranks.splice(at, 1);
    ranks[at] = pairRank(at);
    if (at > 0) ranks[at - 1] = pairRank(at - 1);
  }
  return starts.length - 1;
}

function rankOrInf(t: RankTable, buf: Uint8Array, from: number, to: number): number {
  const r = rankOf(t, buf, from, to);
  return r < 0 ? Infinity : r;
}

/**
 * A counter over one table. ASCII pieces are split by hand (ascii-split.ts) and looked up straight from
 * their characters; the regex splits only where a piece involves other characters. Pieces that need
 * merging, and short pieces from the regex path, are remembered with their counts (a bounded map;
 * pieces of 13+ characters are not kept, since V8 would keep them as slices of, and so keep alive, the
 * whole text they came from).
 */
export function createCounter(table: RankTable): (text: string) => number {
  let scratch = Buffer.allocUnsafe(4096);
  const known = new Map<string, number>();
  const sticky = new RegExp(O200K_SPLIT.source, 'uy');
  const remembered = (piece: string, count: () => number): number => {
    if (piece.length >= 13) return count();
    let k = known.get(piece);
    if (k === undefined) {
      k = count();
      if (known.size >= 100_000) known.clear();
      known.set(piece, k);
    }
    return k;
  };
  const room = (chars: number) => {
    if (chars * 3 > scratch.length) scratch = Buffer.allocUnsafe(chars * 3);
  };
  const asciiCount = (text: string, from: number, to: number): number => {
    const len = to - from;
    room(len);
    for (let k = 0; k < len; k++) scratch[k] = text.charCodeAt(from + k);
    if (rankOf(table, scratch, 0, len) >= 0) return 1;
    return remembered(text.slice(from, to), () => mergedCount(table, scratch, len));
  };
  const pieceCount = (piece: string): number =>
    remembered(piece, () => {
      room(piece.length);
      const len = scratch.write(piece, 0, 'utf8');
      return rankOf(table, scratch, 0, len) >= 0 ? 1 : mergedCount(table, scratch, len);
    });
  return (text) => {
    let n = 0;
    for (let i = 0; i < text.length; ) {
      const end = asciiPieceEnd(text, i);
      if (end > i) {
        n += asciiCount(text, i, end);
        i = end;
        continue;
      }
      sticky.lastIndex = i;
      const piece = sticky.exec(text)?.[0] ?? text[i]!;
      n += pieceCount(piece);
      i += piece.length;
    }
    return n;
  };
}

let shared: ((text: string) => number) | undefined;

/** The process-wide o200k_base counter, its table read from gpt-tokenizer's data file on first use. */
export function o200kCounter(): (text: string) => number {
  shared ??= createCounter(loadRankTable(createRequire(import.meta.url).resolve('gpt-tokenizer/data/o200k_base.tiktoken')));
  return shared;
}
