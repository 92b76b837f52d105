import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { calibrate } from '../../harness/calibrate/calibrate.ts';
import { measureReplication, plantEffect, totalsOf } from '../../harness/calibrate/measure.ts';
import { resampleable, resampleCases } from '../../harness/calibrate/replicate.ts';
import { formatCalibration, main, missed } from '../../harness/calibrate/main.ts';
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

  it('refuses a suite without a generator, and bad arguments, with exit 2', async () => {
    await expect(
      calibrate({ casesDir: join(casesDir, '../test/fixtures/cases'), suites: ['mini'] }),
    ).rejects.toThrow(/generator: this suite has no generator to resample/);
    expect(await main(['--replications', '0'])).toBe(2);
    expect(await main(['--effect', '2'])).toBe(2);
    expect(await main(['--suite', 'nope', '--replications', '1'])).toBe(2);
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
    };
    expect(missed({ ...r, covered: 0 })).toEqual(['coverage 0.0% < 93%']);
    expect(missed({ ...r, covered: r.planted, primaryFlagged: 1 })).toEqual([
      'primary family-wise 100.0% > 6%',
    ]);
  });
});
