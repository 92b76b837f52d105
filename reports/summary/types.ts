import type { SurvivalReading } from './survival-reading.ts';
import type { HandLabelSummary } from '../hand-labels.ts';
import type { AssertionKind, ClaimLocation } from '../../harness/core/index.ts';
import type { PairedDifference, Verdict } from '../stats/paired.ts';
import type { Mde } from '../stats/power.ts';
import type { IntervalBound } from '../stats/scale.ts';
import type { LiveSimNote, LiveSummary, SweepSummary } from './live-sweep-types.ts';

export type {
  LiveSimNote,
  LiveSummary,
  ParamResponse,
  SweepEstimate,
  SweepPoint,
  SweepSummary,
} from './live-sweep-types.ts';

/**
 * What summarize(rows) computes once and every formatter renders (report.json is this object).
 * Field-by-field documentation: docs/results.md. Everything here is a deterministic function of the
 * rows as a set: row order, sharding and concurrency do not change it.
 */
export interface Summary {
  schema: 'handoff-eval/summary@2';
  runId: string;
  /** True when any role ran on the sim provider: the numbers are a simulation, not a measurement. */
  simulated: boolean;
  /** The sentence every format carries for a simulated run; null otherwise. */
  notice: string | null;
  harnessVersion: string;
  seed: number | null;
  models: { source: string[]; receiver: string[]; judge: string[] };
  cells: number;
  ok: number;
  errors: number;
  /** Rows replaced by a later row of the same cell_id (a retried error, a cell journalled twice); the latest counts. */
  duplicates: number;
  method: MethodNote;
  suites: SuiteSummary[];
  /** A simulated run with live cells: which live-mode numbers the sim sets (and from what), and what emerges. */
  liveSim?: LiveSimNote;
  /** A person's labels beside the run (hand-labels.jsonl, from `view`) and their agreement with the classifier. */
  handLabels?: HandLabelSummary;
}

/** How the numbers were made, stated in the summary itself so a reader of report.json need not guess. */
export interface MethodNote {
  level: number;
  alpha: number;
  interval: string;
  pairing: string;
  multiplicity: string;
  test: string;
  mde: string;
  scale: string;
  bootstrap: string;
  pass: string;
  survival: string;
  checks: string;
}

export interface SuiteSummary {
  suite: string;
  baselineArm: string;
  /** False when the baseline arm has no rows in this run (e.g. filtered out with --arm). */
  baselinePresent: boolean;
  cases: number;
  /** Assertions over the suite's cases: confirmed by a person, or only proposed by a labeller (docs/importers.md). */
  labels: { proposed: number; confirmed: number };
  reps: number;
  criteria: string[];
  /**
   * The suite's primary criterion (rows' `primary_criterion`: suite.json's `primaryCriterion`, the
   * config's override, else the suite's first criterion). Its verdicts form the primary family; the
   * pass-rate "score" uses it.
   */
  primaryCriterion: string | null;
  /** The two Holm families of verdicts vs the baseline (null when there is nothing to compare). */
  families: { primary: FamilySummary | null; secondary: FamilySummary | null };
  /** Baseline first, then arms by name. */
  arms: ArmSummary[];
  judge: JudgeReliability;
  /** Swept arms (`<name>[k=v,…]`, docs/config.md "Sweeps") read as parameter responses; absent without sweeps. */
  sweeps?: SweepSummary[];
}

export interface ArmSummary {
  arm: string;
  strategy: string;
  params: Record<string, unknown>;
  baseline: boolean;
  cells: number;
  ok: number;
  errors: number;
  errorCodes: Record<string, number>;
  tokens: TokenSummary;
  latency: LatencySummary;
  scores: Record<string, CriterionSummary>;
  pass: PassRate | null;
  survival: SurvivalSummary;
  /** The same marks broken down by where the source put each claim (labelled assertions only). */
  survivalByLocation: LocationSurvivalSummary;
  overstated: { runs: number; n: number; assertions: number };
  /** Deterministic checks (recap signature, hand-off language, markers, pairing, second assignment): failed of n ok cells, by check name. */
  checks: Record<string, { failed: number; n: number; cueBased?: boolean }>;
  cost: { usd: number; perCellUsd: number | null; judgeUsd: number };
  /** Model calls of the arm's cells (judge calls included) and how many the response cache served. */
  calls: { model: number; cached: number };
  /** Live mode (docs/live.md): the source's effort, budget, end-to-end latency, span fetches; absent for a recorded arm. */
  live?: LiveSummary;
  /**
   * Cells with an answer cut at max_tokens (row `truncated`), by role; `allowed` when the arm allows
   * truncation (`allowTruncation`), else they count against the error budget. Absent when none.
   */
  truncated?: { cells: number; byRole: Record<string, number>; allowed: boolean };
}

/** Means over ok cells. */
export interface TokenSummary {
  handoff: number | null;
  windowBefore: number | null;
  windowAfter: number | null;
  /** (after − before) / before, in %: the seed's "+129%". Null when the receiver had no prior window. */
  windowGrowthPct: number | null;
  /** Window after vs the baseline arm's window after, in %. */
  windowAfterVsBaselinePct: number | null;
  handoffVsBaselinePct: number | null;
  sourceOutput: number | null;
  input: number | null;
  output: number | null;
}

