import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { calibrate } from '../../harness/calibrate/calibrate.ts';
import { measureReplication, plantEffect, totalsOf } from '../../harness/calibrate/measure.ts';
import { resampleable, resampleCases } from '../../harness/calibrate/replicate.ts';
import { formatCalibration, main, missed } from '../../harness/calibrate/main.ts';
import { measureShared, relabel, sharedTotals } from '../../harness/calibrate/shared.ts';
import { casesDir } from '../cases/helpers.ts';
import { syntheticRows } from './synthetic.ts';

/**
 * `npm run calibrate`, short: the same code as the 200-replication run in docs/results.md, on one
 * small suite and a few replications, so it stays a few seconds. The bounds are loose on purpose
 * (a handful of replications); what it pins is that the pipeline resamples, runs independent arms,
 * plants the effect it says and counts what it says.
 */
describe('calibrate (short)', () => {
  it('resamples cases by seed: the same seed gives the same cases, another seed other cases', async () => {
    const r = await resampleable(join(casesDir, 'spawn-context'));
    const a = JSON.stringify(await resampleCases(r, 1001));
    expect(JSON.stringify(await resampleCases(r, 1001))).toBe(a);
    expect(JSON.stringify(await resampleCases(r, 1002))).not.toBe(a);
    expect(await resampleCases(r, 1001, 3)).toHaveLength(3);
  });

  it('covers the planted effect and rarely flags the null, on independent (not identical) arms', async () => {
    const [s] = await calibrate({ casesDir, suites: ['spawn-context'], replications: 6, reps: 2 });
    expect(s).toMatchObject({ suite: 'spawn-context', cases: 8, reps: 2, arms: 4, replications: 6 });
    // 3 copies × 2 criteria per replication, each a null comparison and a planted one.
    expect(s!.nullComparisons).toBe(6 * 3 * 2);
    expect(s!.planted).toBe(6 * 3 * 2);
    // Independent seeds: the copies differ from the baseline somewhere in almost every comparison.
    expect(s!.nonIdentical).toBeGreaterThan(0.9 * s!.nullComparisons);
    expect(s!.tests).toEqual({ 'sign-flip-exact': 36 });
    expect(s!.covered / s!.planted).toBeGreaterThanOrEqual(0.9);
    expect(s!.primaryFlagged + s!.secondaryFlagged).toBeLessThanOrEqual(1);
    // The planted effect is real: some of it is found (8 cases × 2 reps cannot find most of it).
    expect(s!.detected).toBeGreaterThan(0);
    expect(formatCalibration([s!], 1)).toContain('| spawn-context | 8 × 2 | 4 | restraint | 6 |');
  });

  it("shared-seed regime: the suite's different arms at one seed, a null by relabelling and a planted effect against the pooled truth", async () => {
    const [s] = await calibrate({
      casesDir,
      suites: ['spawn-context'],
      replications: 4,
      reps: 2,
      regimes: ['shared'],
    });
    const sh = s!.shared!;
    expect(s!.regimes).toEqual(['shared']);
    expect(s!.replications).toBe(0); // the independent regime did not run
    expect(sh.arms.length).toBe(4);
    expect(new Set(sh.arms).size).toBe(4); // different arms, not copies
    expect(sh.replications).toBe(4);
    expect(sh.nullComparisons).toBe(4 * 3 * 2);
    expect(sh.planted).toBe(4 * 3 * 2);
    expect(Object.keys(sh.truth)).toHaveLength(3 * 2);
    expect(sh.covered / sh.planted).toBeGreaterThanOrEqual(0.85);
    const out = formatCalibration([s!], 1);
    expect(out).toContain('Shared-seed regime');
    expect(out).toMatch(/\| spawn-context \| [^|]+, [^|]+ \| 4 \|/);
    expect(out).not.toContain('| suite | cases × reps |'); // no independent table when it was not run
  }, 120_000);

  it('refuses a suite without a generator, and bad arguments, with exit 2', async () => {
    await expect(
      calibrate({ casesDir: join(casesDir, '../test/fixtures/cases'), suites: ['mini'] }),
    ).rejects.toThrow(/generator: this suite has no generator to resample/);
    expect(await main(['--replications', '0'])).toBe(2);
    expect(await main(['--effect', '2'])).toBe(2);
    expect(await main(['--suite', 'nope', '--replications', '1'])).toBe(2);
  });

  it('--help prints the usage and exits 0, running nothing', async () => {
    const out: string[] = [];
    const write = process.stdout.write;
    process.stdout.write = ((s: string) => (out.push(s), true)) as never;
    try {
      expect(await main(['--help'])).toBe(0);
      expect(await main(['-h'])).toBe(0);
    } finally {
      process.stdout.write = write;
    }
    expect(out.join('')).toMatch(/^Usage: npm run calibrate -- /);
    expect(out.join('')).toContain('--replications');
    expect(out.join('')).toContain('--regime');
  });
});

