import { join } from 'node:path';
import type { CallRecord, ResultRow } from '../core/index.ts';
import type { ResolvedConfig } from '../config/types.ts';
import type { createProviders } from '../providers/index.ts';
import { createCallPath } from '../calls/call-path.ts';
import { executeCell } from './execute-cell.ts';
import { HandoffMemo } from './handoff-memo.ts';
import { Journal } from '../core/journal.ts';
import { latestRows } from '../../reports/latest-rows.ts';
import type { PlannedCell } from './plan.ts';
import type { Progress, Reporter } from './reporters.ts';
import type { ResponseCache } from '../cache/types.ts';
import { harnessVersion } from '../version.ts';
import type { ProviderError } from '../core/errors.ts';
import { runPool } from './pool.ts';
import { maskSecrets } from '../core/redact.ts';
import { readJournalRows } from './journal-rows.ts';

// Executing a run's planned cells: a pool of workers over the plan, each cell journalled as it
// finishes, the progress counters the reporters see.

/** Cells in flight at once in a batch run (a larger plan runs in waves of this many). */
export const BATCH_CELLS_IN_FLIGHT = 5_000;

export interface ExecuteArgs {
  config: ResolvedConfig;
  cells: PlannedCell[];
  providers: Awaited<ReturnType<typeof createProviders>>;
  /** Providers served through batch APIs: their calls are not limited, and every cell is in flight at once. */
  batched: ReadonlySet<string>;
  runId: string;
  dir: string;
  journalPath: string;
  cache: ResponseCache | null;
  reporters: Reporter[];
  signal?: AbortSignal;
  retryErrors: boolean;
}

export interface Executed {
  progress: Progress;
  /** Rows already in the journal when the run started (resume). */
  prior: ResultRow[];
  /** Rows journalled by this run, in journal order. */
  rows: ResultRow[];
  stoppedBy?: ProviderError;
}

export async function executeCells(a: ExecuteArgs): Promise<Executed> {
  const { config, cells, reporters } = a;
  // The journal decides what is done; a torn last line (kill -9 mid-write) is cut before reading.
  // Read and checked before either journal is opened: bad rows stop the run (exit 2) with nothing written.
  const prior = readJournalRows(a.journalPath);
  const calls = new Journal<CallRecord>(join(a.dir, 'calls.jsonl'), 256);
  const results = new Journal<ResultRow>(a.journalPath, 64, 200, { beforeFlush: () => calls.flush() });
  const done = doneCells(prior, a.retryErrors);
  const rows: ResultRow[] = [];
  const todo = cells.filter((c) => !done.has(c.id));
  const { cache } = a;
  const progress = startingProgress(cells.length, cells.length - todo.length);
  const onCall = callCounter(calls, progress);
  const callPath = createCallPath({
    config,
    providers: a.providers,
    cache,
    runId: a.runId,
    onCall,
    unbounded: a.batched,
  });
  const started = Date.now();
  announceStart(a, progress);
  const onRow = (row: ResultRow) => {
    if (row.error) row.error = maskSecrets(row.error);
    results.append(row);
    rows.push(row);
    progress.done++;
    progress.errors += row.status === 'error' ? 1 : 0;
    progress.tokens += row.input_tokens + row.output_tokens;
    progress.elapsedMs = Date.now() - started;
    for (const r of reporters) r.onCellEnd?.(row, progress);
  };
  const env = {
    config,
    calls: callPath,
    runId: a.runId,
    harnessVersion,
    signal: a.signal,
    handoffs: new HandoffMemo(),
  };
  let stoppedBy: ProviderError | undefined;
  try {
    // A batch is filled by every cell waiting on its next call: in a batch run every cell is in flight,
    // up to BATCH_CELLS_IN_FLIGHT (memory: ≈ 0.4 MB per cell of the default experiment, docs/scale.md).
    const inFlight = a.batched.size
      ? Math.max(1, Math.min(todo.length, BATCH_CELLS_IN_FLIGHT))
      : config.concurrency;
    stoppedBy = await runPool(todo, inFlight, a.signal, async (cell) => onRow(await executeCell(cell, env)));
  } finally {
    results.close();
    calls.close();
  }
  return { progress, prior, rows, ...(stoppedBy ? { stoppedBy } : {}) };
}

/** Journals each model call and counts it (calls, cache hits, money spent in this process). */
function callCounter(calls: Journal<CallRecord>, progress: Progress): (r: CallRecord) => void {
  return (r: CallRecord) => {
    calls.append(r);
    progress.calls++;
    // Money actually spent in this process: cache hits cost nothing now.
    if (r.cached) progress.cacheHits++;
    else progress.costUsd += r.costUsd;
  };
}

/** Tells the reporters the run starts: its id, directory, cells, cells already done, simulated or not. */
function announceStart(a: ExecuteArgs, progress: Progress): void {
  const start = {
    runId: a.runId,
    dir: a.dir,
    cells: a.cells.length,
    done: progress.done,
    simulated: Object.values(a.config.provider).includes('sim'),
  };
  for (const r of a.reporters) r.onRunStart?.(start);
}

/** The counters of a run that has `done` of its `total` cells already journalled. */
function startingProgress(total: number, done: number): Progress {
  return { done, total, errors: 0, tokens: 0, costUsd: 0, calls: 0, cacheHits: 0, elapsedMs: 0 };
}

/** Cells a resume does not run again: those with a row, or with `retryErrors` those whose latest row is ok. */
export function doneCells(journal: readonly ResultRow[], retryErrors: boolean): Set<string> {
  const latest = latestRows(journal).rows;
  return new Set(latest.filter((r) => !retryErrors || r.status === 'ok').map((r) => r.cell_id));
}
