import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { writeFileAtomic } from '../core/atomic-write.ts';
import { basename, dirname, resolve } from 'node:path';
import type { CallRecord, ResultRow } from '../core/index.ts';
import type { ResolvedConfig } from '../config/types.ts';
import { InputError } from '../core/errors.ts';
import { loadSuites } from '../../cases/load.ts';
import { planCells } from '../runner/plan.ts';
import { openResume } from '../runner/run-dir.ts';
import { latestPerCell } from '../../reports/latest-rows.ts';
import { canonicalRows } from '../../reports/summarize.ts';
import { writeReports } from '../../reports/write.ts';
import { readCalls, readRunFiles } from './run-files.ts';

/**
 * config.json fields that make two shard runs the same experiment: everything that decides which cells
 * exist and what each one asks or scores (the mode — live or recorded — included). What may differ
 * between shards: the run id and its time, the output and cases paths of each machine, the shard
 * itself (its count is compared apart), and operational settings (concurrency, cache, quiet,
 * reporters, provider transport settings, the gate's thresholds).
 */
export const experimentFields = [
  'harnessVersion',
  'mode',
  'modeForced',
  'sourceToolBudget',
  'liveInline',
  'suites',
  'arms',
  'cases',
  'reps',
  'seed',
  'provider',
  'models',
  'judge',
  'budgetTokens',
  'sim',
  'prices',
  'primaryCriterion',
  'strategies',
  'criteria',
  'checks',
] as const;

export interface MergeOptions {
  /** The merged run's directory (created; must not exist or be empty). Its name is the merged run id. */
  out: string;
  /** Supplies inline strategies and defaults for planning; the plan fields come from the shards' config.json. */
  config: ResolvedConfig;
  /** Merge even when planned cells are missing from every shard (`run --resume <out>` can fill them in). */
  allowMissing?: boolean;
}

export interface MergeOutcome {
  runId: string;
  dir: string;
  rows: ResultRow[];
  shards: { dir: string; runId: string; shard: string | null; rows: number }[];
  /** Rows dropped because another shard journalled the same cell. */
  duplicates: number;
  /** Planned cells no shard journalled; null when the plan could not be rebuilt (see planError). */
  missing: string[] | null;
  planError: string | null;
  /** Journalled cells the plan does not contain (cases changed since the shards ran). */
  unplanned: string[];
  written: string[];
}

interface Shard {
  dir: string;
  runId: string;
  shard: { index: number; count: number } | null;
  config: Record<string, unknown>;
  rows: ResultRow[];
}

/**
 * Joins shard runs (`run --shard i/n`) into one run directory: checks they are one experiment,
 * keeps one row per cell, rewrites the run id, and writes the journals and every report. The rows
 * of a sharded run are the rows of the unsharded run (cells draw from seed and cell id, not from the
 * shard), so the merged report equals the unsharded one but for the run id.
 */
export async function mergeRuns(dirs: readonly string[], opts: MergeOptions): Promise<MergeOutcome> {
  if (dirs.length === 0) throw new InputError('usage', 'merge: name at least one shard run directory');
  const shards = dirs
    .map(readShard)
    .sort(
      (a, b) => (a.shard?.index ?? 0) - (b.shard?.index ?? 0) || cmp(a.runId, b.runId) || cmp(a.dir, b.dir),
    );
  checkSameExperiment(shards);
  const dir = resolve(opts.out);
  if (existsSync(dir) && readdirSync(dir).length > 0)
    throw new InputError(
      'run_exists',
      `--out: ${opts.out} exists and is not empty; merge writes a new run directory`,
    );
  const runId = basename(dir);
  const { kept, owner, duplicates } = pickRows(shards);
  const rows = canonicalRows([...kept.values()].map((r) => ({ ...r, run_id: runId }))).rows;
  const { missing, unplanned, planError } = await comparePlan(shards[0]!, opts.config, rows);
  if (missing === null && !opts.allowMissing) {
    throw new InputError(
      'merge_unplanned',
      `merge: cannot rebuild the plan to check for missing cells (${planError}); --allow-missing merges without the check`,
    );
  }
  if (missing && missing.length > 0 && !opts.allowMissing) {
    throw new InputError(
      'merge_missing',
      `merge: ${missing.length} planned cell(s) are in no shard: ${list(missing)}; rerun the missing shard, or merge with --allow-missing and fill them in with run --resume ${opts.out}`,
    );
  }
  mkdirSync(dir, { recursive: true });
  const summary = shards.map((s) => ({
    dir: s.dir,
    runId: s.runId,
    shard: s.shard ? `${s.shard.index}/${s.shard.count}` : null,
    rows: s.rows.length,
  }));
  const record = {
    ...shards[0]!.config,
    runId,
    createdAt: new Date().toISOString(),
    outDir: dirname(dir),
    shard: null,
    merged: { from: summary, duplicates, missing, unplanned },
  };
  writeFileAtomic(resolve(dir, 'config.json'), `${JSON.stringify(record, null, 2)}\n`);
  writeFileAtomic(resolve(dir, 'results.jsonl'), rows.map((r) => `${JSON.stringify(r)}\n`).join(''));
  writeFileAtomic(
    resolve(dir, 'calls.jsonl'),
    mergeCalls(shards, rows, owner, runId)
      .map((c) => `${JSON.stringify(c)}\n`)
      .join(''),
  );
  const written = await writeReports(dir, rows);
  return { runId, dir, rows, shards: summary, duplicates, missing, planError, unplanned, written };
}

