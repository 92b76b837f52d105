import type { ResolvedGateThresholds } from '../../harness/gate/index.ts';

/** The gate thresholds the in-process gate tests share (each test spreads its own changes over them). */
export const thresholds: ResolvedGateThresholds = Object.freeze({
  minMean: Object.freeze({}) as Record<string, number>,
  maxDrop: 0.25,
  maxTokenGrowthPct: 10,
  maxErrorRate: 0.02,
  minCells: 6,
});
