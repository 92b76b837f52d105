import type { Transcript } from './transcript.ts';

// Cases and suites: part of the domain model (harness/core/index.ts).

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
