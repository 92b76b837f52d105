import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { clusterBootstrapCi } from '../../reports/stats/bootstrap.ts';
import { holmFamily } from '../../reports/stats/family.ts';
import { differenceBounds, withinBounds } from '../../reports/stats/scale.ts';
import { normalDraw, seededRandom } from '../../reports/stats/random.ts';

/** Survivors of the mutation run on reports/stats (docs/testing.md) that were not equivalent. */
describe('holmFamily', () => {
  it('counts only the members with a p in m, and states the MDE level at α/m (α when the family is empty)', () => {
    const f = holmFamily([0.01, null, 0.02], 0.05);
    expect(f.size).toBe(2);
    expect(f.testAlpha).toBe(0.025);
    expect(f.adjusted).toEqual([0.02, null, 0.02]);
    expect(holmFamily([null], 0.05)).toEqual({ adjusted: [null], size: 0, testAlpha: 0.05 });
  });
});

describe('seededRandom', () => {
  /**
   * sfc32 as published (PractRand), seeded from the first 16 bytes of sha256 of the parts joined by NUL
   * — with the counter d starting one higher: harness's version increments d before adding it, which
   * is published sfc32 from (a, b, c, d + 1). Kept as it is: every seeded figure depends on it.
   */
  function reference(...parts: (string | number)[]): () => number {
    const h = createHash('sha256').update(parts.map(String).join('\u0000')).digest();
    let [a, b, c, d] = [0, 4, 8, 12].map((o) => h.readUInt32LE(o)) as [number, number, number, number];
    d = (d + 1) | 0;
    return () => {
      const t = (((a + b) | 0) + d) | 0;
      d = (d + 1) | 0;
      a = b ^ (b >>> 9);
      b = (c + (c << 3)) | 0;
      c = (c << 21) | (c >>> 11);
      c = (c + t) | 0;
      return (t >>> 0) / 4294967296;
    };
  }

  it('is sfc32 (counter from d + 1) over the seed’s sha256, so a report rebuilt anywhere draws the same numbers', () => {
    for (const seed of [['bootstrap', 7], ['sign-flip', 'x/arm/correctness'], [0]] as (string | number)[][]) {
      const mine = seededRandom(...seed);
      const ref = reference(...seed);
      for (let i = 0; i < 50; i++) expect(mine()).toBe(ref());
    }
    expect(seededRandom('a', 1)()).not.toBe(seededRandom('a', 2)());
    expect(seededRandom('a1')()).not.toBe(seededRandom('a', 1)());
  });

  it('normalDraw is Box–Muller: √(−2 ln u)·cos(2πv) with u = 1 − the first draw, v the second', () => {
    const draws = [0.75, 0.125];
    const z = normalDraw(() => draws.shift()!);
    expect(z).toBeCloseTo(Math.sqrt(-2 * Math.log(0.25)) * Math.cos(Math.PI / 4), 12);
  });
});

describe('clusterBootstrapCi', () => {
  it('is the central 95% of the bootstrap means: about mean ± 1.96 SE, wider than the central 80%', () => {
    // Ten clusters with means 0…9 (two reps each): the bootstrap mean has SE ≈ √(8.25 / 10) ≈ 0.91,
    // so the 95% interval is ≈ 4.5 ± 1.78 and the 80% one ≈ 4.5 ± 1.16.
    const obs = Array.from({ length: 10 }, (_, i) => [
      { cluster: `c${i}`, value: i - 0.5 },
      { cluster: `c${i}`, value: i + 0.5 },
    ]).flat();
    const ci95 = clusterBootstrapCi(obs, { resamples: 4000, rand: seededRandom('boot', 1) })!;
    const ci80 = clusterBootstrapCi(obs, { resamples: 4000, level: 0.8, rand: seededRandom('boot', 1) })!;
    expect(ci95[0]).toBeCloseTo(4.5 - 1.96 * Math.sqrt(0.825), 0);
    expect(ci95[1]).toBeCloseTo(4.5 + 1.96 * Math.sqrt(0.825), 0);
    expect(ci95[1] - ci95[0]).toBeGreaterThan(3.2);
    expect(ci80[1] - ci80[0]).toBeLessThan(2.6);
    expect(ci80[0]).toBeGreaterThan(ci95[0]);
    expect(clusterBootstrapCi(obs.slice(0, 2), { resamples: 10, rand: seededRandom(1) })).toBeNull();
    expect(clusterBootstrapCi(obs, { resamples: 0, rand: seededRandom(1) })).toBeNull();
  });
});

describe('withinBounds', () => {
  it('marks an infinite end unbounded, a finite end past the scale clipped, and leaves an interval inside alone', () => {
    const b = differenceBounds([1, 5]);
    expect(b).toEqual([-4, 4]);
    expect(withinBounds([-Infinity, 2], b)).toEqual({ ci: [-4, 2], bound: 'unbounded' });
    expect(withinBounds([-1, Infinity], b)).toEqual({ ci: [-1, 4], bound: 'unbounded' });
    expect(withinBounds([-4.5, 1], b)).toEqual({ ci: [-4, 1], bound: 'clipped' });
    expect(withinBounds([-1, 4.5], b)).toEqual({ ci: [-1, 4], bound: 'clipped' });
    expect(withinBounds([-4, 4], b)).toEqual({ ci: [-4, 4], bound: null });
    expect(withinBounds([-0.5, 0.7], b)).toEqual({ ci: [-0.5, 0.7], bound: null });
    expect(withinBounds([-9, 9], null)).toEqual({ ci: [-9, 9], bound: null });
  });
});
