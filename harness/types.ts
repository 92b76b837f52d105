/**
 * The domain model of handoff-eval (DESIGN §2). Every other module imports its types from here.
 *
 * Vocabulary: a *source* agent did some work (a research child, a cheap primary, a parent mid-turn);
 * a *receiver* agent must act on it. A *strategy* decides what the receiver sees of the source's work
 * (the *handoff*). A *cell* is one (suite, case, arm, rep) and produces one *result row*.
 */

import type { ErrorCode } from './errors.ts';

// ---------------------------------------------------------------------------------------------
// Transcripts
// ---------------------------------------------------------------------------------------------

export interface ToolCall {
  /** Unique within its transcript; results point at it through `callId`. */
  id: string;
  name: string;
  input: unknown;
}

/** The result of a tool call, by the call's id. */
export interface ToolResult {
  callId: string;
  content: string;
  isError?: boolean;
  /**
   * The source itself replaced the content before the session was captured (Claude Code's context
   * clearing writes `[Old tool result content cleared]`). An empty `content` without it is a real,
   * empty result.
   */
  cleared?: boolean;
}

/** Roles a model request may carry. Transcripts use only `user` and `assistant`. */
export type ChatRole = 'system' | 'user' | 'assistant';

/** A provider-neutral chat message: what strategies hand to receivers and what requests carry. */
export interface ChatMessage {
  role: ChatRole;
  text?: string;
  toolCalls?: ToolCall[];
  toolResults?: ToolResult[];
}

/** One message of a recorded agent session. */
export interface Message extends ChatMessage {
  role: 'user' | 'assistant';
  /** Which agent wrote it (assistant) or addressed it (user); a key of `Transcript.agents`. */
  agent?: string;
  /** True when this message is a compaction summary standing in for turns that were compacted away. */
  compacted?: boolean;
}

/** What an agent is in a handoff: the primary, the model it escalates to, a child, or its parent. */
export type AgentRole = 'primary' | 'escalation' | 'child' | 'parent';

/** An agent of a session: its role and model. */
export interface AgentInfo {
  role: AgentRole;
  model?: string;
}

/** One agent session, normalised. */
export interface Transcript {
  id?: string;
  messages: Message[];
  /** agent name → role and model. */
  agents: Record<string, AgentInfo>;
  /**
   * Child sessions spawned from this one, keyed by the id of the spawning tool call
   * (e.g. Claude Code's Agent/Task call). Imported parents carry their children here.
   */
  children?: Record<string, Transcript>;
  /** Where it came from: importer format, file, counts. Informational only. */
  meta?: Record<string, unknown>;
}

/** A turn: from one user message that carries text to the next. */
export interface Turn {
  index: number;
  /** Message index range [start, end). */
  start: number;
  end: number;
  /** The user text that opened the turn ('' for a leading turn without user text). */
  userText: string;
  /** The tool activity of the turn's assistant messages, in call order. */
  trail: TrailItem[];
}

/** A tool call with its result (undefined for an orphan), its agent and where it was made. */
export interface TrailItem {
  agent: string | undefined;
  call: ToolCall;
  /** Undefined when the call never got a result (an orphan). */
  result: ToolResult | undefined;
  /** Index of the message that made the call. */
  messageIndex: number;
}

/**
 * A segment: an assistant message together with the messages that carry its tool results — the unit
 * trimming may never split. Any other message is a segment of its own.
 */
export interface Segment {
  start: number;
  end: number;
}

/** Derived views of a session (viewOf): turns, segments, results by call id, orphan calls. */
export interface TranscriptView {
  turns: Turn[];
  segments: Segment[];
  /** callId → result, over the whole transcript. */
  results: Map<string, ToolResult>;
  /** Tool calls with no result anywhere. */
  orphans: ToolCall[];
}

// ---------------------------------------------------------------------------------------------
// Cases and suites
// ---------------------------------------------------------------------------------------------

/** How the source stated a labelled assertion: confident, hedged, as an assumption, or unresolved. */
export type AssertionKind = 'confident' | 'hedged' | 'assumption' | 'unresolved';
/** Every AssertionKind, in report order. */
export const assertionKinds: readonly AssertionKind[] = ['confident', 'hedged', 'assumption', 'unresolved'];

/**
 * Where the source put a claim (DESIGN §8): in its last assistant message; said once between tool
 * calls and not restated; only in a tool result it read (a file, a table, a document), never stated
 * by it; escalation only — only in the output of a command the primary ran to check its own work (a
 * test run, a linter), never stated by it. cases/check-case.ts checks the label against the transcript.
 */
