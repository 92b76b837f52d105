/**
 * The exact sign-flip distribution by convolution, for differences on a grid (integer scores, or case
 * means of integer scores: multiples of 1/D for a small D). A flip s is described by two integers:
 * a = Σ sᵢ·Sᵢ·D (the statistic) and P = Σ_{sᵢ=+1} nᵢ (so b = Σ sᵢnᵢ = 2P − N). Whether flip s is as
 * extreme as the observed statistic at a shift δ depends on (a, b) only (sign-flip.ts, flipInterval),
 * so the 2^n flips collapse onto at most (2·Σ|Sᵢ|·D + 1) × (N + 1) lattice points, counted case by case:
 * O(n · points), where enumeration is O(2^n). The counts are whole numbers of flips (exact in a double
 * up to 2^53 flips, relative error 1e-16 beyond).
 */

/** The grids tried: the smallest D ≤ this with every Sᵢ·D whole. */
const MAX_DENOMINATOR = 60;
/** Lattice points × cases above which the convolution is not attempted (a few hundred ms). */
const MAX_WORK = 3e8;

/** The flips grouped by (a, b), with how many flips land on each point. */
export interface Lattice {
  /** The grid: a and A are in units of 1/D. */
  D: number;
  /** The observed statistic (all signs +), in units of 1/D, and the total count N. */
  A: number;
  N: number;
  /** Every reached point other than the identity (A, N) and its negation (−A, −N). */
  a: Int32Array;
  b: Int32Array;
  weight: Float64Array;
  /** 2^n. */
  total: number;
}

/** The smallest D with every sum a whole number of 1/D, or null when there is none small enough. */
export function gridOf(sums: readonly number[]): number | null {
  for (let D = 1; D <= MAX_DENOMINATOR; D++)
    if (sums.every((s) => Math.abs(s * D - Math.round(s * D)) <= 1e-9 * Math.max(1, Math.abs(s * D))))
      return D;
  return null;
}

/** The lattice of flips, or null when the sums are on no small grid or the lattice would be too large. */
export function flipLattice(sums: readonly number[], counts: readonly number[]): Lattice | null {
  const D = gridOf(sums);
  if (D === null || !counts.every((c) => Number.isInteger(c) && c > 0)) return null;
  const s = sums.map((x) => Math.round(x * D));
  const span = s.reduce((t, x) => t + Math.abs(x), 0);
  const N = counts.reduce((t, c) => t + c, 0);
  const width = 2 * span + 1;
  if (width * (N + 1) * s.length > MAX_WORK) return null;
  // w[P · width + (a + span)]: flips with statistic a and positive count P, over the cases so far.
  let w = new Float64Array(width * (N + 1));
  let next = new Float64Array(width * (N + 1));
  w[span] = 1;
  let reachA = 0; // |a| ≤ reachA and P ≤ reachP so far: only that block is visited
  let reachP = 0;
  for (let i = 0; i < s.length; i++) {
    const x = s[i]!;
    const n = counts[i]!;
    next.fill(0, 0, width * (reachP + n + 1));
    for (let P = 0; P <= reachP; P++)
      for (let a = -reachA; a <= reachA; a++) {
        const v = w[P * width + a + span]!;
        if (v === 0) continue;
        next[(P + n) * width + a + x + span]! += v; // case i keeps its sign
        next[P * width + a - x + span]! += v; // case i flipped
      }
    reachA += Math.abs(x);
    reachP += n;
    [w, next] = [next, w];
  }
  const A = s.reduce((t, x) => t + x, 0);
  const points: [number, number, number][] = [];
  for (let P = 0; P <= N; P++)
    for (let a = -span; a <= span; a++) {
      let v = w[P * width + a + span]!;
      if (v === 0) continue;
      // The identity and its negation are as extreme as the observed at every δ: counted apart.
      if ((P === N && a === A) || (P === 0 && a === -A)) v -= 1;
      if (v > 0) points.push([a, 2 * P - N, v]);
    }
  return {
    D,
    A,
    N,
    a: Int32Array.from(points, (p) => p[0]),
    b: Int32Array.from(points, (p) => p[1]),
    weight: Float64Array.from(points, (p) => p[2]),
    total: 2 ** s.length,
  };
}
