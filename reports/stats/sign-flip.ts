/**
 * The paired sign-flip (randomization) test on case-level differences, and its confidence interval by
 * test inversion. Under "the arm makes no difference" the two arms are exchangeable within a case, so
 * each case's difference is as likely to have either sign: flipping the signs of whole cases (reps
 * travel with their case) gives the statistic's exact null distribution, whatever the shape of 1–5
 * scores and however few cases there are. With n cases there are 2^n flips; up to EXACT_MAX_CASES
 * they are all enumerated, beyond that a seeded Monte Carlo sample of them is drawn.
 *
 * Statistic: T = Σ sᵢ·Sᵢ over cases, Sᵢ the case's sum of paired differences (so T/N is the reported
 * mean difference). p = share of flips with |T_s| ≥ |T_obs|.
 *
 * Interval: the shifts δ the test does not reject at the level, i.e. {δ : p(δ) ≥ 1 − level} where
 * p(δ) tests the differences minus δ. For one flip s the condition |Σ sᵢ(Sᵢ − nᵢδ)| ≥ |Σ (Sᵢ − nᵢδ)|
 * holds on a closed interval of δ that contains the estimate (both sides are |linear| in δ and the
 * observed side is the steeper), so p(δ) falls monotonically away from the estimate and the interval
 * is read off order statistics of the per-flip interval ends — exact, no search.
 */

/** All 2^n sign flips are enumerated up to this many cases (65,536 flips). */
export const EXACT_MAX_CASES = 16;
/** Flips drawn beyond EXACT_MAX_CASES; the p-value is then (1 + hits) / (draws + 1). */
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
  /** Uniform stream for the Monte Carlo flips (seed it: see seededRandom). Required beyond EXACT_MAX_CASES. */
  rand?: () => number;
  /** @default EXACT_MAX_CASES */
  exactMax?: number;
  /** @default MONTE_CARLO_DRAWS */
  draws?: number;
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
    ci: invert(flips, total, 1 - (opts.level ?? 0.95)),
    method: exact ? 'exact' : 'monte-carlo',
    flips: total,
    minP: exact ? Math.min(1, 2 / 2 ** n) : 1 / total,
  };
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
