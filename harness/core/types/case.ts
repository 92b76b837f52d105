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
  readonly id: string;
  readonly kind: AssertionKind;
  /** How the source agent stated it, qualifier included ("I could not determine whether …"). */
  readonly statement: string;
  /** The bare proposition, as it reads when the qualifier is stripped ("the sandbox adapter pins 2023-10"). */
  readonly claim: string;
  /** Phrases that recognise the claim: all must occur on one line (case-insensitive). */
  readonly cues: readonly string[];
  /** For hedged / assumption / unresolved: phrases that recognise the qualifier; any one suffices. */
  readonly qualifierCues?: readonly string[];
  /** Where the source read it from (file:line, table.column), for provenance checks. */
  readonly provenance?: readonly string[];
  /**
   * Where the source put it. Optional in the type (a scaffolded or older case has none; `validate`
   * warns), required of every shipped return and escalation case (test/cases/locations.test.ts).
   */
  readonly location?: ClaimLocation;
  /** `proposed`: made by a labeller (cue lexicon or a model) and not yet checked by a person. Absent: confirmed. */
  readonly status?: 'proposed' | 'confirmed';
}

/** The importers' name for a claim location (cases/propose-labels.ts); the same type. */
export type AssertionLocation = ClaimLocation;

/** A fact a correct answer contains. */
export interface ReferenceFact {
  readonly id: string;
  readonly text: string;
  /** All must occur on one line of the answer. */
  readonly cues: readonly string[];
}

/** Tool evidence a receiver can cite (a test run, a query result). */
export interface EvidenceItem {
  readonly id: string;
  /** What it shows, as a receiver would cite it ("npm test: 48 passed"). */
  readonly text: string;
  /** Phrases that show the evidence is in a context (e.g. the tool output line). */
  readonly cues: readonly string[];
}

/**
 * What a correct answer must contain: reference facts, the caveats it must carry, evidence, contradictions
 * (multi-child), orchestration (spawn).
 */
export interface Reference {
  readonly facts: readonly ReferenceFact[];
  /** Assertion ids whose qualifier a correct answer must carry. */
  readonly caveats: readonly string[];
  readonly evidence?: readonly EvidenceItem[];
  /** multi-child: pairs of assertion ids that contradict each other. */
  readonly contradictions?: readonly {
    readonly between: readonly [string, string];
    readonly topic: string;
  }[];
  /** multi-child: what none of the children searched. */
  readonly notSearched?: readonly string[];
  /** spawn: the parent's orchestration request; a child that acts on it took a second assignment. */
  readonly orchestration?: {
    readonly request: string;
    readonly cues: readonly string[];
    /**
     * Live mode: the tool calls that carry the request out (e.g. the whole-tree run_tests). A call
     * matches when its name is the same and every listed input field has that value (null = absent).
     */
    readonly calls?: readonly { readonly name: string; readonly input?: Readonly<Record<string, unknown>> }[];
  };
  /** How long a proportional answer is, in words (for the proportional criterion). */
  readonly expectedWords?: number;
}

/** Fixture data that tools read in live mode and that `fetch_transcript_span` serves (docs/live.md). */
export interface World {
  /** The repository: world-relative path → text (search_code, read_file). */
  readonly files?: Readonly<Record<string, string>>;
  /** Tables of a read-only SQLite database (query). */
  readonly tables?: Readonly<
    Record<
      string,
      { readonly columns: readonly string[]; readonly rows: readonly (readonly (string | number | null)[])[] }
    >
  >;
  /** Documents outside the repository, by name (read_doc). */
  readonly docs?: Readonly<Record<string, string>>;
  /**
   * Coding worlds: the recorded outcome run_tests() returns in a read-only world; in a writable one,
   * `tests.run` is the command run_tests runs in the cell's copy (the recorded outcome is the copy's
   * state before any edit).
   */
  readonly tests?: WorldTests;
  /**
   * Each cell gets its own writable copy (copy-on-write where the file system allows): the agent gets
   * write_file, edit_file and list_files, and run_tests runs `tests.run` (docs/live.md).
   */
  readonly writable?: boolean;
}

/**
 * A writable world's test command (docs/live.md): run with the cell's copy of the repository as its
 * working directory, without a shell, with a scrubbed environment and a time limit. No model text is
 * ever part of it; a declared scope's name is appended as the last argument.
 */
export interface WorldTestRun {
  /** The program and its arguments; `{node}` is this Node binary, `{runner}` the directory `files` are written to. */
  readonly argv: readonly string[];
  /** Killed after this long. @default 30000 */
  readonly timeoutMs?: number;
  /** The runner's own files (written outside the repository: the tools never read them), path → text. */
  readonly files?: Readonly<Record<string, string>>;
}

/** A recorded test run of a world: its output and exit code. */
export interface WorldTestOutcome {
  readonly output: string;
  /** The recorded exit code; non-zero marks the result as an error result, as agent harnesses do. */
  readonly exitCode: number;
}

/** A world's recorded test outcomes (what run_tests returns): the full suite and named scopes. */
export interface WorldTests extends WorldTestOutcome {
  /** The command the outcome was recorded with (shown in the tool's description). */
  readonly command: string;
  /** Outcomes of narrower runs, by scope (a package, a test file); run_tests() without a scope is the full suite. */
  readonly scopes?: Readonly<Record<string, WorldTestOutcome>>;
  /** A writable world's test command; absent = run_tests returns the recorded outcome. */
  readonly run?: WorldTestRun;
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
  readonly id: string;
  readonly suite: string;
  readonly title?: string;
  readonly direction: Direction;
  /** What the receiving agent is asked. */
  readonly task: string;
  /** The session whose work is handed over: the child (return), the primary (escalation), the parent (spawn). */
  readonly source: Transcript;
  /** multi-child: every child's session (source is the first). */
  readonly sources?: readonly Transcript[];
  /** The receiver's own history before the handoff (the parent's window for a return). */
  readonly receiverHistory?: Transcript;
  /** spawn: the id of the triggering spawn call in `source`; excluded from every snapshot. */
  readonly spawnCallId?: string;
  /** Name of the receiving agent as it appears in narration and framing. */
  readonly receiverAgent?: string;
  readonly sessionShape?: SessionShape;
  readonly assertions: readonly Assertion[];
  readonly reference: Reference;
  readonly criteria: readonly string[];
  readonly world?: World;
  readonly tags?: readonly string[];
  /** The file the case was loaded from (set by the loader). */
  readonly file?: string;
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
  /**
   * Answers cut at max_tokens are expected for this arm (a deliberately small output budget): its
   * truncated rows do not count against the error budget. They are flagged either way. @default false
   */
  allowTruncation?: boolean;
}
