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
  tTwoSidedP,
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

describe('tTwoSidedP', () => {
  it('is the probability of both tails: published critical values give p = 0.05 (and 0.20) on either sign', () => {
    for (const [t, df] of [
      [2.228139, 10],
      [12.7062, 1],
      [2.04523, 29],
    ] as const) {
      expect(tTwoSidedP(t, df)).toBeCloseTo(0.05, 4);
      expect(tTwoSidedP(-t, df)).toBeCloseTo(0.05, 4);
    }
    expect(tTwoSidedP(1.372184, 10)).toBeCloseTo(0.2, 4);
    // df = 2 in closed form: P(|T| > 1) = 1 − 1/√3.
    expect(tTwoSidedP(1, 2)).toBeCloseTo(1 - 1 / Math.sqrt(3), 10);
    expect(tTwoSidedP(0, 7)).toBe(1);
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

  it('tests a constant non-zero difference exactly: +1 in each of 3 cases is p = 2/8, not certainty', () => {
    const b = cells([3, 4, 2, 5, 3, 3]);
    expect(pairedDifference(cells([4, 2, 3, 5, 2, 4]), b).verdict).toBe('within noise');
    const constant = pairedDifference(cells([4, 5, 3, 6, 4, 4]), b);
    expect(constant.se).toBe(0);
    expect(constant.test).toBe('sign-flip-exact');
    expect(constant.p).toBe(0.25);
    expect(constant.verdict).toBe('within noise');
    // Three cases cannot bound a 95% interval: the whole range a 1–5 difference can take, marked.
    expect(constant.ci).toEqual([-4, 4]);
    expect(constant.ciBound).toBe('unbounded');
    expect(constant.mde).toMatchObject({ value: null, note: 'not detectable with this many cases' });
    expect(pairedDifference(b, b).verdict).toBe('within noise');
    expect(pairedDifference(cells([3, 4]), cells([2, 2])).verdict).toBe('not enough data');
  });

  it('two cases each +1 give p = 0.5 (the sign test), not "better, p = 0, CI [1, 1], MDE 0"', () => {
    const d = pairedDifference(cells([4, 4], 1), cells([3, 3], 1));
    expect(d.p).toBe(0.5);
    expect(d.verdict).toBe('within noise');
    expect(d.ci).toEqual([-4, 4]);
    expect(d.ciBound).toBe('unbounded');
    expect(d.mde.value).toBeNull();
  });

  it('a constant difference over enough cases is significant by the exact test; its interval is the constant', () => {
    const d = pairedDifference(cells([4, 4, 4, 4, 4, 4], 1), cells([3, 3, 3, 3, 3, 3], 1));
    expect(d.p).toBe(2 / 64);
    expect(d.verdict).toBe('better');
    expect(d.ci).toEqual([1, 1]);
    expect(d.mde.note).toBe('no variation (SE 0)');
  });

  it('never prints a zero-width interval with a verdict the exact test does not support', () => {
    for (let n = 2; n <= 20; n++) {
      const d = pairedDifference(
        cells(
          Array.from({ length: n }, () => 4),
          1,
        ),
        cells(
          Array.from({ length: n }, () => 3),
          1,
        ),
        { seed: n },
      );
      expect(d.test).toBe('sign-flip-exact'); // at every size (integer scores)
      const flagged = d.verdict === 'better' || d.verdict === 'worse';
      expect(flagged).toBe(d.p! < 0.05);
      if (d.ci![0] === d.ci![1]) expect(d.p!).toBeLessThan(0.05);
      expect(flagged).toBe(n >= 6);
    }
  });

  it('is exact beyond 16 cases on integer scores (Monte Carlo only off the grid); t only as the old rule', () => {
    const rand = seededRandom('t-path', 1);
    const t = cells(Array.from({ length: 40 }, () => 3 + Math.round(rand() * 2)));
    const b = cells(Array.from({ length: 40 }, () => 3 + Math.round(rand() * 2)));
    const d = pairedDifference(t, b, { seed: 'x' });
    expect(d.clusters).toBe(20);
    expect(d.test).toBe('sign-flip-exact');
    expect(d.minP).toBe(2 / 2 ** 20);
    // The interval is the test inverted: 0 lies outside it exactly when p < 0.05.
    expect(d.ci![0] > 0 || d.ci![1] < 0).toBe(d.p! < 0.05);
    // Seeded: the same comparison gives the same p and interval.
    expect(pairedDifference(t, b, { seed: 'x' })).toEqual(d);
    const old = pairedDifference(t, b, { test: 'clustered-t' });
    expect(old.test).toBe('clustered-t');
    expect(old.minP).toBeNull();
    // Same estimate, same SE and t MDE: only p, the interval and the sign-flip floor come from the other test.
    expect(old.diff).toBe(d.diff);
    expect(old.mde.floor).toBeNull();
    expect(d.mde.value).toBe(Math.max(old.mde.value!, d.mde.floor!.value));
    // Integer case sums: every flip's |T| is odd, so |T| = 1 is as small as any flip's — p is exactly 1.
    expect(d.p).toBe(1);
    expect(old.p!).toBeCloseTo(0.858, 3);
    // Two-sided on the clustered-t path: both tails of t(df) beyond |diff / se|, df = clusters − 1.
    expect(old.df).toBe(19);
    const tail = tCdf(-Math.abs(old.diff! / old.se!), 19);
    expect(old.p).toBeCloseTo(2 * tail, 12);
    expect(old.p!).toBeGreaterThan(tail);
  });

  it('reports both means over the same pairs, so their gap is the difference', () => {
    const t = cells([4, 5, 3, null, 5, 4]);
    const b = cells([3, 4, 3, 3, null, 3]);
    const d = pairedDifference(t, b);
    expect(d.means!.treatment - d.means!.baseline).toBeCloseTo(d.diff!, 12);
    expect(d.means).toEqual({ treatment: (4 + 5 + 3 + 4) / 4, baseline: (3 + 4 + 3 + 3) / 4 });
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
