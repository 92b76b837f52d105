import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { kthSmallest, signFlipPBruteForce, signFlipTest } from '../../reports/stats/sign-flip.ts';
import { seededRandom } from '../../reports/stats/random.ts';

const ones = (n: number) => Array.from({ length: n }, () => 1);

describe('signFlipTest: exact p-values computed by hand', () => {
  it('two cases each +1: p = 2/4 = 0.5, and no shift can be rejected', () => {
    const r = signFlipTest([1, 1], [1, 1]);
    expect(r.p).toBe(0.5);
    expect(r.method).toBe('exact');
    expect(r.flips).toBe(4);
    expect(r.ci).toEqual([-Infinity, Infinity]);
    expect(r.minP).toBe(0.5);
  });

  it('a constant difference over n cases has p = 2/2^n: 3 → 0.25, 6 → 0.03125 (then the interval is the constant)', () => {
    expect(signFlipTest(ones(3), ones(3)).p).toBe(0.25);
    const six = signFlipTest(ones(6), ones(6));
    expect(six.p).toBe(0.03125);
    expect(six.ci).toEqual([1, 1]);
    // Five cases cannot reach p < 0.05 at all (2/32 = 0.0625): the 95% interval is unbounded.
    expect(signFlipTest(ones(5), ones(5)).ci).toEqual([-Infinity, Infinity]);
  });

  it('differences 2, −1, 1, 3: |±2±1±1±3| ≥ 5 in 6 of 16 flips → p = 0.375', () => {
    expect(signFlipTest([2, -1, 1, 3], ones(4)).p).toBe(0.375);
  });

  it('differences 1, 2, 3: only ±6 reach |6| → p = 0.25; a zero total gives p = 1', () => {
    expect(signFlipTest([1, 2, 3], ones(3)).p).toBe(0.25);
    expect(signFlipTest([1, -1, 2, -2], ones(4)).p).toBe(1);
  });

  it('flips whole cases: reps count through the case sum (two cases of 3 reps at +1 → still p = 0.5)', () => {
    expect(signFlipTest([3, 3], [3, 3]).p).toBe(0.5);
  });
});

const caseData = fc
  .array(fc.tuple(fc.integer({ min: -8, max: 8 }), fc.integer({ min: 1, max: 3 })), {
    minLength: 2,
    maxLength: 9,
  })
  .map((xs) => ({ sums: xs.map(([s]) => s / 2), counts: xs.map(([, c]) => c) }));

describe('signFlipTest against the definition (brute force over every flip)', () => {
  it('p at zero equals the brute-force p', () => {
    fc.assert(
      fc.property(caseData, ({ sums, counts }) => {
        expect(signFlipTest(sums, counts).p).toBeCloseTo(signFlipPBruteForce(sums, counts), 12);
      }),
      { numRuns: 300 },
    );
  });

  it('the interval is exactly {δ : p(δ) ≥ 0.05}: its ends are accepted, just past them is rejected', () => {
    fc.assert(
      fc.property(caseData, ({ sums, counts }) => {
        const { ci } = signFlipTest(sums, counts);
        const mean = sums.reduce((a, b) => a + b) / counts.reduce((a, b) => a + b);
        expect(ci[0]).toBeLessThanOrEqual(mean + 1e-12);
        expect(ci[1]).toBeGreaterThanOrEqual(mean - 1e-12);
        for (const [end, out] of [
          [ci[0], ci[0] - 1e-6],
          [ci[1], ci[1] + 1e-6],
        ] as const) {
          if (!Number.isFinite(end)) continue;
          expect(signFlipPBruteForce(sums, counts, end)).toBeGreaterThanOrEqual(0.05);
          expect(signFlipPBruteForce(sums, counts, out)).toBeLessThan(0.05);
        }
        if (!Number.isFinite(ci[1]))
          expect(signFlipPBruteForce(sums, counts, mean + 1e6)).toBeGreaterThanOrEqual(0.05);
      }),
      { numRuns: 300 },
    );
  });

  it('zero is outside the 95% interval exactly when p < 0.05', () => {
    fc.assert(
      fc.property(caseData, ({ sums, counts }) => {
        const r = signFlipTest(sums, counts);
        const excludes = r.ci[0] > 0 || r.ci[1] < 0;
        expect(excludes).toBe(r.p < 0.05);
      }),
      { numRuns: 300 },
    );
  });
});

describe('signFlipTest by Monte Carlo', () => {
  const sums = [0.5, 1, -0.25, 2, 1.5, 0, 1, 0.75, -1, 2.5, 1, 0.5];
  const counts = sums.map(() => 3);

  it('is seeded: the same stream gives the same p and interval', () => {
    const a = signFlipTest(sums, counts, { exactMax: 0, lattice: false, rand: seededRandom('mc', 1) });
    const b = signFlipTest(sums, counts, { exactMax: 0, lattice: false, rand: seededRandom('mc', 1) });
    expect(a).toEqual(b);
    expect(a.method).toBe('monte-carlo');
    expect(a.flips).toBe(10_001);
  });

  it('agrees with the exact test within Monte Carlo error', () => {
    const exact = signFlipTest(sums, counts);
    const mc = signFlipTest(sums, counts, { exactMax: 0, lattice: false, rand: seededRandom('mc', 2) });
    expect(Math.abs(mc.p - exact.p)).toBeLessThan(0.01);
    expect(Math.abs(mc.ci[0] - exact.ci[0])).toBeLessThan(0.05);
    expect(Math.abs(mc.ci[1] - exact.ci[1])).toBeLessThan(0.05);
  });

  it('draws every case its own sign, past the 32 signs one uniform gives (zero cases change nothing)', () => {
    // 40 cases, only cases 30–37 non-zero: the Monte Carlo p at 0 is the exact p over those 8 cases.
    const eight = [2, -1, 1, 3, 1, 2, -2, 1];
    const exact = signFlipTest(
      eight,
      eight.map(() => 3),
    );
    const padded = Array.from({ length: 40 }, (_, i) => (i >= 30 && i < 38 ? eight[i - 30]! : 0));
    const mc = signFlipTest(
      padded,
      ones(40).map(() => 3),
      { lattice: false, rand: seededRandom('mc', 3) },
    );
    expect(mc.method).toBe('monte-carlo');
    expect(Math.abs(mc.p - exact.p)).toBeLessThan(0.015);
    // (Not the interval: a shifted zero case is no longer zero.)
  });

  it('reads interval ends by selection: kthSmallest agrees with a sort', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ noNaN: true, noDefaultInfinity: true, min: -10, max: 10 }), { minLength: 1 }),
        fc.nat(),
        (xs, k0) => {
          const k = k0 % xs.length;
          const sorted = [...xs].sort((a, b) => a - b);
          // === : a selection may return −0 where the sort put +0 (fast-check draws both); they are equal.
          expect(kthSmallest(Float64Array.from(xs), k) === sorted[k]).toBe(true);
        },
      ),
    );
  });

  it('needs a seeded stream beyond the exact limit', () => {
    expect(() => signFlipTest(ones(17), ones(17), { lattice: false })).toThrow(/seeded rand/);
  });
});
