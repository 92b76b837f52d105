import { gammaln } from 'simple-statistics';

/**
 * Student's t distribution (CDF and quantile). simple-statistics has the normal but not the t, and
 * with 8–30 cases per suite the normal would understate every interval.
 */

/** Regularized incomplete beta I_x(a, b), by Lentz's continued fraction (Numerical Recipes §6.4). */
export function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(gammaln(a + b) - gammaln(a) - gammaln(b) + a * Math.log(x) + b * Math.log(1 - x));
  // The continued fraction converges fast only for x < (a+1)/(a+b+2); use the symmetry otherwise.
  if (x > (a + 1) / (a + b + 2)) return 1 - incompleteBeta(1 - x, b, a);
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  d = 1 / (Math.abs(d) < tiny ? tiny : d);
  let f = d;
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m;
    for (const num of [
      (m * (b - m) * x) / ((a + m2 - 1) * (a + m2)),
      (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1)),
    ]) {
      d = 1 + num * d;
      d = 1 / (Math.abs(d) < tiny ? tiny : d);
      c = 1 + num / c;
      if (Math.abs(c) < tiny) c = tiny;
      f *= c * d;
    }
    if (Math.abs(c * d - 1) < 1e-14) break;
  }
  return (front * f) / a;
}

/** P(T ≤ t) for T ~ t(df), df finite and > 0 (reports always have a finite number of cases). */
export function tCdf(t: number, df: number): number {
  const tail = 0.5 * incompleteBeta(df / (df + t * t), df / 2, 0.5);
  return t > 0 ? 1 - tail : tail;
}

const quantileCache = new Map<string, number>();

/** The p-quantile of t(df), by bisection on the CDF (cached: reports ask for a handful of values). */
export function tQuantile(p: number, df: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`tQuantile: p must be in (0, 1), got ${p}`);
  if (!(df > 0 && Number.isFinite(df)))
    throw new RangeError(`tQuantile: df must be finite and > 0, got ${df}`);
  const key = `${p}:${df}`;
  const hit = quantileCache.get(key);
  if (hit !== undefined) return hit;
  let lo = -1;
  let hi = 1;
  while (tCdf(lo, df) > p) lo *= 2;
  while (tCdf(hi, df) < p) hi *= 2;
  for (let i = 0; i < 200 && hi - lo > 1e-12; i++) {
    const mid = (lo + hi) / 2;
    if (tCdf(mid, df) < p) lo = mid;
    else hi = mid;
  }
  const q = (lo + hi) / 2;
  quantileCache.set(key, q);
  return q;
}

/** Two-sided p-value of a t statistic. */
export function tTwoSidedP(t: number, df: number): number {
  return Math.min(1, 2 * tCdf(-Math.abs(t), df));
}
