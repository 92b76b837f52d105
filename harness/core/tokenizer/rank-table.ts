import { existsSync, readFileSync } from 'node:fs';

/**
 * A BPE rank table in three typed arrays (~4 MB for o200k_base's 200k tokens, against ~15 MB live for
 * maps of strings): every token's bytes back to back, where each starts, and an open-addressing hash
 * table from bytes to rank. Only lookups by bytes: nothing here decodes.
 */

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
  for (let i = 0; i < text.length;) {
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
  const table: RankTable = {
    bytes: bytes.slice(0, at),
    start: start.slice(0, rank + 1),
    slots: new Int32Array(slotCount(rank)),
  };
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

/**
 * Decodes text[from, to) (standard base64, '=' padded) into out at `at`; returns the new end. By hand:
 * a Buffer.from per line (200k small buffers) makes loading the table about twice as slow.
 */
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
 * The table as one binary file (the build writes dist/o200k-table.bin): a JSON header line padded to
 * 8 bytes, then bytes, start and slots. Loading it is one read instead of parsing 200k base64 lines.
 * `sourceSize` ties it to the data file it was built from.
 */
export function serializeRankTable(t: RankTable, sourceSize: number): Buffer {
  const pad = (n: number) => Math.ceil(n / 8) * 8;
  let header = JSON.stringify({
    format: 1,
    sourceSize,
    bytes: t.bytes.length,
    start: t.start.length,
    slots: t.slots.length,
  });
  header = header.padEnd(pad(header.length + 1) - 1, ' ') + '\n';
  const parts = [
    Buffer.from(header, 'latin1'),
    Buffer.from(t.bytes.buffer, t.bytes.byteOffset, t.bytes.byteLength),
  ];
  parts.push(Buffer.alloc(pad(t.bytes.byteLength) - t.bytes.byteLength));
  parts.push(
    Buffer.from(t.start.buffer, t.start.byteOffset, t.start.byteLength),
    Buffer.from(t.slots.buffer, t.slots.byteOffset, t.slots.byteLength),
  );
  return Buffer.concat(parts);
}

/** A table written by serializeRankTable for a data file of `sourceSize` bytes; undefined if absent or for another file. */
export function readRankTableFile(file: string, sourceSize: number): RankTable | undefined {
  if (!existsSync(file)) return undefined;
  const buf = readFileSync(file);
  const nl = buf.indexOf(0x0a);
  const h = JSON.parse(buf.subarray(0, nl).toString('latin1')) as {
    format: number;
    sourceSize: number;
    bytes: number;
    start: number;
    slots: number;
  };
  if (h.format !== 1 || h.sourceSize !== sourceSize) return undefined;
  // Copied out of the file's buffer: typed-array views need aligned offsets, and copies keep nothing else alive.
  let at = nl + 1;
  const bytes = new Uint8Array(buf.subarray(at, at + h.bytes));
  at += Math.ceil(h.bytes / 8) * 8;
  const ints = (count: number) =>
    new Int32Array(buf.buffer.slice(buf.byteOffset + at, buf.byteOffset + (at += count * 4)));
  const start = ints(h.start);
  const slots = ints(h.slots);
  if (bytes.length !== h.bytes || start.length !== h.start || slots.length !== h.slots) return undefined; // a cut-off file
  return { bytes, start, slots };
}
