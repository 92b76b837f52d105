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
