/**
 * The statistics under every report, for other tools (the CI gate, notebooks) to reuse.
 * Conventions: scores are higher-is-better on a 1–5 scale; tests and intervals work on whole cases
 * (reps nested in cases): the exact sign-flip test for few cases or zero variance, else the clustered
 * t; resampling is seeded. Details: docs/results.md#statistics.
 */
export { clusteredMean, type ClusteredEstimate, type Observation } from './clustered.ts';
export {
  pairedDifference,
  pairedDifferenceOfRows,
  scoredCells,
  verdictOf,
  type PairedDifference,
  type PairedOptions,
  type PairedTest,
  type PairedTestRule,
  type ScoredCell,
  type Verdict,
} from './paired.ts';
export { holm } from './holm.ts';
export { holmFamily, type FamilyAdjustment } from './family.ts';
export { detectableEffect, minimumDetectableEffect, type Mde, type MdeOptions } from './power.ts';
export { signFlipTest, EXACT_MAX_CASES, MONTE_CARLO_DRAWS, type SignFlipResult } from './sign-flip.ts';
export { SCORE_SCALE, differenceBounds, withinBounds, type Bounds, type IntervalBound } from './scale.ts';
export { clusterBootstrapCi } from './bootstrap.ts';
export { seededRandom, normalDraw } from './random.ts';
export { tCdf, tQuantile, tTwoSidedP } from './t-dist.ts';
