import { describe, it, expect } from 'vitest';
import { createRequire } from 'node:module';
import bpe from 'gpt-tokenizer/bpeRanks/o200k_base';
import { countTokens as packageCount } from 'gpt-tokenizer/encoding/o200k_base';
import { countTokens, loadRanks } from '../../harness/tokens.ts';

// harness/tokens.ts builds o200k_base from the package's data file instead of importing its generated
// JS table (a peak-RSS saving): the table and therefore every count must be the package's own.
describe('o200k_base from the data file', () => {
  it('is rank for rank the table the package ships as JS', () => {
    const ours = loadRanks(createRequire(import.meta.url).resolve('gpt-tokenizer/data/o200k_base.tiktoken'));
    const theirs = bpe as (string | number[])[];
    expect(ours.length).toBe(theirs.length);
    const differing: number[] = [];
    for (let i = 0; i < theirs.length; i++) {
      const a = theirs[i];
      const b = ours[i];
      const same = typeof a === 'string' ? a === b : Array.isArray(b) && b.length === a!.length && b.every((x, j) => x === a![j]);
      if (!same) differing.push(i);
    }
    expect(differing).toEqual([]);
  });

  it('counts as the package counts, scripts and emoji included', () => {
    const texts = [
      'Two merchants pin 2023-10 (m_0007, m_0013), per merchant_config.api_version.',
      'SELECT merchant_id, api_version FROM merchant_config WHERE api_version = \'2023-10\'',
      'Привет, мир — 你好，世界 — مرحبا بالعالم — 🎉🚀 naïve café',
      '  indented\n\tcode() { return x => x ** 2; }\n\n',
    ];
    for (const t of texts) expect(countTokens(t)).toBe(packageCount(t));
  });
});

describe('special-token text', () => {
  it('is counted as ordinary text instead of throwing', () => {
    expect(countTokens('a transcript that quotes <|endoftext|> and <|im_start|>')).toBeGreaterThan(8);
  });
});
