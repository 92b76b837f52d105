/**
 * The paired sign-flip (randomization) test on case-level differences, and its confidence interval by
 * test inversion. Under "the arm makes no difference" the two arms are exchangeable within a case, so
 * each case's difference is as likely to have either sign: flipping the signs of whole cases (reps
 * travel with their case) gives the statistic's exact null distribution, whatever the shape of 1–5
 * scores and however few cases there are.
 *
 * Exact at every size: scores are small integers, so the case sums lie on a grid (whole numbers, or
 * multiples of 1/D for case means) and the 2^n flips collapse onto a small lattice of (statistic,
 * positive count) points counted by convolution (sign-flip-lattice.ts) — 31 cases × 3 reps take a few
 * milliseconds. Differences on no small grid (continuous scores) are enumerated up to EXACT_MAX_CASES
 * cases; beyond that, and only then, a Monte Carlo sample of flips is drawn from a stream the caller
 * seeds (pairedDifference seeds it from the data, so identical data give identical figures).
 *
 * Statistic: T = Σ sᵢ·Sᵢ over cases, Sᵢ the case's sum of paired differences (so T/N is the reported
 * mean difference). p = share of flips with |T_s| ≥ |T_obs|.
 *
 * Interval: the shifts δ the test does not reject at the level, i.e. {δ : p(δ) ≥ 1 − level} where
 * p(δ) tests the differences minus δ. For one flip s the condition |Σ sᵢ(Sᵢ − nᵢδ)| ≥ |Σ (Sᵢ − nᵢδ)|
 * holds on a closed interval of δ that contains the estimate (both sides are |linear| in δ and the
 * observed side is the steeper), so p(δ) falls monotonically away from the estimate and the interval
 * is read off (weighted) order statistics of the per-flip interval ends — exact, no search.
 */

import { flipLattice, type Lattice } from './sign-flip-lattice.ts';

/** Differences on no small grid: all 2^n sign flips are enumerated up to this many cases (65,536 flips). */
export const EXACT_MAX_CASES = 16;
/** Flips drawn for off-grid differences beyond EXACT_MAX_CASES; the p-value is then (1 + hits) / (draws + 1). */
export const MONTE_CARLO_DRAWS = 10_000;

export interface SignFlipResult {
  /** Two-sided p of "no difference". */
  p: number;
  /** The interval by inversion; an end is ±Infinity when no shift that far can be rejected. */
  ci: [number, number];
  method: 'exact' | 'monte-carlo';
  /** Flips the p-value is over (2^n, or draws + 1 with the observed one). */
  flips: number;
  /** The smallest p this test can give with these cases: 2 / 2^n exactly (a constant-sign difference), 1 / flips by Monte Carlo. */
  minP: number;
}

export interface SignFlipOptions {
  /** Confidence level of the interval. @default 0.95 */
  level?: number;
  /** Uniform stream for the Monte Carlo flips (seed it: see seededRandom). Required for off-grid differences beyond EXACT_MAX_CASES. */
  rand?: () => number;
  /** @default EXACT_MAX_CASES */
  exactMax?: number;
  /** @default MONTE_CARLO_DRAWS */
  draws?: number;
  /** Count flips on the lattice when the differences lie on a small grid (false: enumerate / draw, for tests). @default true */
  lattice?: boolean;
}

/**
 * The test on per-case sums of differences `sums` over `counts` pairs each (as clusterTotals gives).
 *
 *     signFlipTest([1, 1], [1, 1])  // two cases each +1 → p = 0.5, ci [-∞, ∞]
 */