function readShard(dir: string): Shard {
  const files = readRunFiles(dir, { requireConfig: true });
  const config = files.config!;
  if (typeof config.runId !== 'string')
    throw new InputError('not_a_run', `${dir}/config.json: runId: missing`);
  const s = config.shard as { index?: unknown; count?: unknown } | null | undefined;
  const shard =
    s && typeof s.index === 'number' && typeof s.count === 'number'
      ? { index: s.index, count: s.count }
      : null;
  return { dir, runId: config.runId, shard, config, rows: files.rows };
}

/**
 * Refuses shards of different experiments, naming the directory, each differing field and both
 * values. An unsharded run is a shard count of its own: merged with a shard of n it would hold
 * every cell twice, half of them from another job.
 */
export function checkSameExperiment(shards: readonly Pick<Shard, 'dir' | 'config' | 'shard'>[]): void {
  const first = shards[0]!;
  const count = (s: Pick<Shard, 'shard'>) => (s.shard ? String(s.shard.count) : 'unsharded');
  for (const s of shards.slice(1)) {
    const fields = experimentFields.filter((f) => canonical(s.config[f]) !== canonical(first.config[f]));
    const detail = fields.map((f) => `${f} (${shown(first.config[f])} vs ${shown(s.config[f])})`);
    if (count(first) !== count(s)) detail.push(`shard count (${count(first)} vs ${count(s)})`);
    if (detail.length > 0)
      throw new InputError(
        'merge_mismatch',
        `merge: ${s.dir} is not the same experiment as ${first.dir}: ${detail.join(', ')}`,
      );
  }
}

/**
 * One row per cell by the rule every consumer shares (latestPerCell): the shards in (shard index, run
 * id) order, each journal in its own order, and the latest row wins — run ids start with their start
 * time, so a shard job run again after a failure outranks its first attempt, whatever either row says.
 */
function pickRows(shards: readonly Shard[]): {
  kept: Map<string, ResultRow>;
  owner: Map<string, Shard>;
  duplicates: number;
} {
  const all = shards.flatMap((shard) => shard.rows.map((row) => ({ row, shard })));
  const { latest, superseded } = latestPerCell(all, (x) => x.row.cell_id);
  const kept = new Map<string, ResultRow>();
  const owner = new Map<string, Shard>();
  for (const { row, shard } of latest) {
    kept.set(row.cell_id, row);
    owner.set(row.cell_id, shard);
  }
  return { kept, owner, duplicates: superseded };
}

/** The calls of each kept row, from the shard its row came from, in the rows' order. */
function mergeCalls(
  shards: readonly Shard[],
  rows: readonly ResultRow[],
  owner: Map<string, Shard>,
  runId: string,
): CallRecord[] {
  const byShard = new Map<Shard, Map<string, CallRecord[]>>();
  for (const s of shards) {
    const byCell = new Map<string, CallRecord[]>();
    for (const c of readCalls(s.dir)) {
      const list = byCell.get(c.cellId);
      if (list) list.push(c);
      else byCell.set(c.cellId, [c]);
    }
    byShard.set(s, byCell);
  }
  return rows.flatMap((r) =>
    (byShard.get(owner.get(r.cell_id)!)?.get(r.cell_id) ?? []).map((c) => ({ ...c, runId })),
  );
}

/** The full (unsharded) plan of the shards' experiment, against the rows found. */
async function comparePlan(
  first: Shard,
  current: ResolvedConfig,
  rows: readonly ResultRow[],
): Promise<{ missing: string[] | null; unplanned: string[]; planError: string | null }> {
  const have = new Set(rows.map((r) => r.cell_id));
  try {
    const config = { ...openResume(first.dir, current).config, shard: null };
    const planned = planCells(
      await loadSuites(config.casesDir, config.suites, config.configFile),
      config,
    ).map((c) => c.id);
    const plannedSet = new Set(planned);
    return {
      missing: planned.filter((id) => !have.has(id)),
      unplanned: [...have].filter((id) => !plannedSet.has(id)).sort(),
      planError: null,
    };
  } catch (err) {
    return { missing: null, unplanned: [], planError: (err as Error).message };
  }
}

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v) ?? 'undefined';
}

/** A value as the refusal shows it: scalars as they are, objects as canonical JSON cut to 80 characters. */
function shown(v: unknown): string {
  if (v === undefined) return 'absent';
  if (v === null || ['string', 'number', 'boolean'].includes(typeof v)) return String(v);
  const text = canonical(v);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const list = (ids: readonly string[]) =>
  ids.length > 8 ? `${ids.slice(0, 8).join(', ')} … (+${ids.length - 8})` : ids.join(', ');
