import { join } from 'node:path';
import { setMaxListeners } from 'node:events';
import type { CallRecord, ResultRow, Suite } from '../core/index.ts';
import type { ResolvedConfig } from '../config/types.ts';
import { createProviders } from '../providers/index.ts';
import { createCallPath } from '../calls/call-path.ts';
import { executeCell } from './execute-cell.ts';
import { HandoffMemo } from './handoff-memo.ts';
import { Journal, readJsonl } from './journal.ts';
import { latestRows } from '../../reports/latest-rows.ts';
import { loadExperiment } from './experiment.ts';
import { planCells, type PlannedCell } from './plan.ts';
import { liveSkipped } from '../live/plan-live.ts';
import type { Progress, Reporter } from './reporters.ts';
import { openCache } from '../cache/index.ts';
import type { ResponseCache } from '../cache/types.ts';
import { report, resolveReporters } from './reporters-map.ts';
import { harnessVersion } from '../version.ts';
import { InputError, type ProviderError } from '../core/errors.ts';
import { maskSecrets } from '../core/redact.ts';
import { runPool } from './pool.ts';
import { checkBatchSettings, wrapForBatch, type BatchRun } from '../batch/run-batch.ts';
import type { BatchEvent } from '../batch/scheduler.ts';
import { acquireRunLock, createRunDirectory, openResume, writeConfigRecord, type RunDir } from './run-dir.ts';

export interface RunOptions {
  config: ResolvedConfig;
  /** The reporters (hooks and report files). @default the config's `reporters`, without the progress line */
  reporters?: Reporter[];
  /** An existing run directory: only cells missing from its journal run, planned from its own config.json. */
  resumeDir?: string;
  /** With resumeDir: cells whose latest row is an error run again too (the journal keeps every attempt). */
  retryErrors?: boolean;
  signal?: AbortSignal;
  /** With config.batch: exit once every waiting call waits on a submitted batch (`run --batch --detach`). */
  detach?: boolean;
}

export interface RunOutcome {
  runId: string;
  dir: string;
  rows: ResultRow[];
  interrupted: boolean;
  progress: Progress;
  /** On resume: plan fields of the current config that differ from the run's own (the run's were used). */
  resumeDiffers?: string[];
  /**
   * The provider error that stopped the run (401, 403, an unknown model): no cell was started after it,
   * the cells it failed are not journalled, no report was written; `--resume` continues the run.
   */
  stoppedBy?: ProviderError;
  /** What the plan left out and why (e.g. cases a live arm cannot run: no world). */
  notes?: string[];
  /** Batch runs: requests this process submitted, and whether it detached with batches still running. */
  batch?: { submitted: number; detached: boolean };
}

/** Plan → execute each cell (bounded concurrency, journalled as it finishes) → reports. */
export async function runExperiment(opts: RunOptions): Promise<RunOutcome> {
  // Every in-flight call listens on the run's signal (the SDK and the transport each add one).
  if (opts.signal) setMaxListeners(0, opts.signal);
  const resume = opts.resumeDir ? openResume(opts.resumeDir, opts.config) : undefined;
  const config = resume?.config ?? opts.config;
  const reporters = opts.reporters ?? resolveReporters(config, { progress: false });
  const suites = await loadExperiment(config);
  const cells = planCells(suites, config);
  const notes = liveSkipped(suites, config);
  if (cells.length === 0) throw nothingToRun(suites, config);
  if (config.batch) checkBatchSettings(config);
  // Providers first: a missing key fails here, before the run directory or any call exists.
  const providers = await createProviders(config);
  let run: RunDir;
  let release: () => void;
  // The cache before the run directory too: one that cannot be opened leaves no empty run behind.
  let cache: ResponseCache | null = null;
  try {
    cache = config.cache.enabled ? openCache(config.cache.dir) : null;
    run = resume ?? createRunDirectory(config);
    release = acquireRunLock(run.dir);
  } catch (err) {
    cache?.close();
    await Promise.all(Object.values(providers).map((p) => p.close?.()));
    throw err;
  }
  const { runId, dir } = run;
  const journalPath = join(dir, 'results.jsonl');
  let progress: Executed;
  // A batch run detaches by stopping itself: the run's own signal, linked to the caller's.
  const stop = linkedController(opts.signal);
  let batch: BatchRun | undefined;
  let active = providers;
  try {
    if (!resume) writeConfigRecord(dir, config, runId);
    if (config.batch) {
      const onEvent = (e: BatchEvent) => reporters.forEach((r) => r.onBatch?.(e));
      const retryErrors = Boolean(resume && opts.retryErrors);
      batch = await wrapForBatch(config, providers, {
        dir,
        retryErrors,
        detach: Boolean(opts.detach),
        stop,
        onEvent,
      });
      active = batch.providers;
    }
    progress = await executeCells({
      config,
      cells,
      providers: active,
      batched: batch?.batched ?? new Set(),
      runId,
      dir,
      journalPath,
      cache,
      reporters,
      signal: stop.signal,
      retryErrors: Boolean(resume && opts.retryErrors),
    });
  } finally {
    // Batching providers first: they wait for batch creations under way, which must reach the journal.
    const wrappers = Object.values(active).filter((p) => !Object.values(providers).includes(p));
    await Promise.all(wrappers.map((p) => p.close?.()));
    cache?.close();
    release();
    await Promise.all(Object.values(providers).map((p) => p.close?.()));
  }
  const interrupted = stop.signal.aborted;
  const detached = batch?.detached() ?? false;
  for (const r of reporters) r.onRunEnd?.(progress.progress, interrupted && !detached);
  // The journal's rows, without reading it back: those found at the start plus those appended since.
  // The reports get all of them (and apply the latest-row rule themselves, counting what it replaced).
  const journal = [...progress.prior, ...progress.rows];
  if (!interrupted && !progress.stoppedBy) await report(reporters, { runId, dir, rows: journal });
  const rows = latestRows(journal).rows;
  return {
    runId,
    dir,
    rows,
    interrupted,
    progress: progress.progress,
    ...(resume ? { resumeDiffers: resume.differs } : {}),
    ...(progress.stoppedBy ? { stoppedBy: progress.stoppedBy } : {}),
    ...(notes.length ? { notes } : {}),
    ...(batch ? { batch: { submitted: batch.submitted(), detached } } : {}),
  };
}