export function signFlipTest(
  sums: readonly number[],
  counts: readonly number[],
  opts: SignFlipOptions = {},
): SignFlipResult {
  const n = sums.length;
  if (n === 0 || counts.length !== n) throw new RangeError('signFlipTest: one sum and one count per case');
  const alpha = 1 - (opts.level ?? 0.95);
  const minP = Math.min(1, 2 / 2 ** n);
  const lattice = (opts.lattice ?? true) ? flipLattice(sums, counts) : null;
  if (lattice) return { ...latticeTest(lattice, alpha), method: 'exact', minP };
  const exact = n <= (opts.exactMax ?? EXACT_MAX_CASES);
  if (!exact && !opts.rand)
    throw new RangeError('signFlipTest: a seeded rand is needed beyond the exact limit');
  const flips = exact
    ? enumerateFlips(sums, counts)
    : drawFlips(sums, counts, opts.draws ?? MONTE_CARLO_DRAWS, opts.rand!);
  const total = flips.always + flips.lo.length;
  const tol = 1e-9 * (1 + Math.max(...sums.map((s, i) => Math.abs(s / counts[i]!))));
  let containZero = 0;
  for (let k = 0; k < flips.lo.length; k++) if (flips.lo[k]! <= tol && flips.hi[k]! >= -tol) containZero++;
  return {
    p: Math.min(1, (flips.always + containZero) / total),
    ci: invert(flips, total, alpha),
    method: exact ? 'exact' : 'monte-carlo',
    flips: total,
    minP: exact ? minP : 1 / total,
  };
}

/**
 * p and the interval from the lattice: p counts the flips with |a| ≥ |A| (whole numbers: no tolerance
 * needed); the interval ends are the weighted order statistics of the points' interval ends.
 */
function latticeTest(l: Lattice, alpha: number): Pick<SignFlipResult, 'p' | 'ci' | 'flips'> {
  const always = 2;
  let hits = always;
  const m = l.weight.length;
  const lo = new Float64Array(m);
  const hi = new Float64Array(m);
  for (let k = 0; k < m; k++) {
    if (Math.abs(l.a[k]!) >= Math.abs(l.A)) hits += l.weight[k]!;
    [lo[k], hi[k]] = flipInterval(l.a[k]! / l.D, l.b[k]!, l.A / l.D, l.N);
  }
  const j = Math.ceil(alpha * l.total - always - Math.max(1e-9, 1e-12 * l.total));
  const ci: [number, number] =
    j <= 0 ? [-Infinity, Infinity] : [weightedKth(lo, l.weight, j, 1), weightedKth(hi, l.weight, j, -1)];
  return { p: Math.min(1, hits / l.total), ci, flips: l.total };
}

/** The value where the weight, counted from the smallest (dir 1) or the largest (dir −1), first reaches j. */
function weightedKth(x: Float64Array, w: Float64Array, j: number, dir: 1 | -1): number {
  const order = Array.from(x.keys()).sort((p, q) => dir * (x[p]! - x[q]!));
  let acc = 0;
  for (const k of order) {
    acc += w[k]!;
    if (acc >= j - Math.max(1e-9, 1e-12 * j)) return x[k]!;
  }
  return dir === 1 ? Infinity : -Infinity;
}

/** Per-flip acceptance intervals [lo, hi]; `always` counts flips that are as extreme at every δ (±the observed). */
interface Flips {
  always: number;
  lo: Float64Array;
  hi: Float64Array;
}

/**
 * The interval of δ where flip s is at least as extreme as the observed statistic. With a = Σ sᵢSᵢ,
 * b = Σ sᵢnᵢ, A = Σ Sᵢ, N = Σ nᵢ: (a − bδ)² ≥ (A − Nδ)² factors into two linear terms whose roots are
 * (A − a)/(N − b) and (A + a)/(N + b); −N < b < N for every flip but the identity and its negation.
 */
function flipInterval(a: number, b: number, A: number, N: number): [number, number] {
  const r1 = (A - a) / (N - b);
  const r2 = (A + a) / (N + b);
  return r1 <= r2 ? [r1, r2] : [r2, r1];
}

