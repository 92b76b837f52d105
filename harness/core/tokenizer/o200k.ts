import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { asciiPieceEnd } from './ascii-split.ts';
import { loadRankTable, rankOf, readRankTableFile, type RankTable } from './rank-table.ts';

/**
 * A token counter for o200k_base over a typed-array rank table (rank-table.ts) rather than
 * gpt-tokenizer's maps of strings (~15 MB live, ~40 MB of peak RSS while they are built). Same
 * algorithm as gpt-tokenizer's BytePairEncodingCore, hence the same counts (test/core/tokens.test.ts
 * compares them on every real transcript, every case file and generated text): split with the o200k
 * pattern (ASCII by hand, ascii-split.ts); a piece whose bytes are a token is one token; otherwise
 * merge its bytes, lowest-ranked adjacent pair first. It only counts, and text spelling a special
 * token ("<|endoftext|>") is counted as ordinary text.
 */

const CONTRACTION = String.raw`(?:'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE]))?`;
/** The o200k_base pre-tokenizer pattern (tiktoken's, as gpt-tokenizer spells it). */
export const O200K_SPLIT = new RegExp(
  String.raw`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+${CONTRACTION}|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*${CONTRACTION}|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`,
  'gu',
);

/**
 * How many tokens buf[0, len) becomes: byte pair merges, always the lowest-ranked adjacent pair
 * first (leftmost on ties), until no adjacent pair is a token.
 */
function mergedCount(t: RankTable, buf: Uint8Array, len: number): number {
  if (len <= 1) return len;
  if (len > LONG_PIECE) return mergedCountLong(t, buf, len);
  const starts: number[] = [];
  const ranks: number[] = [];
  const pairRank = (i: number): number =>
    i + 2 < starts.length ? rankOrInf(t, buf, starts[i]!, starts[i + 2]!) : Infinity;
  for (let i = 0; i <= len; i++) starts.push(i);
  for (let i = 0; i <= len; i++) ranks.push(pairRank(i));
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

/**
 * Past this many bytes a piece is merged with a heap (mergedCountLong): the scan above is quadratic, and
 * one 60 KB run with no space or punctuation (an own agent's base64 blob, issue 29's probe) took 8 s.
 */
const LONG_PIECE = 256;

/**
 * mergedCount's result in O(n log n): the same merges in the same order — lowest rank first, leftmost
 * (smallest start) on ties — over a linked list of parts, with a min-heap of (rank, start) pairs whose
 * stale entries (a part merged away or re-ranked since) are skipped when they surface.
 */
export function mergedCountLong(t: RankTable, buf: Uint8Array, len: number): number {
  const next = new Int32Array(len + 1);
  const prev = new Int32Array(len + 1);
  const rank = new Float64Array(len);
  for (let i = 0; i <= len; i++) {
    next[i] = i + 1;
    prev[i] = i - 1;
  }
  const heap: number[] = []; // pairs of (rank, start), flattened
  const less = (a: number, b: number) =>
    heap[a]! < heap[b]! || (heap[a] === heap[b] && heap[a + 1]! < heap[b + 1]!);
  const swap = (a: number, b: number) => {
    [heap[a], heap[b], heap[a + 1], heap[b + 1]] = [heap[b]!, heap[a]!, heap[b + 1]!, heap[a + 1]!];
  };
  const push = (r: number, start: number) => {
    heap.push(r, start);
    for (let i = heap.length - 2; i > 0;) {
      const parent = ((i / 2 - 1) >> 1) * 2;
      if (!less(i, parent)) break;
      swap(i, parent);
      i = parent;
    }
  };
  const pop = () => {
    const top = [heap[0]!, heap[1]!];
    const lastStart = heap.pop()!;
    const lastRank = heap.pop()!;
    if (heap.length) {
      heap[0] = lastRank;
      heap[1] = lastStart;
      for (let i = 0; ;) {
        const l = i * 2 + 2;
        const r = l + 2;
        let m = i;
        if (l < heap.length && less(l, m)) m = l;
        if (r < heap.length && less(r, m)) m = r;
        if (m === i) break;
        swap(i, m);
        i = m;
      }
    }
    return top;
  };
  const rerank = (i: number) => {
    rank[i] = next[i]! < len ? rankOrInf(t, buf, i, next[next[i]!]!) : Infinity;
    if (rank[i] !== Infinity) push(rank[i]!, i);
  };
  for (let i = 0; i < len; i++) rerank(i);
  let parts = len;
  while (heap.length) {
    const [r, i] = pop() as [number, number];
    // Stale: i was merged into its left neighbour (prev of a removed part is set to -2), or re-ranked.
    if (prev[i] === -2 || rank[i] !== r) continue;
    const j = next[i]!;
    next[i] = next[j]!;
    prev[next[j]!] = i;
    prev[j] = -2;
    parts--;
    rerank(i);
    if (i > 0) rerank(prev[i]!);
  }
  return parts;
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
    for (let i = 0; i < text.length;) {
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

/**
 * The process-wide o200k_base counter, its table loaded on first use: from the binary the build puts
 * next to the bundle (dist/o200k-table.bin) when it was made from this data file, else by parsing
 * gpt-tokenizer's data file.
 */
export function o200kCounter(): (text: string) => number {
  if (!shared) {
    const data = createRequire(import.meta.url).resolve('gpt-tokenizer/data/o200k_base.tiktoken');
    const prebuilt = readRankTableFile(
      fileURLToPath(new URL('./o200k-table.bin', import.meta.url)),
      statSync(data).size,
    );
    shared = createCounter(prebuilt ?? loadRankTable(data));
  }
  return shared;
}
