/**
 * Cohen's κ between a person's marks and a classifier's on the same items: (pₒ − pₑ) / (1 − pₑ), pₑ from
 * each rater's own category frequencies. Null when pₑ = 1 (both raters used one and the same category:
 * agreement is then total but κ is undefined).
 */
export function cohenKappa(pairs: readonly (readonly [string, string])[]): {
  n: number;
  agree: number;
  kappa: number | null;
} {
  const n = pairs.length;
  if (n === 0) return { n, agree: 0, kappa: null };
  const a = new Map<string, number>();
  const b = new Map<string, number>();
  let agree = 0;
  for (const [x, y] of pairs) {
    if (x === y) agree++;
    a.set(x, (a.get(x) ?? 0) + 1);
    b.set(y, (b.get(y) ?? 0) + 1);
  }
  let pe = 0;
  for (const [k, v] of a) pe += (v / n) * ((b.get(k) ?? 0) / n);
  const po = agree / n;
  return { n, agree, kappa: pe >= 1 ? null : (po - pe) / (1 - pe) };
}
