import { describe, expect, it } from 'vitest';
import { generate as ledgerline } from '../../cases/ledgerline/generate.ts';
import { generate as milk } from '../../cases/milk/generate.ts';
import { generate as owned } from '../../cases/esc-owned-parity/generate.ts';
import { generate as spawn } from '../../cases/spawn-context/generate.ts';
import { generate as multi } from '../../cases/multi-child/generate.ts';
import { createWorld } from '../../cases/ledgerline/world.ts';
import { messagesTokens, countTokens } from '../../harness/core/tokens.ts';

type Raw = {
  id: string;
  world?: unknown;
  tags?: string[];
  receiverHistory?: { messages: never[] };
  source: { messages: never[] };
  sources?: { messages: never[] }[];
  task: string;
};

const generators = {
  ledgerline,
  milk,
  'esc-owned-parity': owned,
  'spawn-context': spawn,
  'multi-child': multi,
};

describe('generators are seeded and deterministic', () => {
  it.each(Object.entries(generators))('%s: same seed → identical cases', (_, generate) => {
    expect(JSON.stringify(generate({ seed: 7, count: 4 }))).toBe(
      JSON.stringify(generate({ seed: 7, count: 4 })),
    );
  });

  it.each(Object.entries(generators))(
    '%s: case i does not depend on how many are asked for',
    (_, generate) => {
      const few = generate({ seed: 3, count: 2 });
      const more = generate({ seed: 3, count: 5 });
      expect(JSON.stringify(more.slice(0, 2))).toBe(JSON.stringify(few));
    },
  );

  it('ledgerline: a different seed gives different worlds', () => {
    const a = ledgerline({ seed: 1, count: 5 }) as Raw[];
    const b = ledgerline({ seed: 2, count: 5 }) as Raw[];
    a.forEach((c, i) => expect(JSON.stringify(c.world)).not.toBe(JSON.stringify(b[i]!.world)));
  });

  it('ledgerline: the 30 worlds vary in what matters (counts, fallback adapter, knowability), not only in wording', () => {
    const worlds = Array.from({ length: 30 }, (_, i) => createWorld(1, i));
    expect(new Set(worlds.map((w) => w.fallbackAdapter)).size).toBeGreaterThanOrEqual(4);
    expect(new Set(worlds.map((w) => w.merchants.length)).size).toBeGreaterThanOrEqual(5);
    expect(new Set(worlds.map((w) => w.adapters.length))).toEqual(new Set([3, 4, 5]));
    expect(worlds.some((w) => w.sandbox.readable) && worlds.some((w) => !w.sandbox.readable)).toBe(true);
    expect(worlds.some((w) => w.gatewayRegion) && worlds.some((w) => w.batchJob)).toBe(true);
    expect(new Set(worlds.map((w) => w.assumption)).size).toBe(3);
  });

  it('milk, esc-owned-parity and spawn-context cover every project, design and scenario', () => {
    expect(new Set((milk({ seed: 1, count: 12 }) as Raw[]).map((c) => c.tags![1])).size).toBe(4);
    expect(new Set((milk({ seed: 1, count: 12 }) as Raw[]).map((c) => c.tags![2])).size).toBe(12);
    expect(new Set((owned({ seed: 1, count: 8 }) as Raw[]).map((c) => c.task)).size).toBe(8);
    expect(new Set((spawn({ seed: 1, count: 8 }) as Raw[]).map((c) => c.tags![1]))).toEqual(
      new Set(['single-turn', 'three-turn', 'compacted']),
    );
  });
});

describe('sizes follow the ledgerline seed', () => {
  it('ledgerline: parent window ≈ 22.4k and child transcript ≈ 28.1k tokens (means over the 30 cases, ±5%)', () => {
    const cases = ledgerline({ seed: 1, count: 30 }) as Raw[];
    const parent =
      cases.reduce((n, c) => n + messagesTokens(c.receiverHistory!.messages) + countTokens(c.task), 0) /
      cases.length;
    const child = cases.reduce((n, c) => n + messagesTokens(c.source.messages), 0) / cases.length;
    expect(parent).toBeGreaterThan(22_400 * 0.95);
    expect(parent).toBeLessThan(22_400 * 1.05);
    expect(child).toBeGreaterThan(28_100 * 0.95);
    expect(child).toBeLessThan(28_100 * 1.05);
  });

  it('multi-child: four transcripts come to ≈ 112k tokens (mean, ±8%)', () => {
    const cases = multi({ seed: 1, count: 6 }) as Raw[];
    const mean =
      cases.reduce((n, c) => n + c.sources!.reduce((m, s) => m + messagesTokens(s.messages), 0), 0) /
      cases.length;
    expect(cases.every((c) => c.sources!.length === 4)).toBe(true);
    expect(mean).toBeGreaterThan(112_000 * 0.92);
    expect(mean).toBeLessThan(112_000 * 1.08);
  });
});
