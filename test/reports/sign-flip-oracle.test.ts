import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { signFlipTest } from '../../reports/stats/sign-flip.ts';
import { pairedDifference, type ScoredCell } from '../../reports/stats/paired.ts';
import { seededRandom } from '../../reports/stats/random.ts';

/**
 * An independent oracle for the sign-flip statistics at sizes no enumeration reaches: the exact null
 * distribution of T = Σ sᵢ·xᵢ counted with BigInt over an integer grid (a shift δ = P/Q scales every
 * xᵢ = Sᵢ − nᵢδ to an integer), written here from the definition and sharing no code with
 * reports/stats. p(δ) = #{flips : |T_s| ≥ |T_obs|} / 2^n, exactly.
 */
function oracleP(
  sums: readonly number[],
  counts: readonly number[],
  deltaNum: bigint,
  deltaDen: bigint,
): number {
  // Sums are on the grid 1/den for a small den; find it.
  let den = 1n;
  while (!sums.every((s) => Math.abs(s * Number(den) - Math.round(s * Number(den))) < 1e-9)) den++;
  // xᵢ·den·deltaDen = Sᵢ·den·deltaDen − nᵢ·deltaNum·den
  const xs = sums.map(
    (s, i) => BigInt(Math.round(s * Number(den))) * deltaDen - BigInt(counts[i]!) * deltaNum * den,
  );
  let dist = new Map<bigint, bigint>([[0n, 1n]]);
  for (const x of xs) {
    const next = new Map<bigint, bigint>();
    for (const [t, w] of dist) {
      next.set(t + x, (next.get(t + x) ?? 0n) + w);
      next.set(t - x, (next.get(t - x) ?? 0n) + w);
    }
    dist = next;
  }
  const abs = (v: bigint) => (v < 0n ? -v : v);
  const obs = abs(xs.reduce((a, b) => a + b, 0n));
  let hits = 0n;
  for (const [t, w] of dist) if (abs(t) >= obs) hits += w;
  const total = 1n << BigInt(xs.length);
  // Exact ratio to double: scale so both fit.
  const shift = BigInt(Math.max(0, xs.length - 52));
  return Number(hits >> shift) / Number(total >> shift);
}

/** A rational near x with a denominator of 2^40, for testing just inside / outside an interval end. */
const rational = (x: number): [bigint, bigint] => [BigInt(Math.round(x * 2 ** 40)), 1n << 40n];

const manyCases = fc
  .array(fc.tuple(fc.integer({ min: -6, max: 6 }), fc.integer({ min: 1, max: 3 })), {
    minLength: 17,
    maxLength: 40,
  })
  .map((xs) => ({ sums: xs.map(([s]) => s), counts: xs.map(([, c]) => c) }));

describe('the exact sign-flip test beyond 16 cases, against a BigInt oracle', () => {
  it('p at zero equals the oracle p (no Monte Carlo, no seed)', () => {
    fc.assert(
      fc.property(manyCases, ({ sums, counts }) => {
        const r = signFlipTest(sums, counts);
        expect(r.method).toBe('exact');
        expect(r.p).toBeCloseTo(oracleP(sums, counts, 0n, 1n), 12);
      }),
      { numRuns: 60 },
    );
  });

  it('the interval is {δ : p(δ) ≥ 0.05}: the ends are accepted, a hair past them rejected', () => {
    fc.assert(
      fc.property(manyCases, ({ sums, counts }) => {
        const { ci } = signFlipTest(sums, counts);
        for (const [end, out] of [
          [ci[0], ci[0] - 1e-6],
          [ci[1], ci[1] + 1e-6],
        ] as const) {
          if (!Number.isFinite(end)) continue;
          // The end itself is a ratio of integers; test a hair inside it (p is constant between ends).
          const inside = end === ci[0] ? end + 1e-9 : end - 1e-9;
          expect(oracleP(sums, counts, ...rational(inside))).toBeGreaterThanOrEqual(0.05);
          expect(oracleP(sums, counts, ...rational(out))).toBeLessThan(0.05);
        }
      }),
      { numRuns: 25 },
    );
  });

  it('case means on a grid of thirds (pairing on case means with 3 reps) are exact too', () => {
    const rand = seededRandom('thirds', 1);
    const sums = Array.from({ length: 31 }, () => Math.round(rand() * 8 - 3) / 3);
    const counts = sums.map(() => 1);
    const r = signFlipTest(sums, counts);
    expect(r.method).toBe('exact');
    expect(r.p).toBeCloseTo(oracleP(sums, counts, 0n, 1n), 12);
  });
});

describe('byte-identical comparisons give byte-identical statistics', () => {
  const cells = (values: number[]): ScoredCell[] =>
    values.map((value, i) => ({ case_id: `c${Math.floor(i / 3)}`, rep: i % 3, value }));

  it('31 cases: the same cells under two arm seeds give the same p and interval', () => {
    const rand = seededRandom('same', 2);
    const t = cells(Array.from({ length: 93 }, () => 2 + Math.round(rand() * 3)));
    const b = cells(Array.from({ length: 93 }, () => 2 + Math.round(rand() * 3)));
    const one = pairedDifference(t, b, { seed: 'run/suite/arm-a/correctness' });
    const two = pairedDifference(t, b, { seed: 'run/suite/arm-b/correctness' });
    expect(one.test).toBe('sign-flip-exact');
    expect(two.p).toBe(one.p);
    expect(two.ci).toEqual(one.ci);
  });
});