describe('the shared-seed regime, measured', () => {
  it('relabels arms within each case: every case keeps its rows, every arm the same count; the null holds by construction', () => {
    const rows = syntheticRows({ seed: 6, cases: 12, reps: 2, arms: ['base', 'x', 'y'], effects: { x: 2 } });
    const r = relabel(rows, 'r1');
    expect(r).toHaveLength(rows.length);
    for (const arm of ['base', 'x', 'y']) expect(r.filter((x) => x.arm === arm)).toHaveLength(24);
    // Within a case, a permutation: each arm once per rep, the same mapping for every rep.
    expect(new Set(r.map((x) => x.cell_id)).size).toBe(rows.length);
    expect(relabel(rows, 'r1')).toEqual(r);
    expect(relabel(rows, 'r2')).not.toEqual(r);
    // x is better by more than a point: its unrelabelled difference says so; relabelled, the family is a true null.
    const o = measureShared(rows, { effect: 0.5, seed: 's' });
    expect(o.comparisons.find((c) => c.key === 'x/correctness')!.diff!).toBeGreaterThan(1);
    expect(o.nullComparisons).toBe(2);
  });

  it('covers the pooled truth plus the planted effect, and counts a family flagged under the null', () => {
    const outs = Array.from({ length: 4 }, (_, i) =>
      measureShared(
        syntheticRows({ seed: 10 + i, cases: 20, reps: 2, arms: ['base', 'x'], effects: { x: 1 } }),
        {
          effect: 0.5,
          seed: `s${i}`,
        },
      ),
    );
    const t = sharedTotals(outs, 0.5);
    expect(t.truth['x/correctness']!.diff).toBeGreaterThan(0.7);
    expect(t.truth['x/correctness']!.diff).toBeLessThan(1.3);
    expect(t.planted).toBe(4);
    expect(t.detected).toBe(4);
    expect(t.covered).toBeGreaterThanOrEqual(3);
    // Coverage is measured against the pooled truth, not the estimate: a truth 3 points off is never covered.
    const off = sharedTotals(
      outs.map((o) => ({ ...o, comparisons: o.comparisons.map((c) => ({ ...c, diff: c.diff! + 3 })) })),
      0.5,
    );
    expect(off.covered).toBe(0);
  });
});

describe('measureReplication', () => {
  const rows = (effects: Record<string, number>) =>
    syntheticRows({ seed: 3, cases: 8, reps: 2, arms: ['base', 'c1', 'c2'], effects, criteria: ['a', 'b'] });

  it('counts a flagged family as a false positive and a planted comparison as covered or not', () => {
    const nothing = measureReplication(rows({}), { effect: 0.5, seed: 's' });
    expect(nothing).toMatchObject({ primary: 2, secondary: 2, planted: 4 });
    const shifted = measureReplication(rows({ c1: 3 }), { effect: 0.5, seed: 's' });
    // c1 is 3 points above the baseline: the null is false there, so it is flagged in both families
    // and its planted interval (around 3.5) does not cover 0.5.
    expect(shifted.primaryFlagged).toBe(true);
    expect(shifted.secondaryFlagged).toBe(true);
    expect(shifted.covered).toBeLessThanOrEqual(2);
    const t = totalsOf([nothing, shifted]);
    expect(t).toMatchObject({ replications: 2, primaryFlagged: 1, eitherFlagged: 1, planted: 8 });
  });

  it('plants exactly the stated effect: +1 on a copy score with probability p, the baseline untouched', () => {
    const base = syntheticRows({
      seed: 4,
      cases: 30,
      reps: 3,
      arms: ['base', 'c1', 'c2'],
      criteria: ['a', 'b'],
    });
    const all = plantEffect(base, { effect: 1, seed: 'x' });
    const half = plantEffect(base, { effect: 0.5, seed: 'x' });
    let bumped = 0;
    let copies = 0;
    base.forEach((r, i) => {
      for (const c of ['a', 'b']) {
        if (r.arm === 'base') {
          expect(all[i]!.scores[c]).toBe(r.scores[c]);
          continue;
        }
        expect(all[i]!.scores[c]).toBe(r.scores[c]! + 1);
        copies++;
        if (half[i]!.scores[c] === r.scores[c]! + 1) bumped++;
        else expect(half[i]!.scores[c]).toBe(r.scores[c]);
      }
    });
    expect(bumped / copies).toBeGreaterThan(0.43);
    expect(bumped / copies).toBeLessThan(0.57);
    expect(plantEffect(base, { effect: 0.5, seed: 'x' })).toEqual(half);
  });

  it('names a missed target', () => {
    const t = totalsOf([
      measureReplication(syntheticRows({ seed: 3, cases: 8, reps: 2, arms: ['b', 'c'] }), {
        effect: 0.5,
        seed: 's',
      }),
    ]);
    const r = {
      ...t,
      suite: 'x',
      cases: 8,
      reps: 2,
      arms: 2,
      criteria: ['correctness'],
      primaryCriterion: 'correctness',
      effect: 0.5,
      seeds: [0, 0] as [number, number],
      regimes: ['independent' as const],
      shared: null,
    };
    expect(missed({ ...r, covered: 0 })).toEqual(['coverage 0.0% < 93%']);
    expect(missed({ ...r, covered: r.planted, primaryFlagged: 1 })).toEqual([
      'primary family-wise 100.0% > 6%',
    ]);
  });
});
