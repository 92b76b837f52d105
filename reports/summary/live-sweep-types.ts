// The live and sweep parts of a summary (types.ts holds the rest and re-exports these).
import type { SourceConfound } from './confound.ts';

/**
 * Live mode per arm (docs/live.md, docs/results.md): the source's effort (tool calls: median, range,
 * distribution), how often its budget ran out, its output tokens, end-to-end latency (source loop +
 * handoff + receiver) and its Δ vs the suite's inline arm, how often the receiver fetched a transcript
 * span, and — spawn — how often the child's own tool calls carried out the parent's orchestration
 * request. Over ok live cells only; null when an arm has none.
 */
export interface LiveSummary {
  cells: number;
  /** Cells whose source ran its own loop (a spawned child's do not: the parent is recorded). */
  sourceCells: number;
  /** The tool-call budget(s) of its cells. */
  budgets: number[];
  toolCalls: {
    median: number | null;
    mean: number | null;
    min: number | null;
    max: number | null;
    /** Tool calls → cells. */
    distribution: Record<string, number>;
  };
  budgetExhausted: { cells: number; n: number; rate: number | null };
  sourceOutputTokens: { median: number | null; mean: number | null };
  latency: {
    /** End-to-end: source loop + handoff + receiver (latency_ms of a live cell). */
    p50: number | null;
    sourceLoopP50: number | null;
    /** p50 − the inline arm's p50 (the seed's "+4.1 s vs inline"); null without a live inline arm. */
    deltaVsInlineMs: number | null;
    inlineArm: string | null;
  };
  /** Cells where the receiver called fetch_transcript_span at least once (the seed: ≈4% of runs). */
  spanFetch: { cells: number; calls: number; n: number; rate: number | null };
  /** spawn: cells where the child's own tool calls carried out the orchestration request. */
  orchestration: { cells: number; n: number; rate: number | null } | null;
  /** Labelled assertions the live sources made, of those labelled. */
  assertions: { made: number; labelled: number };
  /** Every source cell's source was the user's own agent (`--source`): its name. */
  ownSource?: string;
  /** `--live-inline prefix`: this (inline) arm's research ran inside the parent's window, paying its prefill. */
  inlinePrefix?: true;
  /** The source's own work vs the baseline arm's, paired (absent for the baseline arm itself). */
  sourceVsBaseline?: SourceConfound;
}

/** What a live sim report says about its numbers: the live rates, each set from a seed or chosen. */
export interface LiveSimNote {
  rates: { name: string; default: number; set: 'seed' | 'chosen'; source: string }[];
  emerges: string;
}

/** A mean over cells with its 95% t interval clustered by case (reps nested in cases), within what the quantity can be. */
export interface SweepEstimate {
  mean: number;
  ci: [number, number] | null;
  n: number;
}

/** One value of a swept param, pooled over the sweep's other params. */
export interface SweepPoint {
  value: string;
  arms: string[];
  /** ok cells. */
  cells: number;
  /** The suite's primary criterion. */
  score: SweepEstimate | null;
  handoffTokens: SweepEstimate | null;
  /** Share of labelled assertions kept (with their qualifier) in the payload, per cell. */
  payloadSurvival: SweepEstimate | null;
  /** The same in the receiver's answer. */
  answerSurvival: SweepEstimate | null;
}

/** The response to one swept param: a point per value, in the sweep's order (numbers ascending). */
export interface ParamResponse {
  param: string;
  points: SweepPoint[];
}

/** Arms named `<base>[k=v,…]` (what `sweep()` makes) of one strategy, read as an ablation grid. */
export interface SweepSummary {
  base: string;
  strategy: string;
  arms: string[];
  criterion: string | null;
  params: ParamResponse[];
}
