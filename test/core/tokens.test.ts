import { describe, it, expect } from 'vitest';
import { createRequire } from 'node:module';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import bpe from 'gpt-tokenizer/bpeRanks/o200k_base';
import { countTokens as packageCount } from 'gpt-tokenizer/encoding/o200k_base';
import { countTokens } from '../../harness/core/tokens.ts';
import { createCounter, O200K_SPLIT } from '../../harness/core/tokenizer/o200k.ts';
import {
  loadRankTable,
  rankOf,
  readRankTableFile,
  serializeRankTable,
} from '../../harness/core/tokenizer/rank-table.ts';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { asciiPieceEnd } from '../../harness/core/tokenizer/ascii-split.ts';
import { repoRoot } from '../support/cli.ts';

// harness/tokenizer/o200k.ts keeps o200k_base in typed arrays and runs its own byte pair merge (a
// memory saving): its table and its counts must be gpt-tokenizer's. One deliberate difference: text
// with U+FEFF, where gpt-tokenizer's UTF-8 decoding drops the BOM from a byte key and then looks up
// another token; the counter here compares bytes, as tiktoken does, so that character is left out.
const table = loadRankTable(createRequire(import.meta.url).resolve('gpt-tokenizer/data/o200k_base.tiktoken'));
const count = createCounter(table);
const theirs = (text: string) => packageCount(text, { disallowedSpecial: new Set() } as never);

// ASCII classes and their edges (contractions in either case, \v \f, control characters, '/' after
// newlines), next to non-ASCII letters, digits and spaces the hand-written ASCII split must leave to the regex.
const alphabet = [
  'a',
  'Z',
  'ABC',
  'Hello',
  'HTTPServer',
  'é',
  'ß',
  'İ',
  'ǅ',
  '1',
  '7',
  '123456',
  '²',
  '٣',
  ' ',
  '  ',
  '\n',
  '\r\n',
  '\t',
  '\v',
  '\f',
  '\u00a0',
  '\u2028',
  '\u3000',
  '\x00',
  '\x1c',
  '\x7f',
  "'",
  "'s",
  "'LL",
  "'Ve",
  "'re",
  "'D",
  "'m",
  "'T",
  "'x",
  '/',
  '//',
  '\n/',
  '.',
  '-',
  '_',
  '{',
  '"',
  ' (',
  '((',
  ' ...',
  '😀',
  '👩‍👩‍👧',
  '中',
  'ا',
  '\u0301',
  '\u200d',
  'ー',
  '\ud800',
];
const text = fc
  .array(fc.oneof(fc.constantFrom(...alphabet), fc.string({ unit: 'binary', maxLength: 4 })), {
    maxLength: 40,
  })
  .map((parts) => parts.join('').replaceAll('\uFEFF', ''));

