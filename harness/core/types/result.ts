import type { ErrorCode } from '../errors.ts';
import type { AssertionKind, ClaimLocation } from './case.ts';

// Judging and results: part of the domain model (harness/core/index.ts).

/**
 * A judge's score on one criterion: 1–5 (null when it could not be parsed), the samples, rationale and
 * evidence.
 */
export interface CriterionScore {
  criterion: string;
  /** 1–5, or null when the judge could not be parsed (never 0). */
  score: number | null;
  samples: (number | null)[];
  rationale: string;
  evidence: string[];
  error?: string;
  /** Why the criterion was not judged on this case (it lacks the labels the criterion needs). */
  unscored?: string;
}

/**
 * What became of a labelled assertion at a stage: kept with its qualifier, overstated (its hedge lost), or
 * absent.
 */
export type SurvivalMark = 'kept' | 'overstated' | 'absent';

/** The survival stages a reading decides: made by the source (live mode), in the payload, in the answer. */
export type SurvivalStageName = 'made' | 'payload' | 'answer';

/** Where a live source made a labelled claim, as read from its transcript(s), or that it did not make it. */
export type MadeLocation = ClaimLocation | 'not_made';

/**
 * The survival of one labelled assertion in the payload and in the answer. `payload` / `answer` are
 * the decided marks: the survival classifier's (judges/survival-decide.ts), or the cue matcher's when
 * `decidedBy` is 'cues' (judge.classify 'off', and journals written before issue 26). null: the
 * classifier failed on that stage after its retry — the stage is unscored, never filled from cues.
 */
export interface SurvivalResult {
  assertionId: string;
  kind: AssertionKind;
  /** Where the claim is: measured from the live transcript in live mode, else its labelled location. */
  location?: ClaimLocation;
  payload: SurvivalMark | null;
  answer: SurvivalMark | null;
  /** What decided payload / answer. Absent in journals written before issue 26 (there: the cues). */
  decidedBy?: 'classifier' | 'cues';
  /** The cue matcher's first opinion (harness/core/text/cues.ts), recorded beside the classifier's marks. */
  cues?: { payload: SurvivalMark; answer: SurvivalMark };
  /** Journals written before issue 26: the LLM reading recorded beside the matcher's marks. */
  llm?: { payload: SurvivalMark | null; answer: SurvivalMark | null };
}

/** The "made by the source" stage of one labelled claim in live mode (judges/source-claims.ts). */
export interface SourceClaim {
  assertionId: string;
  kind: AssertionKind;
  /** The case's labelled (recorded) location. */
  recorded?: ClaimLocation;
  /** The classifier's reading of the live transcript(s): where it was made, or not made. */
  location: MadeLocation;
  /** How it was made there: kept (with its qualifier) or overstated (a caveat stated as fact); absent when not made. */
  mark: SurvivalMark;
  /** The cue matcher's opinion of the same sections. */
  cues: MadeLocation;
}

/** A deterministic check's verdict on an answer, with the detail. */
export interface CheckResult {
  name: string;
  passed: boolean;
  detail: string;
  /** The check read the answer by literal phrases (Check.cueBased): reports mark it cue-based. */
  cueBased?: boolean;
}

/** Whether a cell produced a row of results or an error row. */
export type CellStatus = 'ok' | 'error';

/**
 * One row per cell, append-only in results.jsonl; flat scalar columns first (CSV), then detail
 * (what the receiver saw, the answer, the judge's rationale) for drill-down reports.
 */
