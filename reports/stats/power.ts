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
  /** Null when no effect size can be stated (see `note`). */
  value: number | null;
  /** The two-sided α of the test the verdict uses (α/m for a family of m: see the rule in docs/results.md). */
  alpha: number;
  power: number;
  note: 'not enough data' | 'not detectable with this many cases' | 'no variation (SE 0)' | null;
}

/**
 * The MDE of one comparison at the α its verdict is tested at. For a test whose p-value cannot go
 * below `minP` (the sign-flip test: 2/2^n with n cases), nothing is detectable when minP ≥ α — that
 * is said, not hidden behind a number. With SE 0 there is no spread to size an effect against.
 * Otherwise (t₁₋α/₂ + t_power) · SE on `df`: exact for the t test, the usual large-sample
 * approximation of the sign-flip test's power.
 */
export function detectableEffect(
  d: { se: number | null; df: number; minP: number | null },
  alpha: number,
  power = 0.8,
): Mde {
  const at = { alpha, power };
  if (d.se === null || !(d.df > 0)) return { ...at, value: null, note: 'not enough data' };
  if (d.minP !== null && d.minP >= alpha)
    return { ...at, value: null, note: 'not detectable with this many cases' };
  if (d.se === 0) return { ...at, value: null, note: 'no variation (SE 0)' };
  return { ...at, value: minimumDetectableEffect(d.se, d.df, { alpha, power }), note: null };
}
