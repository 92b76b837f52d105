import { describe, expect, it } from 'vitest';
import {
  clusteredMean,
  clusterBootstrapCi,
  holm,
  minimumDetectableEffect,
  pairedDifference,
  seededRandom,
  tCdf,
  tQuantile,
  verdictOf,
  type ScoredCell,
} from '../../reports/stats/index.ts';

describe('t distribution', () => {
  it('matches published quantiles', () => {
    expect(tQuantile(0.975, 1)).toBeCloseTo(12.7062, 3);
    expect(tQuantile(0.975, 10)).toBeCloseTo(2.228139, 5);
    expect(tQuantile(0.975, 29)).toBeCloseTo(2.04523, 5);
    expect(tQuantile(0.8, 29)).toBeCloseTo(0.853986, 3);
    expect(tQuantile(0.025, 5)).toBeCloseTo(-2.570582, 5);
  });

  it('has the closed-form CDF at df = 2', () => {
    for (const t of [-3, -0.5, 0, 1.2, 4])
      expect(tCdf(t, 2)).toBeCloseTo(0.5 * (1 + t / Math.sqrt(t * t + 2)), 10);
  });
});

describe('holm', () => {
  it('steps down and stays monotone; nulls are outside the family', () => {
    expect(holm([0.01, 0.04, 0.03])).toEqual([0.03, 0.06, 0.06]);
    const out = holm([0.2, null, 0.001]);
    expect(out[1]).toBeNull();
    expect(out[2]).toBeCloseTo(0.002, 12);
    expect(out[0]).toBeCloseTo(0.2, 12);
  });
});

describe('clusteredMean', () => {
  it('equals the t interval over case means when reps are balanced', () => {
    const obs = [1, 2, 3, 5, 4, 4, 2, 2, 3, 5, 5, 4].map((value, i) => ({
      cluster: `c${Math.floor(i / 3)}`,
      value,
    }));
    const est = clusteredMean(obs)!;
    const caseMeans = [2, 13 / 3, 7 / 3, 14 / 3];
    const m = caseMeans.reduce((a, b) => a + b) / 4;
    const sd = Math.sqrt(caseMeans.reduce((a, x) => a + (x - m) ** 2, 0) / 3);
    expect(est.mean).toBeCloseTo(m, 12);
    expect(est.se!).toBeCloseTo(sd / 2, 12);
    expect(est.ci![1] - est.mean).toBeCloseTo(tQuantile(0.975, 3) * (sd / 2), 10);
    expect(est.clusters).toBe(4);
  });

  it('gives no interval with a single case', () => {
    const est = clusteredMean([
      { cluster: 'a', value: 3 },
      { cluster: 'a', value: 5 },
    ])!;
    expect(est.mean).toBe(4);
    expect(est.ci).toBeNull();
  });
});

describe('pairedDifference', () => {
  const cells = (values: (number | null)[], reps = 2): ScoredCell[] =>
    values.map((value, i) => ({ case_id: `c${Math.floor(i / reps)}`, rep: i % reps, value }));

  it('pairs on case × rep, skipping unscored cells on either side', () => {
    const t = cells([4, 5, 3, null, 5, 4]);
    const b = cells([3, 4, 3, 3, null, 3]);
    const d = pairedDifference(t, b);
    expect(d.pairs).toBe(4);
    expect(d.unpaired).toBe(2);
    expect(d.diff).toBeCloseTo((1 + 1 + 0 + 1) / 4, 12);
    expect(d.clusters).toBe(3);
  });

  it('pairs on case means when asked', () => {
    const d = pairedDifference(cells([4, 5, 3, 3]), cells([3, 3, 3, 4]), { pairOn: 'case' });
    expect(d.pairs).toBe(2);
    expect(d.diff).toBeCloseTo((1.5 + -0.5) / 2, 12);
  });

  it('calls a constant non-zero difference significant and an identical arm within noise', () => {
    const b = cells([3, 4, 2, 5, 3, 3]);
    expect(pairedDifference(cells([4, 2, 3, 5, 2, 4]), b).verdict).toBe('within noise');
    expect(pairedDifference(cells([4, 5, 3, 6, 4, 4]), b).verdict).toBe('better');
    expect(pairedDifference(b, b).verdict).toBe('within noise');
    expect(pairedDifference(cells([3, 4]), cells([2, 2])).verdict).toBe('not enough data');
  });

  it('gives the same bootstrap interval for the same seed, another for another seed', () => {
    const t = cells([4.1, 5, 3.3, 2.2, 5, 4.7, 3.9, 3.1, 4.4, 5]);
    const b = cells([3, 4.2, 3.1, 3.6, 4, 3.3, 3.5, 2, 4.8, 4]);
    const one = pairedDifference(t, b, { bootstrap: 500, seed: 'run-7/a/correctness' });
    const again = pairedDifference(t, b, { bootstrap: 500, seed: 'run-7/a/correctness' });
    const other = pairedDifference(t, b, { bootstrap: 500, seed: 'run-8/a/correctness' });
    expect(one.bootstrap!.ci).toEqual(again.bootstrap!.ci);
    expect(one.bootstrap!.ci).not.toEqual(other.bootstrap!.ci);
  });

  it('verdictOf follows the sign and the (adjusted) p', () => {
    expect(verdictOf(0.4, 0.01)).toBe('better');
    expect(verdictOf(-0.4, 0.01)).toBe('worse');
    expect(verdictOf(-0.4, 0.06)).toBe('within noise');
    expect(verdictOf(null, null)).toBe('not enough data');
  });
});

describe('minimumDetectableEffect', () => {
  it('is (t.975 + t.80) · SE', () => {
    expect(minimumDetectableEffect(0.1, 29)).toBeCloseTo((2.04523 + 0.853986) * 0.1, 4);
    expect(minimumDetectableEffect(0.1, 0)).toBeNull();
  });
});

describe('clusterBootstrapCi', () => {
  it('resamples whole clusters: a cluster-constant signal gives an interval inside the cluster range', () => {
    const obs = ['a', 'b', 'c', 'd'].flatMap((cluster, i) => [0, 1, 2].map(() => ({ cluster, value: i })));
    const ci = clusterBootstrapCi(obs, { resamples: 1000, rand: seededRandom(1) })!;
    expect(ci[0]).toBeGreaterThanOrEqual(0);
    expect(ci[1]).toBeLessThanOrEqual(3);
    expect(ci[0]).toBeLessThan(1.5);
    expect(ci[1]).toBeGreaterThan(1.5);
  });
});

describe('pairedDifferenceOfRows', () => {
  it('is pairedDifference over the scored cells of ok rows', async () => {
    const { syntheticRows } = await import('./synthetic.ts');
    const { pairedDifferenceOfRows, scoredCells: cellsOf } = await import('../../reports/index.ts');
    const rows = syntheticRows({ seed: 3, cases: 6, reps: 2, arms: ['a', 'b'] });
    const a = rows.filter((r) => r.arm === 'a');
    const b = rows.filter((r) => r.arm === 'b');
    expect(pairedDifferenceOfRows(b, a, 'correctness', { seed: 1 })).toEqual(
      pairedDifference(cellsOf(b, 'correctness'), cellsOf(a, 'correctness'), { seed: 1 }),
    );
    expect(pairedDifferenceOfRows(b, a, 'correctness').pairs).toBe(12);
  });
});
