import type { Arm, Case } from './case.ts';
import type { ModelRequestInput, ModelResponse, ModelRole, ToolSpec } from './model-call.ts';
import type { ChatMessage, ToolCall } from './transcript.ts';

// Cells, strategies, handoffs: part of the domain model (harness/core/index.ts).

/** One unit of a run: a case under an arm at a rep. */
export interface Cell {
  /** Stable id: `${suite}/${caseId}/${arm}/${rep}`. */
  id: string;
  suite: string;
  caseId: string;
  arm: string;
  rep: number;
}

/** What a strategy can use: a model call through the harness, token counting, the cell's seed. */
export interface StrategyContext {
  case: Case;
  arm: Arm;
  rep: number;
  /** The receiver's message budget in tokens (the same for every arm unless a strategy says why). */
  budgetTokens: number;
  tokens: (text: string) => number;
  /** Ask the harness for a model call; caching, retries, limits and accounting are the harness's. */
  call: (role: ModelRole, request: ModelRequestInput) => Promise<ModelResponse>;
  signal?: AbortSignal;
}

/**
 * A marker placed where something was cut: its text (as the receiver sees it), the kind of cut, how much was
 * dropped.
 */
export interface TruncationMarker {
  /** The marker text as placed. */
  readonly text: string;
  /** What was cut: a result, turns, the middle of a transcript. */
  readonly kind: 'result' | 'turns' | 'middle' | 'brick' | 'span' | (string & {});
  /** How much was dropped (chars for a result, turns for turns). */
  readonly dropped: number;
}

/**
 * What a handoff costs and keeps; finishHandoff computes every field from the messages and the model calls.
 */
export interface HandoffStats {
  readonly chars: number;
  readonly tokens: number;
  readonly markers: readonly TruncationMarker[];
  /** Items (turns, tool results, findings) retained, dropped silently or listed in a manifest. */
  readonly retained: number;
  readonly dropped: number;
  readonly manifest: number;
  readonly toolCallsVisible: number;
  /** Model calls the strategy made (summaries, contracts), totalled. */
  readonly calls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly latencyMs: number;
  readonly retries: number;
  readonly costUsd: number;
}

/** What the receiving agent gets. */
export interface Handoff {
  /** System framing for the receiver. */
  readonly system: string;
  /** Messages the receiver sees before its task. */
  readonly messages: readonly ChatMessage[];
  /** Tools the receiver gets (e.g. fetch_transcript_span). */
  readonly tools: readonly ToolSpec[];
  /** Serves the receiver's calls to `tools` (deterministic, no model). */
  readonly runTool?: (call: ToolCall) => string;
  /**
   * Tool rounds the receiver may take before its answer. @default 4. A spawned child given the world's
   * tools in live mode gets its tool budget + 2, as the source loop does (docs/live.md).
   */
  readonly toolRounds?: number;
  /** Artifacts made on the way (summary text, contract object, brick text). */
  readonly artifacts: Readonly<Record<string, unknown>>;
  readonly stats: HandoffStats;
  /** The part of `messages` that is the handoff payload proper (what the source passed), for survival checks. */
  readonly payload: string;
}

/** A strategy param: its type (number, boolean, string, enum with values), default and description. */
export interface ParamSpec {
  type: 'number' | 'boolean' | 'string' | 'enum';
  default: unknown;
  values?: readonly string[];
  description: string;
}

/**
 * A param spec as a strategy author writes it: the default's type follows `type`, an enum lists its
 * values. defineStrategy infers the params' TypeScript type from these (ParamsOf), so there is no
 * hand-kept twin type to drift from the spec.
 */
export type TypedParamSpec =
  | { type: 'number'; default: number; description: string }
  | { type: 'boolean'; default: boolean; description: string }
  | { type: 'string'; default: string; description: string }
  | { type: 'enum'; values: readonly string[]; default: string; description: string };

/** The value type a param spec declares: number, boolean, string, or the union of an enum's values. */
export type ParamValue<S> = S extends { type: 'number' }
  ? number
  : S extends { type: 'boolean' }
    ? boolean
    : S extends { type: 'enum'; values: readonly (infer V)[] }
      ? V
      : string;

