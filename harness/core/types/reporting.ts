import type { ResultRow } from './result.ts';

// The reporter extension point's shape (the config names it, so it lives here): its summary and
// batch-event types are parameters, bound by harness/runner/reporters.ts to the report Summary and
// the batch scheduler's events.

/** What `onRunStart` gets: the run id and directory, the cells planned and already done, whether it is a sim run. */
export interface RunStartInfo {
  runId: string;
  dir: string;
  cells: number;
  /** Cells already in the journal (resume). */
  done: number;
  simulated: boolean;
}

/** The running counters every reporter hook sees: cells done/total, errors, tokens, cost, calls and cache hits, time. */
export interface Progress {
  done: number;
  total: number;
  errors: number;
  tokens: number;
  costUsd: number;
  /** Model calls made by this process (cache hits included) and how many of them the cache served. */
  calls: number;
  cacheHits: number;
  elapsedMs: number;
}

/**
 * What `onReport` gets once a run completes: the run directory, the journal's rows and their summary
 * (`S` is the report Summary; reports/ binds it, since core cannot name it).
 */
export interface ReportContext<S = unknown> {
  runId: string;
  dir: string;
  /** Every row of the journal (a retried cell's earlier attempts too; the summary keeps the latest). */
  rows: readonly ResultRow[];
  /** The summary every built-in report renders (computed once, shared). */
  summary: S;
}

/**
 * Reporter hooks, all optional (vitest's reporter shape). `onReport` runs when a run completes (not
 * when it is interrupted or stopped by a provider error): the built-in `md`, `csv`, `json` and `html`
 * reporters write their files there, and a reporter of your own may write its own.
 */
export interface Reporter<S = unknown, B = unknown> {
  /** Shown in errors. @default 'reporter' */
  name?: string;
  onRunStart?(info: RunStartInfo): void;
  onCellEnd?(row: ResultRow, progress: Progress): void;
  onRunEnd?(progress: Progress, interrupted: boolean): void;
  /** A batch run read a batch's status (every poll). */
  onBatch?(event: B): void;
  onReport?(report: ReportContext<S>): void | Promise<void>;
}