export interface LatencySummary {
  p50: number | null;
  p95: number | null;
  mean: number | null;
  /** p50 − the baseline arm's p50, in ms (the seed's "+4.1 s vs inline"). */
  p50DeltaVsBaselineMs: number | null;
}

export interface CriterionSummary {
  /** Scored cells. */
  n: number;
  /** Cells where the judge gave no score (null, never 0). */
  unscored: number;
  /** Of those, cells not judged because the case lacks the labels the criterion needs, by reason. */
  unlabelled: Record<string, number>;
  mean: number | null;
  se: number | null;
  /** Clustered t interval, within the 1–5 scale (see ciBound). */
  ci: [number, number] | null;
  /** 'clipped' when the t interval ran past the scale and was cut at its edge. */
  ciBound: IntervalBound;
  clusters: number;
  /** Null for the baseline arm itself, or when the baseline arm is absent. */
  vsBaseline: Comparison | null;
}

export interface Comparison extends PairedDifference {
  /** Holm-adjusted p within the comparison's family. */
  pHolm: number | null;
  family: ComparisonFamily;
  /** From pHolm. */
  verdict: Verdict;
  /** At the family's α/m (Holm's first step), not at the unadjusted α. */
  mde: Mde;
  /** The cells of both arms, the pairs made of them and why the rest were dropped. */
  cells: PairAccount;
  /**
   * Live mode: set when the arm changed the source's own work beyond noise (reports/summary/confound.ts),
   * e.g. "the source did more work under this arm: +0.72 calls" (`short`, beside the comparison) and
   * the full `statement` (the baseline, the pairs, the interval).
   */
  confound?: { short: string; statement: string };
}

/**
 * primary: the suite's primary criterion, Holm across the arms compared with the baseline.
 * secondary: every other criterion, Holm across arms × criteria.
 */
export interface ComparisonFamily {
  name: 'primary' | 'secondary';
  /** Comparisons with a p-value in the family: m. */
  size: number;
  /** α/m, the level of Holm's first step: the MDE is stated at it. */
  testAlpha: number;
}

export interface FamilySummary extends ComparisonFamily {
  criteria: string[];
  /** Verdicts better / worse in the family. */
  flagged: number;
}

export interface PairAccount {
  /** Cells of the arm and of the baseline arm, every status. */
  arm: number;
  baseline: number;
  /** Case × rep cells scored on both sides. */
  pairs: number;
  /**
   * Case × rep cells of either arm that formed no pair, by the first reason that applies: an error
   * row on either side, an unscored judgement on either side, a case not judged on the criterion
   * (its own `criteria` leave it out), no cell on the other side.
   */
  dropped: { error: number; unscored: number; notJudged: number; missing: number };
}

export interface PassRate {
  criterion: string;
  threshold: number;
  passed: number;
  n: number;
}

export interface SurvivalCount {
  kept: number;
  overstated: number;
  absent: number;
  /** Assertions of this kind over all ok cells (from the survival marks). */
  total: number;
  /** kept / total; when only per-cell rates exist, their mean over cells. */
  rate: number | null;
}

export interface SurvivalSummary {
  /** 'marks' when rows carry detail.survival (counts exact); 'rates' when only per-cell rates exist. */
  source: 'marks' | 'rates' | 'none';
  payload: Partial<Record<AssertionKind, SurvivalCount>>;
  answer: Partial<Record<AssertionKind, SurvivalCount>>;
}

/** kind → location → count, at each stage; only the combinations some case of the suite labels. */
export interface LocationSurvivalSummary {
  source: 'marks' | 'rates' | 'none';
  payload: Partial<Record<AssertionKind, Partial<Record<ClaimLocation, SurvivalCount>>>>;
  answer: Partial<Record<AssertionKind, Partial<Record<ClaimLocation, SurvivalCount>>>>;
}

export interface JudgeReliability {
  /** Criterion judgements with no score, over all cells of the suite (judge errors, not missing labels). */
  errors: number;
  unscored: Record<string, number>;
  /** Per criterion: cells not judged because their case lacks the labels it needs, by reason. */
  unlabelled: Record<string, Record<string, number>>;
  /** Judge samples per cell (max seen). */
  samples: number;
  /**
   * Per criterion, when samples ≥ 2: test-retest over sample pairs within a cell (share exactly equal,
   * share within one point) and Krippendorff's α (ordinal) over the k samples.
   */
  agreement: Record<
    string,
    { units: number; pairs: number; exact: number | null; withinOne: number | null; alpha: number | null }
  > | null;
  /** Why agreement is null. */
  gap: string | null;
  /** Where the survival classifier ran: its agreement with the cue matcher's first opinion. */
  survival: { compared: number; agreement: number | null; kappa: number | null } | null;
  /** What decided the survival figures; per-stage disagreement with the cues; unscored stages; claims not made. */
  reading?: SurvivalReading;
}
