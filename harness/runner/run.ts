import { join } from 'node:path';
import { setMaxListeners } from 'node:events';
import type { CallRecord, ResultRow, Suite } from '../types.ts';
import type { ResolvedConfig } from '../config/types.ts';
import { createProviders } from '../providers/index.ts';
import { createCallPath } from './calls.ts';
import { executeCell } from './execute-cell.ts';
import { HandoffMemo } from './handoff-memo.ts';
import { Journal, readJsonl } from './journal.ts';
import { latestRows } from './latest-rows.ts';
import { loadExperiment } from './experiment.ts';
import { planCells, type PlannedCell } from './plan.ts';
import { liveSkipped } from '../live/plan-live.ts';
import type { Progress, Reporter } from './reporters.ts';
import { openCache } from '../cache/index.ts';
import type { ResponseCache } from '../cache/types.ts';
import { report, resolveReporters } from './reporters-map.ts';
import { harnessVersion } from '../version.ts';
import { InputError, isFatal, type ProviderError } from '../errors.ts';
import { maskSecrets } from '../redact.ts';
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
  try {
    if (!resume) writeConfigRecord(dir, config, runId);
    progress = await executeCells({
      config,
      cells,
      providers,
      runId,
      dir,
      journalPath,
      cache,
      reporters,
      signal: opts.signal,
      retryErrors: Boolean(resume && opts.retryErrors),
    });
  } finally {
    cache?.close();
    release();
    await Promise.all(Object.values(providers).map((p) => p.close?.()));
  }
  const interrupted = Boolean(opts.signal?.aborted);
  for (const r of reporters) r.onRunEnd?.(progress.progress, interrupted);
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
  };
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

/** Cells start for at most this long between two event-loop turns (cells already running finish first). */
const YIELD_EVERY_MS = 4;

interface ExecuteArgs {
  config: ResolvedConfig;
  cells: PlannedCell[];
  providers: Awaited<ReturnType<typeof createProviders>>;
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
  const callPath = createCallPath({ config, providers: a.providers, cache, runId: a.runId, onCall });
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
    stoppedBy = await runPool(todo, config.concurrency, a.signal, async (cell) =>
      onRow(await executeCell(cell, env)),
    );
  } finally {
    results.close();
    calls.close();
  }
  return { progress, prior, rows, ...(stoppedBy ? { stoppedBy } : {}) };
}

/**
 * `concurrency` workers pull cells in plan order: no promise per queued cell, so a 300k-cell plan
 * starts at once and stops at once on Ctrl-C, and no queue bookkeeping per cell on the hot path. The
 * first fatal provider error stops scheduling (cells already in flight finish) and is returned; any
 * other exception from a cell (a harness bug — executeCell turns cell failures into rows) is thrown.
 */
async function runPool(
  todo: readonly PlannedCell[],
  concurrency: number,
  signal: AbortSignal | undefined,
  run: (cell: PlannedCell) => Promise<void>,
): Promise<ProviderError | undefined> {
  let next = 0;
  let failed = false;
  let stoppedBy: ProviderError | undefined;
  const turnOwed = createTurnYield(YIELD_EVERY_MS);
  const worker = async () => {
    while (next < todo.length && !failed && !stoppedBy) {
      const turn = turnOwed();
      if (turn) await turn;
      if (signal?.aborted || stoppedBy) return;
      const cell = todo[next++];
      if (!cell) return;
      try {
        await run(cell);
      } catch (err) {
        if (signal?.aborted) return;
        if (isFatal(err)) {
          stoppedBy ??= err;
          return;
        }
        failed = true;
        throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, todo.length) }, worker));
  return stoppedBy;
}

/**
 * Between cells the runner makes sure the event loop turns at least every few ms: a CPU-bound provider
 * (the sim) would otherwise run the whole plan as one microtask chain, starving signal handling (Ctrl-C),
 * timers and progress output. A heartbeat (one setImmediate at a time) notes each turn the loop takes on
 * its own — with a network provider it turns all the time, and no cell ever waits. Only when no turn has
 * happened for `everyMs` do the workers wait, all for the same turn (one waiting alone would leave the
 * others' chains running). Returns the turn to await, or undefined when none is owed.
 */
function createTurnYield(everyMs: number): () => Promise<void> | undefined {
  let last = Date.now();
  let beating = false;
  let owed: Promise<void> | undefined;
  const beat = () => {
    beating = false;
    last = Date.now();
  };
  return () => {
    if (owed) return owed;
    if (Date.now() - last < everyMs) {
      if (!beating) {
        beating = true;
        setImmediate(beat);
      }
      return undefined;
    }
    owed = new Promise((resolve) =>
      setImmediate(() => {
        owed = undefined;
        last = Date.now();
        resolve();
      }),
    );
    return owed;
  };
}

/** Cells a resume does not run again: those with a row, or with `retryErrors` those whose latest row is ok. */
export function doneCells(journal: readonly ResultRow[], retryErrors: boolean): Set<string> {
  const latest = latestRows(journal).rows;
  return new Set(latest.filter((r) => !retryErrors || r.status === 'ok').map((r) => r.cell_id));
}
