import type { ScoredCell } from '../../reports/stats/paired.ts';
import type { ResolvedGateThresholds } from '../config/gate-thresholds.ts';

// The gate's vocabulary, apart from the code that computes it, so baseline.ts, gate.ts and the check
// modules it calls all import it from here instead of from each other.

export const BASELINE_SCHEMA = 'handoff-eval/baseline@1';

/**
 * What the gate compares a run against: summary statistics plus the per-cell scores a paired
 * comparison needs — no transcripts, no answers — small enough to review in a diff and commit.
 */
export interface Baseline {
  schema: typeof BASELINE_SCHEMA;
  identity: RunIdentity;
  suites: BaselineSuite[];
}

/** What a run was: the gate refuses to compare runs whose seed or models differ (exit 2). */
export interface RunIdentity {
  runId: string;
  seed: number | null;
  harnessVersion: string;
  simulated: boolean;
  /** `provider:model` per role, as in the result rows. */
  models: { source: string[]; receiver: string[]; judge: string[] };
  suites: { suite: string; arms: string[] }[];
}

export interface BaselineSuite {
  suite: string;
  baselineArm: string;
  cases: number;
  reps: number;
  criteria: string[];
  arms: BaselineArm[];
}

export interface BaselineArm {
  arm: string;
  strategy: string;
  params: Record<string, unknown>;
  /**
   * The source mode of the arm's cells when not 'recorded' ('live'); absent = recorded, so a recorded
   * baseline reads the same as before the mode was kept.
   */
  mode?: string;
  /** `provider:model` per role of this arm (absent in baselines written before it was recorded). */
  models?: { source: string[]; receiver: string[]; judge: string[] };
  cells: number;
  ok: number;
  errors: number;
  /** errors / cells. */
  errorRate: number;
  /** Means over ok cells. */
  tokens: { handoff: number | null; windowAfter: number | null };
  scores: Record<string, BaselineCriterion>;
}

export interface BaselineCriterion {
  /** Scored cells. */
  n: number;
  unscored: number;
  mean: number | null;
  ci: [number, number] | null;
  /** Every ok cell's score (null = unscored), in (case_id, rep) order: what pairing needs. */
  cells: ScoredCell[];
}

/** pass = exit 0, regression = exit 1, cannot evaluate = exit 2 (set by the CLI, never here). */
export type GateVerdict = 'pass' | 'regression' | 'cannot evaluate';
export type GateCheckKind =
  | 'error-rate'
  | 'token-growth'
  | 'min-mean'
  | 'drop'
  | 'coverage'
  /** The arm's strategy, params or models differ from the baseline's arm: not compared. */
  | 'config'
  /** A scoped threshold names a suite, arm or criterion the run and the baseline lack. */
  | 'scope';

/** One row of the verdict table. */
export interface GateCheck {
  suite: string;
  arm: string;
  kind: GateCheckKind;
  /** The criterion of a min-mean / drop check. */
  criterion: string | null;
  baseline: number | null;
  current: number | null;
  /** drop: the paired difference current − baseline; token-growth: % change; error-rate: change in share. */
  delta: number | null;
  /** drop: the paired difference's 95% interval (clustered by case). */
  ci: [number, number] | null;
  /** The threshold applied (minMean, maxDrop, maxTokenGrowthPct, maxErrorRate). */
  limit: number | null;
  verdict: GateVerdict;
  /** Why, in a few words ("within noise", "3 paired cells < minCells 6"). */
  reason: string;
}

export interface GateResult {
  verdict: GateVerdict;
  checks: GateCheck[];
  /** Identity fields on which the run and the baseline differ; non-empty means nothing was compared. */
  mismatch: string[];
  notes: string[];
  run: RunIdentity | null;
  baseline: RunIdentity;
  thresholds: ResolvedGateThresholds;
}