/** Every flip, in Gray-code order: one sign changes per step, so a and b update in O(1). */
function enumerateFlips(sums: readonly number[], counts: readonly number[]): Flips {
  const n = sums.length;
  const K = 2 ** n;
  const A = sums.reduce((x, y) => x + y, 0);
  const N = counts.reduce((x, y) => x + y, 0);
  const signs = new Int8Array(n).fill(1);
  const lo = new Float64Array(K - 2);
  const hi = new Float64Array(K - 2);
  let a = A;
  let b = N;
  let m = 0;
  for (let k = 1; k < K; k++) {
    const i = 31 - Math.clz32(k & -k);
    a -= 2 * signs[i]! * sums[i]!;
    b -= 2 * signs[i]! * counts[i]!;
    signs[i] = -signs[i]!;
    if (b === -N) continue; // every sign flipped: |T| equals the observed at every δ
    [lo[m], hi[m]] = flipInterval(a, b, A, N);
    m++;
  }
  return { always: 2, lo, hi };
}

/**
 * Seeded random flips; the observed statistic counts as one of them (a valid Monte Carlo p-value).
 * Each uniform draw gives 32 independent signs (its 32 bits), so a flip of n cases costs ⌈n/32⌉ draws.
 */
function drawFlips(
  sums: readonly number[],
  counts: readonly number[],
  draws: number,
  rand: () => number,
): Flips {
  const A = sums.reduce((x, y) => x + y, 0);
  const N = counts.reduce((x, y) => x + y, 0);
  const lo = new Float64Array(draws);
  const hi = new Float64Array(draws);
  let m = 0;
  let always = 1;
  for (let d = 0; d < draws; d++) {
    let a = 0;
    let b = 0;
    let bits = 0;
    for (let i = 0; i < sums.length; i++) {
      if (i % 32 === 0) bits = Math.floor(rand() * 4294967296);
      const s = bits & 1 ? -1 : 1;
      bits >>>= 1;
      a += s * sums[i]!;
      b += s * counts[i]!;
    }
    if (b === N || b === -N) {
      always++;
      continue;
    }
    [lo[m], hi[m]] = flipInterval(a, b, A, N);
    m++;
  }
  return { always, lo: lo.subarray(0, m), hi: hi.subarray(0, m) };
}

/**
 * {δ : p(δ) ≥ alpha}. Away from the estimate, p(δ)·total = always + (flips whose interval still
 * holds δ), so the upper end is the j-th largest `hi` and the lower end the j-th smallest `lo`, j the
 * fewest flips that keep p at alpha; none needed (too few cases) means the interval is unbounded.
 */
function invert(flips: Flips, total: number, alpha: number): [number, number] {
  const j = Math.ceil(alpha * total - flips.always - 1e-9);
  if (j <= 0) return [-Infinity, Infinity];
  const n = flips.hi.length;
  return [kthSmallest(Float64Array.from(flips.lo), j - 1), kthSmallest(Float64Array.from(flips.hi), n - j)];
}

/** The k-th smallest value (0-based) by quickselect, in place: O(n) on average, where a sort is O(n log n). */
export function kthSmallest(x: Float64Array, k: number): number {
  let left = 0;
  let right = x.length - 1;
  while (left < right) {
    const pivot = x[(left + right) >>> 1]!;
    let i = left;
    let j = right;
    while (i <= j) {
      while (x[i]! < pivot) i++;
      while (x[j]! > pivot) j--;
      if (i <= j) {
        const t = x[i]!;
        x[i] = x[j]!;
        x[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) right = j;
    else if (k >= i) left = i;
    else return x[k]!;
  }
  return x[k]!;
}

/**
 * p(δ) straight from the definition, O(2^n · n): the reference the interval arithmetic is tested
 * against (test/reports/sign-flip.test.ts). Not used by the reports.
 */
export function signFlipPBruteForce(sums: readonly number[], counts: readonly number[], delta = 0): number {
  const n = sums.length;
  const x = sums.map((s, i) => s - counts[i]! * delta);
  const obs = Math.abs(x.reduce((a, b) => a + b, 0));
  const tol = 1e-9 * (1 + Math.max(...x.map(Math.abs)));
  let hits = 0;
  for (let mask = 0; mask < 2 ** n; mask++) {
    let t = 0;
    for (let i = 0; i < n; i++) t += mask & (1 << i) ? -x[i]! : x[i]!;
    if (Math.abs(t) >= obs - tol) hits++;
  }
  return hits / 2 ** n;
}