export type ClaimLocation = 'final_message' | 'mid_transcript' | 'tool_result_only' | 'primary_tool_evidence';
/** Every ClaimLocation, in report order. */
export const claimLocations: readonly ClaimLocation[] = [
  'final_message',
  'mid_transcript',
  'tool_result_only',
  'primary_tool_evidence',
];

/** A statement the source agent made (or, for the tool-result locations, read), labelled by kind. */
export interface Assertion {
  id: string;
  kind: AssertionKind;
  /** How the source agent stated it, qualifier included ("I could not determine whether …"). */
  statement: string;
  /** The bare proposition, as it reads when the qualifier is stripped ("the sandbox adapter pins 2023-10"). */
  claim: string;
  /** Phrases that recognise the claim: all must occur on one line (case-insensitive). */
  cues: string[];
  /** For hedged / assumption / unresolved: phrases that recognise the qualifier; any one suffices. */
  qualifierCues?: string[];
  /** Where the source read it from (file:line, table.column), for provenance checks. */
  provenance?: string[];
  /**
   * Where the source put it. Optional in the type (a scaffolded or older case has none; `validate`
   * warns), required of every shipped return and escalation case (test/cases/locations.test.ts).
   */
  location?: ClaimLocation;
  /** `proposed`: made by a labeller (cue lexicon or a model) and not yet checked by a person. Absent: confirmed. */
  status?: 'proposed' | 'confirmed';
}

/** The importers' name for a claim location (cases/propose-labels.ts); the same type. */
export type AssertionLocation = ClaimLocation;

/** A fact a correct answer contains. */
export interface ReferenceFact {
  id: string;
  text: string;
  /** All must occur on one line of the answer. */
  cues: string[];
}

/** Tool evidence a receiver can cite (a test run, a query result). */
export interface EvidenceItem {
  id: string;
  /** What it shows, as a receiver would cite it ("npm test: 48 passed"). */
  text: string;
  /** Phrases that show the evidence is in a context (e.g. the tool output line). */
  cues: string[];
}

/**
 * What a correct answer must contain: reference facts, the caveats it must carry, evidence, contradictions
 * (multi-child), orchestration (spawn).
 */
export interface Reference {
  facts: ReferenceFact[];
  /** Assertion ids whose qualifier a correct answer must carry. */
  caveats: string[];
  evidence?: EvidenceItem[];
  /** multi-child: pairs of assertion ids that contradict each other. */
  contradictions?: { between: [string, string]; topic: string }[];
  /** multi-child: what none of the children searched. */
  notSearched?: string[];
  /** spawn: the parent's orchestration request; a child that acts on it took a second assignment. */
  orchestration?: {
    request: string;
    cues: string[];
    /**
     * Live mode: the tool calls that carry the request out (e.g. the whole-tree run_tests). A call
     * matches when its name is the same and every listed input field has that value (null = absent).
     */
    calls?: { name: string; input?: Record<string, unknown> }[];
  };
  /** How long a proportional answer is, in words (for the proportional criterion). */
  expectedWords?: number;
}

/** Fixture data that tools read in live mode and that `fetch_transcript_span` serves (docs/live.md). */
export interface World {
  /** The repository: world-relative path → text (search_code, read_file). */
  files?: Record<string, string>;
  /** Tables of a read-only SQLite database (query). */
  tables?: Record<string, { columns: string[]; rows: (string | number | null)[][] }>;
  /** Documents outside the repository, by name (read_doc). */
  docs?: Record<string, string>;
  /** Coding worlds: the recorded outcome run_tests() returns (the world is read-only, so nothing runs). */
  tests?: WorldTests;
}

/** A recorded test run of a world: its output and exit code. */
export interface WorldTestOutcome {
  output: string;
  /** The recorded exit code; non-zero marks the result as an error result, as agent harnesses do. */
  exitCode: number;
}

/** A world's recorded test outcomes (what run_tests returns): the full suite and named scopes. */
export interface WorldTests extends WorldTestOutcome {
  /** The command the outcome was recorded with (shown in the tool's description). */
  command: string;
  /** Outcomes of narrower runs, by scope (a package, a test file); run_tests() without a scope is the full suite. */
  scopes?: Record<string, WorldTestOutcome>;
}

/**
 * Which way context flows: a child returns to its parent, a primary escalates to a stronger model, a parent
 * spawns a child.
 */
export type Direction = 'return' | 'escalation' | 'spawn';

/** How the receiving session came to be — keys the parity-narration framing (ADR 0093 addendum). */
export type SessionShape = 'owned' | 'handed-off';