/** The params a strategy's `prepare` receives, inferred from its spec: `{ n: { type: 'number', … } }` → `{ n: number }`. */
export type ParamsOf<S> = { -readonly [K in keyof S]: ParamValue<S[K]> };

/**
 * A handoff strategy: its name, params and `prepare`, which turns a case into what the receiver sees
 * (docs/writing-a-strategy.md). Build one with defineStrategy.
 */
export interface Strategy<P extends Record<string, unknown> = Record<string, unknown>> {
  name: string;
  description: string;
  /** The seed passage it implements. */
  seed: string;
  params: { [K in keyof P]: ParamSpec };
  prepare: (ctx: StrategyContext, params: P) => Promise<Handoff>;
  /**
   * Live mode (docs/live.md): what the source agent is told in its first turn about how its work will
   * be returned — structured-contract tells it that it must fill the research_result record. The
   * source sees only this text, never the strategy's name. @default nothing
   */
  sourceNotice?: (params: P) => string | undefined;
  /**
   * The handoff depends only on the case, the arm's params and the budget — never on the rep, chance
   * or state — and is built without model calls (ctx.call throws for such a strategy). The runner then
   * prepares it once per case × arm and reuses it for every rep; nobody may change a handoff once built.
   * @default false
   */
  deterministic?: boolean;
  /**
   * Invariants the strategy promises beyond the ones every strategy is held to; `checkStrategy` and
   * `handoff-eval check-strategy` test each one it declares. A function form decides per params.
   */
  properties?: StrategyProperties<P>;
  /**
   * Invariants the strategy breaks on purpose, each with why ("drops tool items without a marker, as
   * the framework does"). The kit still checks a declared invariant and reports what it finds as
   * declared — never as passed, never as a failure. A function form decides per params (undefined:
   * not declared for those params).
   */
  declares?: StrategyDeclarations<P>;
}

/** The kit's invariants a strategy may declare it breaks by design (docs/writing-a-strategy.md, "The test kit"). */
export type DeclarableInvariant =
  'pairing' | 'cuts-marked' | 'gaps-marked' | 'ordered' | 'no-leak' | 'spawn-instructions';

/** Each declared invariant with the reason the strategy breaks it. */
export type StrategyDeclarations<P extends Record<string, unknown> = Record<string, unknown>> = {
  [K in DeclarableInvariant]?: string | ((params: P) => string | undefined);
};

/** What a strategy declares about its handoffs (see docs/writing-a-strategy.md, "The test kit"). */
export interface StrategyProperties<P extends Record<string, unknown> = Record<string, unknown>> {
  /**
   * Every cut is marked: a source tool result shown only in part is followed, in the same message, by
   * a marker the handoff records in `stats.markers`. `false` for a strategy that cuts silently on
   * purpose (the legacy brick). @default true
   */
  marksCuts?: boolean | ((params: P) => boolean);
  /**
   * The receiver sees every text, tool call (name and arguments) and tool result of the source
   * (return and escalation cases; a spawn snapshot is a selection by definition). @default false
   */
  superset?: boolean | ((params: P) => boolean);
  /**
   * The receiver sees exactly what this retention plan retains of the source's tool trails when the
   * budget does not bind: every text, the calls and (capped) results of expanded and retained turns,
   * none of the results of manifest turns (ADR 0093 E). @default undefined (no retention promise)
   */
  retention?: RetentionPolicy | ((params: P) => RetentionPolicy | undefined);
}

/**
 * The retention plan for tool trails (ADR 0093 A), shared by an agent's own replay and a receiver's
 * narration of another agent's trails (strategies/trails.ts).
 */
export interface RetentionPolicy {
  /** Newest turns (with tool activity) replayed in full. @default 2 */
  expandTurns: number;
  /** Byte budget for trail content, newest first, expanded turns included. @default 163840 (160 KB) */
  retainBytes: number;
  /** Characters kept of each result in a retained (not expanded) turn. @default 1500 */
  retainedResultCap: number;
}
