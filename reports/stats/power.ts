import { tQuantile } from './t-dist.ts';

export interface MdeOptions {
  /** Two-sided significance level. @default 0.05 */
  alpha?: number;
  /** @default 0.8 */
  power?: number;
}

/**
 * The minimum detectable effect: the true difference a two-sided t test with this standard error
 * and these degrees of freedom would detect with the given power, (t₁₋α/₂ + t_power) · SE.
 * It answers "could this run have seen an effect of that size at all?" — a within-noise verdict with
 * an MDE of 1.5 points says little; with an MDE of 0.2 it says a lot.
 */
export function minimumDetectableEffect(se: number, df: number, opts: MdeOptions = {}): number | null {
  if (!(df > 0) || !Number.isFinite(se)) return null;
  const alpha = opts.alpha ?? 0.05;
  const power = opts.power ?? 0.8;
  return (tQuantile(1 - alpha / 2, df) + tQuantile(power, df)) * se;
}

/** An MDE as the reports state it: the value, the α it was computed at, or why there is none. */
export interface Mde {
  /** Null when no effect size can be stated (see `note`). Never below `floor.value`. */
  value: number | null;
  /** The two-sided α of the test the verdict uses (α/m for a family of m: see the rule in docs/results.md). */
  alpha: number;
  power: number;
  note: 'not enough data' | 'not detectable with this many cases' | 'no variation (SE 0)' | null;
  /**
   * The smallest mean difference the sign-flip test can ever flag at `alpha`, k/of: the mean moves in
   * steps of 1/of (pairs × the score grid), and a total of k steps gives at best p = 2/2^k (k cases
   * one step each, all one sign), so k is the least with 2/2^k < alpha. The MDE is raised to it when
   * the t approximation says less ("none below k/of"). Null off the grid or without a sign-flip test.
   */
  floor: { k: number; of: number; value: number } | null;
}

/** The least k with 2/2^k < alpha: the fewest grid steps the sign-flip test can flag. */
export function floorSteps(alpha: number): number {
  let k = 1;
  while (2 / 2 ** k >= alpha) k++;
  return k;
}

/**
 * The MDE of one comparison at the α its verdict is tested at. For a test whose p-value cannot go
 * below `minP` (the sign-flip test: 2/2^n with n cases), nothing is detectable when minP ≥ α — that
 * is said, not hidden behind a number. With SE 0 there is no spread to size an effect against.
 * Otherwise (t₁₋α/₂ + t_power) · SE on `df` — exact for the t test, the usual large-sample
 * approximation of the sign-flip test's power — but never below the floor the sign-flip test can
 * reach on its grid (`resolution`: the mean difference is a whole number of 1/resolution).
 */
export function detectableEffect(
  d: { se: number | null; df: number; minP: number | null; resolution?: number | null },
  alpha: number,
  power = 0.8,
): Mde {
  const at = { alpha, power, floor: null };
  if (d.se === null || !(d.df > 0)) return { ...at, value: null, note: 'not enough data' };
  if (d.minP !== null && d.minP >= alpha)
    return { ...at, value: null, note: 'not detectable with this many cases' };
  const k = floorSteps(alpha);
  const floor = d.minP !== null && d.resolution ? { k, of: d.resolution, value: k / d.resolution } : null;
  if (d.se === 0) return { ...at, floor, value: null, note: 'no variation (SE 0)' };
  const t = minimumDetectableEffect(d.se, d.df, { alpha, power })!;
  return { ...at, floor, value: floor && t < floor.value ? floor.value : t, note: null };
}