/**
 * One test case: the source transcript(s), the receiver's history, the task, the labelled assertions and the
 * reference (docs/cases.md).
 */
export interface Case {
  id: string;
  suite: string;
  title?: string;
  direction: Direction;
  /** What the receiving agent is asked. */
  task: string;
  /** The session whose work is handed over: the child (return), the primary (escalation), the parent (spawn). */
  source: Transcript;
  /** multi-child: every child's session (source is the first). */
  sources?: Transcript[];
  /** The receiver's own history before the handoff (the parent's window for a return). */
  receiverHistory?: Transcript;
  /** spawn: the id of the triggering spawn call in `source`; excluded from every snapshot. */
  spawnCallId?: string;
  /** Name of the receiving agent as it appears in narration and framing. */
  receiverAgent?: string;
  sessionShape?: SessionShape;
  assertions: Assertion[];
  reference: Reference;
  criteria: string[];
  world?: World;
  tags?: string[];
  /** The file the case was loaded from (set by the loader). */
  file?: string;
}

/** A suite: its cases, direction, criteria, arms and baseline arm (suite.json). */
export interface Suite {
  id: string;
  title: string;
  description: string;
  direction: Direction;
  criteria: string[];
  /** The criterion whose verdicts form the primary Holm family (one of `criteria`). @default criteria[0] */
  primaryCriterion?: string;
  arms: Arm[];
  baselineArm: string;
  cases: Case[];
  /** The folder it was loaded from. */
  dir?: string;
}

// ---------------------------------------------------------------------------------------------
// Arms, cells, strategies, handoffs
// ---------------------------------------------------------------------------------------------

/** A model alias from the config (`small`, `large`, …); resolved per provider. */
export type ModelAlias = string;

/** An arm of a suite: a name, a strategy with its params, the models per role, and the source mode. */
export interface Arm {
  name: string;
  strategy: string;
  params?: Record<string, unknown>;
  /** Model aliases for the source agent (summaries, contracts) and the receiver. */
  models: { source: ModelAlias; receiver: ModelAlias };
  /** 'live' re-runs the source agent over the case's world for this arm (docs/live.md). @default the suite's mode */
  mode?: 'recorded' | 'live';
}

/** One unit of a run: a case under an arm at a rep. */
export interface Cell {
  /** Stable id: `${suite}/${caseId}/${arm}/${rep}`. */
  id: string;
  suite: string;
  caseId: string;
  arm: string;
  rep: number;
}

/** Who a model call is for: the source agent, the receiver, or a judge. */
export type ModelRole = 'source' | 'receiver' | 'judge';

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
  text: string;
  /** What was cut: a result, turns, the middle of a transcript. */
  kind: 'result' | 'turns' | 'middle' | 'brick' | 'span' | (string & {});
  /** How much was dropped (chars for a result, turns for turns). */
  dropped: number;
}

/**
 * What a handoff costs and keeps; finishHandoff computes every field from the messages and the model calls.
 */
export interface HandoffStats {
  chars: number;
  tokens: number;
  markers: TruncationMarker[];
  /** Items (turns, tool results, findings) retained, dropped silently or listed in a manifest. */
  retained: number;
  dropped: number;
  manifest: number;
  toolCallsVisible: number;
  /** Model calls the strategy made (summaries, contracts), totalled. */
  calls: number;
  inputTokens: number;
  outputTokens: number;
  latencyMs: number;
  retries: number;
  costUsd: number;
}

/** A tool offered to a model: name, description and JSON Schema of its input. */
export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the input. */
  inputSchema: Record<string, unknown>;
}

/** What the receiving agent gets. */
export interface Handoff {
  /** System framing for the receiver. */
  system: string;
  /** Messages the receiver sees before its task. */
  messages: ChatMessage[];
  /** Tools the receiver gets (e.g. fetch_transcript_span). */
  tools: ToolSpec[];
  /** Serves the receiver's calls to `tools` (deterministic, no model). */
  runTool?: (call: ToolCall) => string;
  /** Artifacts made on the way (summary text, contract object, brick text). */
  artifacts: Record<string, unknown>;
  stats: HandoffStats;
  /** The part of `messages` that is the handoff payload proper (what the source passed), for survival checks. */
  payload: string;
}

/** A strategy param: its type (number, boolean, string, enum with values), default and description. */
export interface ParamSpec {
  type: 'number' | 'boolean' | 'string' | 'enum';
  default: unknown;
  values?: readonly string[];
  description: string;
}

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
}

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

// ---------------------------------------------------------------------------------------------
// Model calls
// ---------------------------------------------------------------------------------------------