describe('o200k_base from the data file', () => {
  it('is rank for rank the table the package ships as JS', () => {
    const ranks = bpe as (string | number[])[];
    expect(table.start.length - 1).toBe(ranks.length);
    const differing: number[] = [];
    for (let r = 0; r < ranks.length; r++) {
      const v = ranks[r]!;
      const expected = typeof v === 'string' ? Buffer.from(v, 'utf8') : Buffer.from(v);
      const ours = Buffer.from(table.bytes.subarray(table.start[r]!, table.start[r + 1]!));
      if (!ours.equals(expected) || rankOf(table, expected, 0, expected.length) !== r) differing.push(r);
    }
    expect(differing).toEqual([]);
  });

  it('reads back from its binary form (what the build prebuilds) only for the data file it came from', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'he-table-')), 'o200k-table.bin');
    writeFileSync(file, serializeRankTable(table, 3_613_922));
    const back = readRankTableFile(file, 3_613_922)!;
    expect(Buffer.from(back.bytes).equals(Buffer.from(table.bytes))).toBe(true);
    expect(
      Buffer.from(back.start.buffer).equals(
        Buffer.from(table.start.buffer, table.start.byteOffset, table.start.byteLength),
      ),
    ).toBe(true);
    expect(Buffer.from(back.slots.buffer).equals(Buffer.from(table.slots.buffer))).toBe(true);
    expect(createCounter(back)('Two merchants pin 2023-10 — naïve café 🎉')).toBe(
      count('Two merchants pin 2023-10 — naïve café 🎉'),
    );
    expect(readRankTableFile(file, 1234)).toBeUndefined();
    expect(readRankTableFile(join(file, '..', 'absent.bin'), 3_613_922)).toBeUndefined();
  });

  it('counts as the package counts, scripts and emoji included', () => {
    const texts = [
      'Two merchants pin 2023-10 (m_0007, m_0013), per merchant_config.api_version.',
      "SELECT merchant_id, api_version FROM merchant_config WHERE api_version = '2023-10'",
      'Привет, мир — 你好，世界 — مرحبا بالعالم — 🎉🚀 naïve café',
      '  indented\n\tcode() { return x => x ** 2; }\n\n',
      '=================================================================== ----- //// \r\n\r\n',
    ];
    for (const t of texts) expect(count(t), t).toBe(theirs(t));
  });

  it('counts every real transcript and shipped case file as the package does', () => {
    const files: string[] = [];
    const walk = (d: string) => {
      for (const f of readdirSync(d))
        (statSync(join(d, f)).isDirectory() ? walk : files.push.bind(files))(join(d, f));
    };
    walk(join(repoRoot, 'test/fixtures/transcripts'));
    walk(join(repoRoot, 'cases'));
    expect(files.length).toBeGreaterThan(40);
    const differing = files.filter((f) => {
      const text = readFileSync(f, 'utf8').replaceAll('\uFEFF', '');
      return count(text) !== theirs(text);
    });
    expect(differing).toEqual([]);
  });

  it('splits ASCII exactly where the o200k pattern splits, and leaves the rest to it', () => {
    const pattern = new RegExp(O200K_SPLIT.source, 'gu');
    const property = fc.property(text, (t) => {
      for (const m of t.matchAll(pattern)) {
        const end = asciiPieceEnd(t, m.index);
        if (end !== -1 && end !== m.index + m[0].length) return false;
      }
      return true;
    });
    fc.assert(property, { numRuns: 4000, seed: 11 });
    expect(asciiPieceEnd('1²', 0)).toBe(-1); // '²' is \p{N}: the regex's decision
    expect(asciiPieceEnd("I'M fine", 0)).toBe(3);
  });

  it('counts generated text as the package does', () => {
    fc.assert(
      fc.property(text, (t) => count(t) === theirs(t)),
      { numRuns: 4000, seed: 7 },
    );
  });
});

describe('special-token text', () => {
  it('is counted as ordinary text instead of throwing', () => {
    expect(countTokens('a transcript that quotes <|endoftext|> and <|im_start|>')).toBeGreaterThan(8);
  });
});

describe('long pieces (issue 29 probe: an own agent wrote a 50 MB run of one letter)', () => {
  // A piece longer than 256 bytes is merged with a heap, not the quadratic scan: the counts must stay
  // gpt-tokenizer's, ties (leftmost first) included.
  const rnd = (seed: number) => () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  it.each([
    ['one letter', 'A'.repeat(3000)],
    ['lowercase run', 'a'.repeat(257)],
    [
      'base64-like',
      Array.from(
        { length: 4000 },
        (
          (r) => () =>
            'abcdefghijklmnopqrstuvwxyz0123456789+/'[Math.floor(r() * 38)]!
        )(rnd(7)),
      ).join(''),
    ],
    [
      'mixed letters',
      Array.from(
        { length: 5000 },
        (
          (r) => () =>
            'aAbBeEtTsS'[Math.floor(r() * 10)]!
        )(rnd(3)),
      ).join(''),
    ],
    ['accented', 'é'.repeat(600) + 'ñandú'.repeat(200)],
  ])('%s: the same count as gpt-tokenizer', (_, text) => {
    expect(countTokens(text)).toBe(packageCount(text));
  });
});
