/**
 * Intervals reported within the scale their quantity lives on. A t interval over a handful of 1–5
 * scores can run to 8 or −3, and an inverted test with too few cases has no finite end at all; a
 * report prints the part a score (or a difference of scores) can take, and says it was cut.
 */
export type Bounds = readonly [number, number];

/** The criterion judge's scale (judges/criteria: anchored 1–5 rubrics). */
export const SCORE_SCALE: Bounds = [1, 5];

/** What a difference of two values on `scale` can be: ±(hi − lo), so ±4 for 1–5 scores. */
export function differenceBounds(scale: Bounds): Bounds {
  const width = scale[1] - scale[0];
  return [-width, width];
}

/**
 * `unbounded`: an end was infinite (the data cannot rule out any value the scale allows);
 * `clipped`: a finite end lay outside the scale and was moved to its edge; null: untouched.
 */
export type IntervalBound = 'clipped' | 'unbounded' | null;

export function withinBounds(
  ci: readonly [number, number],
  bounds: Bounds | null,
): { ci: [number, number]; bound: IntervalBound } {
  if (!bounds) return { ci: [ci[0], ci[1]], bound: null };
  const infinite = !Number.isFinite(ci[0]) || !Number.isFinite(ci[1]);
  const outside = ci[0] < bounds[0] || ci[1] > bounds[1];
  const cut: [number, number] = [Math.max(ci[0], bounds[0]), Math.min(ci[1], bounds[1])];
  return { ci: cut, bound: infinite ? 'unbounded' : outside ? 'clipped' : null };
}