export interface ResultRow {
  run_id: string;
  cell_id: string;
  suite: string;
  case_id: string;
  /** The case's assertions a labeller proposed and nobody confirmed yet / the confirmed ones (absent in older journals). */
  labels_proposed?: number;
  labels_confirmed?: number;
  arm: string;
  strategy: string;
  params: Record<string, unknown>;
  rep: number;
  status: CellStatus;
  error: string | null;
  /** One of the ErrorCode union (harness/errors.ts); null on an ok row. */
  error_code: ErrorCode | null;
  /**
   * The stop reason of the receiver's final call (CallRecord.stopReason); null when it made none.
   * Absent in journals written before it existed.
   */
  stop_reason?: string | null;
  /**
   * The roles whose answers were cut at max_tokens (the source's handoff calls, the receiver's final
   * answer); absent when none was. Such a row is scored, but counts against the error budget unless
   * `truncation_allowed` (the arm's `allowTruncation`).
   */
  truncated?: ('source' | 'receiver' | 'judge')[];
  truncation_allowed?: boolean;
  source_model: string;
  receiver_model: string;
  judge_model: string;
  provider: string;
  seed: number;
  harness_version: string;
  /** The suite's baseline arm (paired comparisons are against it). */
  baseline_arm: string;
  /**
   * The suite's primary criterion (suite.json `primaryCriterion`, the config's `primaryCriterion`
   * override, else the suite's first criterion): its verdicts form the primary Holm family.
   * Absent in journals written before it existed (reports then take the first criterion).
   */
  primary_criterion?: string | null;
  handoff_tokens: number;
  handoff_chars: number;
  receiver_window_tokens_before: number;
  receiver_window_tokens_after: number;
  source_output_tokens: number;
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  latency_ms: number;
  cost_usd: number;
  /** Judge calls are accounted apart from the work being measured. */
  judge_cost_usd: number;
  cached_calls: number;
  model_calls: number;
  markers_count: number;
  tool_calls_visible: number;
  overstated_count: number;
  judge_errors: number;
  /**
   * Criteria left unscored because the case lacks the labels they need, with the reason (their
   * scores are null; they are not judge errors). Absent when every criterion was judged.
   */
  unscored?: Record<string, string>;
  /**
   * Share of (assertion, stage) survival marks on which the LLM classification agrees with the
   * deterministic matcher; null when the LLM classification did not run (the sim judge, by default).
   */
  survival_agreement?: number | null;
  /**
   * What decided the survival figures (issue 26): 'classifier' — the survival classifier read every
   * labelled claim at every stage; 'cues' — judge.classify 'off', the literal cue matcher decided.
   * Absent in older journals (cues).
   */
  survival_decided_by?: 'classifier' | 'cues';
  /**
   * Per stage, the share of labelled claims on which the cue matcher's first opinion differs from the
   * classifier's decision (made: the location, not made included; live mode only). null where the
   * stage was not classified.
   */
  survival_disagreement?: Partial<Record<SurvivalStageName, number | null>>;
  /** Stages the classifier failed on after its retry: unscored, their rates empty (never cue-filled). */
  survival_unscored?: SurvivalStageName[];
  /** Live-mode columns (docs/live.md); absent on recorded cells. */
  source_mode?: LiveFields['source_mode'];
  source_tool_calls?: number;
  source_tool_budget?: number;
  source_tool_errors?: number;
  source_tool_refused?: number;
  budget_exhausted?: boolean;
  source_loop_turns?: number;
  source_loop_latency_ms?: number;
  source_assertions?: number;
  source_assertions_labelled?: number;
  receiver_tool_calls?: number;
  receiver_span_fetches?: number;
  orchestration_tool_calls?: number | null;
  /** `--keep-worlds`: the directory this live cell's world copy was left in. */
  world_dir?: string;
  /** score_<criterion> (1–5 or null). */
  scores: Record<string, number | null>;
  /** survival rate by kind at each stage: {payload: {hedged: 0.5}, answer: {...}} (null when the case has none of that kind). */
  survival: {
    payload: Partial<Record<AssertionKind, number | null>>;
    answer: Partial<Record<AssertionKind, number | null>>;
  };
  /**
   * Survival by kind × location at each stage, keyed `<kind>:<location>` (only the combinations the
   * case labels): {payload: {'hedged:mid_transcript': 0}, answer: {...}}. Absent in older journals.
   */
  survival_location?: {
    payload: Record<string, number>;
    answer: Record<string, number>;
  };
  checks: CheckResult[];
  detail?: CellDetail;
}

/** The columns of a live cell (docs/live.md): the source's own tool loop, and the receiver's tool use. */
export interface LiveFields {
  source_mode: 'live';
  /** Tool calls the source ran against the world (summed over children), never more than the budget each. */
  source_tool_calls: number;
  source_tool_budget: number;
  /** Of those, calls that got an error result (bad arguments, a path outside the world, …). */
  source_tool_errors: number;
  /** Calls asked for past the budget (not run). */
  source_tool_refused: number;
  /** The source asked for a call past its budget (any child, for several). */
  budget_exhausted: boolean;
  /** Model calls of the source loop. */
  source_loop_turns: number;
  /** The source loop's part of latency_ms (which in live mode is source loop + handoff + receiver). */
  source_loop_latency_ms: number;
  /** Labelled assertions the live source made (read by the survival classifier), of those labelled. */
  source_assertions: number;
  source_assertions_labelled: number;
  receiver_tool_calls: number;
  receiver_span_fetches: number;
  /** spawn: receiver calls that carry out the parent's orchestration request; null for other directions. */
  orchestration_tool_calls: number | null;
  /** `--keep-worlds`: where this cell's world copy was left (absent when it was removed). */
  world_dir?: string;
}

/**
 * What a row keeps to read a cell by: the system framing, what the receiver saw, its answer, the judges'
 * scores and survival.
 */
export interface CellDetail {
  system: string;
  /** The receiver's request as readable text (bounded). */
  seen: string;
  answer: string;
  judge: CriterionScore[];
  survival: SurvivalResult[];
  /** Why a survival classification stage is missing (malformed after its retry). */
  survival_llm_errors?: string[];
  /** Per stage, the claims the classifier marked present with a quote not in the text, read absent. */
  survival_unquoted?: Partial<
    Record<SurvivalStageName | 'final_message' | 'mid_transcript' | 'tool_result', string[]>
  >;
  /** Live mode: every labelled claim's "made by the source" reading (not-made ones included). */
  source_claims?: SourceClaim[];
  artifacts?: Record<string, unknown>;
}
