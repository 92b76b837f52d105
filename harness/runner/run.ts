import { join } from 'node:path';
import { setMaxListeners } from 'node:events';
import type { ResultRow, Suite } from '../core/index.ts';
import type { ResolvedConfig } from '../config/types.ts';
import { createProviders } from '../providers/index.ts';
import { latestRows } from '../../reports/latest-rows.ts';
import { loadExperiment } from './experiment.ts';
import { planCells } from './plan.ts';
import { liveSkipped } from '../live/plan-live.ts';
import type { Progress, Reporter } from './reporters.ts';
import { openCache } from '../cache/index.ts';
import type { ResponseCache } from '../cache/types.ts';
import { report, resolveReporters } from './reporters-map.ts';
import { InputError, type ProviderError } from '../core/errors.ts';
import { checkBatchSettings, wrapForBatch, type BatchRun } from '../batch/run-batch.ts';
import type { BatchEvent } from '../batch/scheduler.ts';
import { acquireRunLock, createRunDirectory, openResume, writeConfigRecord, type RunDir } from './run-dir.ts';
import { executeCells, type Executed } from './cell-pool.ts';

type Providers = Awaited<ReturnType<typeof createProviders>>;

export { doneCells } from './cell-pool.ts';

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
  const { providers, cache, run, release } = await openRun(config, resume);
  const { runId, dir } = run;
  let progress: Executed;
  // A batch run detaches by stopping itself: the run's own signal, linked to the caller's.
  const stop = linkedController(opts.signal);
  let batch: BatchRun | undefined;
  let active = providers;
  try {
    if (!resume) writeConfigRecord(dir, config, runId);
    if (config.batch) {
      batch = await startBatch(config, providers, { dir, stop, reporters, opts, resumed: Boolean(resume) });
      active = batch.providers;
    }
    progress = await executeCells({
      config,
      cells,
      providers: active,
      batched: batch?.batched ?? new Set(),
      runId,
      dir,
      journalPath: join(dir, 'results.jsonl'),
      cache,
      reporters,
      signal: stop.signal,
      retryErrors: Boolean(resume && opts.retryErrors),
    });
  } finally {
    await closeRun(active, providers, cache, release);
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

/** Wraps the providers for a batch run; its events go to the reporters. */
function startBatch(
  config: ResolvedConfig,
  providers: Providers,
  x: { dir: string; stop: AbortController; reporters: Reporter[]; opts: RunOptions; resumed: boolean },
): Promise<BatchRun> {
  const onEvent = (e: BatchEvent) => x.reporters.forEach((r) => r.onBatch?.(e));
  const retryErrors = Boolean(x.resumed && x.opts.retryErrors);
  return wrapForBatch(config, providers, {
    dir: x.dir,
    retryErrors,
    detach: Boolean(x.opts.detach),
    stop: x.stop,
    onEvent,
  });
}

/** Closes what the run opened: batching providers first (they wait for batch creations under way,
 * which must reach the journal), then the cache, the run lock and the providers. */
async function closeRun(
  active: Providers,
  providers: Providers,
  cache: { close(): void } | undefined | null,
  release: () => void,
): Promise<void> {
  const wrappers = Object.values(active).filter((p) => !Object.values(providers).includes(p));
  await Promise.all(wrappers.map((p) => p.close?.()));
  cache?.close();
  release();
  await closeProviders(providers);
}

/** A controller of the run's own, aborted with the caller's signal (and by the run itself: --detach). */
function linkedController(signal: AbortSignal | undefined): AbortController {
  const stop = new AbortController();
  setMaxListeners(0, stop.signal);
  if (signal?.aborted) stop.abort();
  else signal?.addEventListener('abort', () => stop.abort(), { once: true });
  return stop;
}

interface OpenRun {
  providers: Providers;
  cache: ResponseCache | null;
  run: RunDir;
  release: () => void;
}

/**
 * Providers first: a missing key fails there, before the run directory or any call exists. The cache
 * before the run directory too: one that cannot be opened leaves no empty run behind.
 */
async function openRun(config: ResolvedConfig, resume: RunDir | undefined): Promise<OpenRun> {
  const providers = await createProviders(config);
  let cache: ResponseCache | null = null;
  try {
    cache = config.cache.enabled ? openCache(config.cache.dir) : null;
    const run = resume ?? createRunDirectory(config);
    return { providers, cache, run, release: acquireRunLock(run.dir) };
  } catch (err) {
    cache?.close();
    await closeProviders(providers);
    throw err;
  }
}

async function closeProviders(providers: Providers): Promise<void> {
  await Promise.all(Object.values(providers).map((p) => p.close?.()));
}

/** Zero cells planned: the run would write an empty report and pass; say which setting emptied it. */
export function nothingToRun(suites: Suite[], config: ResolvedConfig): InputError {
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
