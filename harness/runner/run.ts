import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pLimit from 'p-limit';
import type { CallRecord, ResultRow } from '../types.ts';
import type { ResolvedConfig } from '../config/types.ts';
import { loadSuites } from '../../cases/load.ts';
import { createProviders } from '../providers/index.ts';
import { createCallPath } from './calls.ts';
import { executeCell } from './execute-cell.ts';
import { Journal, readJsonl } from './journal.ts';
import { planCells, type PlannedCell } from './plan.ts';
import type { Progress, Reporter } from './reporters.ts';
import { openCache } from '../cache/index.ts';
import { writeReports } from '../../reports/write.ts';
import { harnessVersion } from '../version.ts';
import { redact } from '../redact.ts';

export interface RunOptions {
  config: ResolvedConfig;
  reporters?: Reporter[];
  /** An existing run directory: only cells missing from its journal run. */
  resumeDir?: string;
  signal?: AbortSignal;
}

export interface RunOutcome {
  runId: string;
  dir: string;
  rows: ResultRow[];
  interrupted: boolean;
  progress: Progress;
}

/** Plan → execute each cell (bounded concurrency, journalled as it finishes) → reports. */
export async function runExperiment(opts: RunOptions): Promise<RunOutcome> {
  const { config } = opts;
  const suites = await loadSuites(config.casesDir, config.suites);
  const cells = planCells(suites, config);
  const { runId, dir } = runDirectory(config, opts.resumeDir);
  const journalPath = join(dir, 'results.jsonl');
  const done = new Set(readJsonl<ResultRow>(journalPath).map((r) => r.cell_id));
  const todo = cells.filter((c) => !done.has(c.id));
  if (!opts.resumeDir) writeFileSync(join(dir, 'config.json'), `${JSON.stringify(configRecord(config, runId), null, 2)}\n`);
  const results = new Journal<ResultRow>(journalPath);
  const calls = new Journal<CallRecord>(join(dir, 'calls.jsonl'), 256);
  const cache = config.cache.enabled ? openCache(config.cache.dir) : null;
  const providers = await createProviders(config);
  const callPath = createCallPath({ config, providers, cache, runId, onCall: (r) => calls.append(r) });
  const progress: Progress = { done: done.size, total: cells.length, errors: 0, tokens: 0, costUsd: 0, cacheHits: 0, elapsedMs: 0 };
  const started = Date.now();
  for (const r of opts.reporters ?? []) r.onRunStart?.({ runId, dir, cells: cells.length, done: done.size, simulated: Object.values(config.provider).includes('sim') });
  const limit = pLimit(config.concurrency);
  const onRow = (row: ResultRow) => {
    results.append(row);
    progress.done++;
    progress.errors += row.status === 'error' ? 1 : 0;
    progress.tokens += row.input_tokens + row.output_tokens;
    progress.costUsd += row.cost_usd + row.judge_cost_usd;
    progress.cacheHits += row.cached_calls;
    progress.elapsedMs = Date.now() - started;
    for (const r of opts.reporters ?? []) r.onCellEnd?.(row, progress);
  };
  const env = { config, calls: callPath, runId, harnessVersion, signal: opts.signal };
  const runOne = async (cell: PlannedCell) => {
    if (opts.signal?.aborted) return;
    try {
      onRow(await executeCell(cell, env));
    } catch (err) {
      if (!opts.signal?.aborted) throw err;
    }
  };
  try {
    await Promise.all(todo.map((cell) => limit(() => runOne(cell))));
  } finally {
    results.close();
    calls.close();
    cache?.close();
    await Promise.all(Object.values(providers).map((p) => p.close?.()));
  }
  const interrupted = Boolean(opts.signal?.aborted);
  for (const r of opts.reporters ?? []) r.onRunEnd?.(progress, interrupted);
  const rows = readJsonl<ResultRow>(journalPath);
  if (!interrupted) writeReports(dir, rows, { formats: ['md', 'csv'] });
  return { runId, dir, rows, interrupted, progress };
}

function runDirectory(config: ResolvedConfig, resumeDir: string | undefined): { runId: string; dir: string } {
  if (resumeDir) {
    const stored = JSON.parse(readFileSync(join(resumeDir, 'config.json'), 'utf8')) as { runId: string };
    return { runId: stored.runId, dir: resumeDir };
  }
  const runId = `${new Date().toISOString().replace(/[:.]/g, '-').replace('Z', '')}-${randomBytes(2).toString('hex')}`;
  const dir = join(config.outDir, runId);
  if (existsSync(dir)) throw new Error(`run directory ${dir} already exists`);
  mkdirSync(dir, { recursive: true });
  return { runId, dir };
}

/** config.json: the resolved config (secrets redacted), enough to rebuild the run. */
function configRecord(config: ResolvedConfig, runId: string): Record<string, unknown> {
  const { strategies, ...rest } = config;
  return redact({ runId, harnessVersion, createdAt: new Date().toISOString(), ...rest, strategies: Object.keys(strategies) }) as Record<string, unknown>;
}
