/**
 * The statistics under every report, for other tools (the CI gate, notebooks) to reuse.
 * Conventions: scores are higher-is-better; intervals are 95% t intervals clustered by case
 * (reps nested in cases); resampling is seeded. Details: docs/results.md#statistics.
 */
export { clusteredMean, type ClusteredEstimate, type Observation } from './clustered.ts';
export {
  pairedDifference,
  pairedDifferenceOfRows,
  scoredCells,
  verdictOf,
  type PairedDifference,
  type PairedOptions,
  type ScoredCell,
  type Verdict,
} from './paired.ts';
export { holm } from './holm.ts';
export { minimumDetectableEffect, type MdeOptions } from './power.ts';
export { clusterBootstrapCi } from './bootstrap.ts';
export { seededRandom, normalDraw } from './random.ts';
export { tCdf, tQuantile, tTwoSidedP } from './t-dist.ts';