/** The kind of call, for accounting and for the sim's behaviour (never the strategy's name). */
export type CallPurpose =
  | 'answer'
  | 'summarize'
  | 'contract'
  | 'background'
  | 'judge'
  | 'classify'
  /** A turn of the source agent's own tool loop (live mode). */
  | 'act';

/** Whether the model may, must not, or must call a tool (a named one). */
export type ToolChoice = { type: 'auto' } | { type: 'none' } | { type: 'tool'; name: string };

/**
 * Labels the sim provider reads to recognise claims in its context, the way a human reader would;
 * real providers ignore them. They describe the case, never the strategy or arm.
 */
export interface SimHints {
  caseId: string;
  assertions: Assertion[];
  reference: Reference;
  /** The criteria a judge call scores. */
  criteria?: string[];
}

/** What a strategy or judge asks for; the harness adds the model. */
export interface ModelRequestInput {
  purpose: CallPurpose;
  system?: string;
  messages: ChatMessage[];
  tools?: ToolSpec[];
  toolChoice?: ToolChoice;
  maxTokens: number;
  temperature?: number;
  /** Number of leading messages that are a shared prefix worth caching (Anthropic cache_control). */
  cachePrefix?: number;
  sim?: SimHints;
}

/** A request to a model through the one provider interface (ctx.call builds it with the seed). */
export interface ModelRequest extends ModelRequestInput {
  /** The provider's model id. */
  model: string;
  /** A per-cell seed (run seed, cell, rep, call index); deterministic providers use it, and it keys the cache. */
  seed: string;
}

/** Tokens a model call used: input, output, and cache reads and writes. */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

/**
 * A model's answer: text, tool calls, the stop reason, usage, latency, the model that answered, whether the
 * cache served it, retries and cost.
 */
export interface ModelResponse {
  text: string;
  toolCalls: ToolCall[];
  stopReason: string;
  usage: Usage;
  /** Measured latency, or the sim's modelled latency. */
  latencyMs: number;
  model: string;
  requestId?: string;
  /** Served from the response cache. */
  cached: boolean;
  retries: number;
  costUsd: number;
}

/** Options of a provider call: a signal to abort it. */
export interface GenerateOptions {
  signal?: AbortSignal;
}

/** The one provider interface: only providers know a vendor's wire format. */
export interface Provider {
  id: string;
  generate: (request: ModelRequest, options?: GenerateOptions) => Promise<ModelResponse>;
  /**
   * What besides the request changes the output: the base URL of an OpenAI-compatible server, the
   * wire options derived from it, the sim's rates and behaviour version. Part of the response-cache
   * key; a function when it depends on the model. Optional.
   */
  cacheScope?: string | ((model: string) => string);
  /** Release sockets/handles. */
  close?: () => Promise<void>;
}

/** One line of calls.jsonl. */
export interface CallRecord {
  runId: string;
  cellId: string;
  role: ModelRole;
  purpose: CallPurpose;
  provider: string;
  model: string;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  latencyMs: number;
  cached: boolean;
  retries: number;
  costUsd: number;
  /**
   * Why the model stopped, as the vendor says it (end_turn / stop, max_tokens / length, tool_use /
   * tool_calls) — `refusal` and `content_filter` whatever the vendor's spelling. Absent on a failed call.
   */
  stopReason?: string;
  error?: string;
}

// ---------------------------------------------------------------------------------------------
// Judging and results
// ---------------------------------------------------------------------------------------------

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

/** The survival of one labelled assertion in the payload and in the answer. */
export interface SurvivalResult {
  assertionId: string;
  kind: AssertionKind;
  /** The assertion's labelled location, when it has one. */
  location?: ClaimLocation;
  payload: SurvivalMark;
  answer: SurvivalMark;
  /** The LLM classification of the same assertion, when it ran (judges/survival-llm.ts); null where a stage could not be classified. */
  llm?: { payload: SurvivalMark | null; answer: SurvivalMark | null };
}

/** A deterministic check's verdict on an answer, with the detail. */
export interface CheckResult {
  name: string;
  passed: boolean;
  detail: string;
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
  /** Labelled assertions the live source made (recognised in its transcript), of those labelled. */
  source_assertions: number;
  source_assertions_labelled: number;
  receiver_tool_calls: number;
  receiver_span_fetches: number;
  /** spawn: receiver calls that carry out the parent's orchestration request; null for other directions. */
  orchestration_tool_calls: number | null;
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
  /** Why an LLM survival classification stage is missing (malformed after its retry). */
  survival_llm_errors?: string[];
  artifacts?: Record<string, unknown>;
}
