import type { PairedDifference, Verdict } from '../../reports/stats/paired.ts';

/** One run's identity as the comparison header states it. */
export interface RunSide {
  id: string;
  dir: string;
  createdAt: string | null;
  seed: number | null;
  mode: string | null;
  models: { source: string[]; receiver: string[]; judge: string[] };
  harness: string[];
  cells: number;
  errors: number;
  costUsd: number;
  inProgress: boolean;
}

/** What the two runs share, and what was left out and why — said plainly in every format. */
export interface CompareScope {
  sameExperiment: boolean;
  /** Sentences: "suite X is only in A", "arm Y differs: strategy s vs t", "seeds differ (1 vs 2)". */
  notes: string[];
  pairedCells: number;
  onlyA: number;
  onlyB: number;
}

export interface CriterionDiff {
  arm: string;
  criterion: string;
  /** B − A over cells paired on case × rep: positive = B scores higher. */
  d: PairedDifference;
  pHolm: number | null;
  verdict: Verdict;
}

export interface SurvivalSide {
  kept: number;
  total: number;
}

export interface SurvivalRow {
  arm: string;
  kind: string;
  location: string;
  stage: string;
  a: SurvivalSide;
  b: SurvivalSide;
}

export interface UsageMeans {
  handoffTokens: number;
  inputTokens: number;
  outputTokens: number;
  latencyMs: number;
  costUsd: number;
}

export interface UsageRow {
  arm: string;
  /** Cells ok in both runs: the deltas are over these. */
  pairs: number;
  meanA: UsageMeans | null;
  meanB: UsageMeans | null;
}

export interface FlippedCell {
  cellId: string;
  caseId: string;
  arm: string;
  rep: number;
  a: string;
  b: string;
  /** 'pass→fail' or 'fail→pass' (an error cell is a fail). */
  direction: 'pass→fail' | 'fail→pass';
}

export interface SuiteComparison {
  suite: string;
  primary: string | null;
  arms: string[];
  criteria: string[];
  /** The declared family: every arm × criterion of the suite, Holm-adjusted together. */
  family: { size: number; alpha: number; testAlpha: number };
  diffs: CriterionDiff[];
  survival: SurvivalRow[];
  usage: UsageRow[];
  flipped: FlippedCell[];
}

export interface Comparison {
  a: RunSide;
  b: RunSide;
  scope: CompareScope;
  family: string;
  suites: SuiteComparison[];
}
