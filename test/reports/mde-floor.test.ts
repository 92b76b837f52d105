import { describe, expect, it } from 'vitest';
import { pairedDifference, type ScoredCell } from '../../reports/stats/index.ts';
import { mde } from '../../reports/format.ts';
import { signFlipPBruteForce } from '../../reports/stats/sign-flip.ts';

/** 31 cases × 3 reps, baseline all 3; the treatment is +1 on rep 0 of the first `plus` cases. */
function run(plus: number): { t: ScoredCell[]; b: ScoredCell[] } {
  const t: ScoredCell[] = [];
  const b: ScoredCell[] = [];
  for (let c = 0; c < 31; c++)
    for (let rep = 0; rep < 3; rep++) {
      b.push({ case_id: `c${String(c).padStart(2, '0')}`, rep, value: 3 });
      t.push({ case_id: `c${String(c).padStart(2, '0')}`, rep, value: rep === 0 && c < plus ? 4 : 3 });
    }
  return { t, b };
}

describe('the MDE is never below what the test can ever flag', () => {
  it('31 × 3 integer pairs: the floor is 6/93 at α = 0.05 (2/2^6 < 0.05 ≤ 2/2^5), and the MDE never says less', () => {
    // Three pairs at +1: a small SE, so (t + t) · SE is below 6/93 — an effect the test cannot flag.
    const { t, b } = run(3);
    const d = pairedDifference(t, b);
    expect(d.mde.floor).toEqual({ k: 6, of: 93, value: 6 / 93 });
    expect(d.mde.value).toBe(6 / 93);
    expect(mde(d as never)).toBe('0.065 (none below 6/93)');
  });

  it('the floor is exactly the smallest mean difference the test flags', () => {
    const five = run(5);
    const six = run(6);
    expect(pairedDifference(five.t, five.b).verdict).toBe('within noise');
    expect(pairedDifference(six.t, six.b).verdict).toBe('better');
    expect(pairedDifference(six.t, six.b).diff).toBeCloseTo(6 / 93, 12);
  });

  it('at α/3 (a family of 3) the floor moves to 7/93 (2/2^7 < 0.0167 ≤ 2/2^6)', () => {
    const { t, b } = run(3);
    const d = pairedDifference(t, b, { alpha: 0.05 / 3 });
    expect(d.mde.floor).toMatchObject({ k: 7, of: 93 });
    expect(d.mde.value).toBeGreaterThanOrEqual(7 / 93);
  });

  it('no integer configuration of total t < k reaches p < 2/2^t (the floor argument), checked by brute force', () => {
    // Every vector of 5 case sums in −3…3: the smallest p at each total |t| is 2/2^|t| (|t| ≤ 5).
    const best = new Map<number, number>();
    const v = [0, 0, 0, 0, 0];
    for (let code = 0; code < 7 ** 5; code++) {
      for (let i = 0, c = code; i < 5; i++, c = Math.floor(c / 7)) v[i] = (c % 7) - 3;
      const total = Math.abs(v.reduce((a, x) => a + x, 0));
      if (total === 0 || total > 5) continue;
      const p = signFlipPBruteForce(v, [1, 1, 1, 1, 1]);
      best.set(total, Math.min(best.get(total) ?? 1, p));
    }
    for (const [total, p] of best) expect(p, `total ${total}`).toBe(2 / 2 ** total);
  });
});
