/**
 * Holm's step-down adjustment: controls the family-wise error rate across the arms compared with one
 * baseline, without Bonferroni's loss of power. Nulls (comparisons that could not be made) are left
 * out of the family and stay null.
 */
export function holm(pValues: (number | null)[]): (number | null)[] {
  const idx = pValues.map((p, i) => ({ p, i })).filter((x): x is { p: number; i: number } => x.p !== null);
  idx.sort((x, y) => x.p - y.p || x.i - y.i);
  const m = idx.length;
  const out: (number | null)[] = pValues.map(() => null);
  let running = 0;
  idx.forEach(({ p, i }, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p));
    out[i] = running;
  });
  return out;
}