/** A controller of the run's own, aborted with the caller's signal (and by the run itself: --detach). */
function linkedController(signal: AbortSignal | undefined): AbortController {
  const stop = new AbortController();
  setMaxListeners(0, stop.signal);
  if (signal?.aborted) stop.abort();
  else signal?.addEventListener('abort', () => stop.abort(), { once: true });
  return stop;
}

/** Zero cells planned: the run would write an empty report and pass; say which setting emptied it. */
function nothingToRun(suites: Suite[], config: ResolvedConfig): InputError {
  const unsharded = config.shard ? planCells(suites, { ...config, shard: null }).length : 0;
  if (config.shard && unsharded > 0)
    return new InputError(
      'nothing_to_run',
      `--shard ${config.shard.index}/${config.shard.count}: none of the ${unsharded} planned cells falls in this shard`,
    );
  return new InputError(
    'nothing_to_run',
    `${config.configFile ?? 'config'}: suites: no cells to run (no suites or cases under "${config.casesDir}", or every arm filtered out)`,
  );
}

/** Cells in flight at once in a batch run (a larger plan runs in waves of this many). */
export const BATCH_CELLS_IN_FLIGHT = 5_000;

interface ExecuteArgs {
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

interface Executed {
  progress: Progress;
  /** Rows already in the journal when the run started (resume). */
  prior: ResultRow[];
  /** Rows journalled by this run, in journal order. */
  rows: ResultRow[];
  stoppedBy?: ProviderError;
}

async function executeCells(a: ExecuteArgs): Promise<Executed> {
  const { config, cells, reporters } = a;
  // The journal decides what is done; a torn last line (kill -9 mid-write) is cut before reading.
  const calls = new Journal<CallRecord>(join(a.dir, 'calls.jsonl'), 256);
  const results = new Journal<ResultRow>(a.journalPath, 64, 200, { beforeFlush: () => calls.flush() });
  const prior = readJsonl<ResultRow>(a.journalPath);
  const done = doneCells(prior, a.retryErrors);
  const rows: ResultRow[] = [];
  const todo = cells.filter((c) => !done.has(c.id));
  const { cache } = a;
  const progress: Progress = {
    done: cells.length - todo.length,
    total: cells.length,
    errors: 0,
    tokens: 0,
    costUsd: 0,
    calls: 0,
    cacheHits: 0,
    elapsedMs: 0,
  };
  const onCall = (r: CallRecord) => {
    calls.append(r);
    progress.calls++;
    // Money actually spent in this process: cache hits cost nothing now.
    if (r.cached) progress.cacheHits++;
    else progress.costUsd += r.costUsd;
  };
  const callPath = createCallPath({
    config,
    providers: a.providers,
    cache,
    runId: a.runId,
    onCall,
    unbounded: a.batched,
  });
  const started = Date.now();
  for (const r of reporters)
    r.onRunStart?.({
      runId: a.runId,
      dir: a.dir,
      cells: cells.length,
      done: progress.done,
      simulated: Object.values(config.provider).includes('sim'),
    });
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

/** Cells a resume does not run again: those with a row, or with `retryErrors` those whose latest row is ok. */
export function doneCells(journal: readonly ResultRow[], retryErrors: boolean): Set<string> {
  const latest = latestRows(journal).rows;
  return new Set(latest.filter((r) => !retryErrors || r.status === 'ok').map((r) => r.cell_id));
}
