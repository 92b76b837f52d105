import { holm } from './holm.ts';

export interface FamilyAdjustment {
  /** Holm-adjusted p per member (null where the member had no p). */
  adjusted: (number | null)[];
  /** Members with a p-value: the m of the family. */
  size: number;
  /**
   * The per-test level the MDE is computed at: α/m, the level Holm's first step requires. A real
   * difference that is the only one in its family has to clear it, so an effect of 1×MDE is found
   * with at least the stated power whatever the other members do (later steps are easier, α/(m−1)…).
   */
  testAlpha: number;
}

/** Holm across one family of comparisons, and the α each member's MDE is stated at. */
export function holmFamily(pValues: readonly (number | null)[], alpha: number): FamilyAdjustment {
  const adjusted = holm([...pValues]);
  const size = pValues.filter((p) => p !== null).length;
  return { adjusted, size, testAlpha: size > 0 ? alpha / size : alpha };
}
