import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { InputError } from '../core/errors.ts';
import { readJsonl } from '../core/journal.ts';
import type { ResultRow } from '../core/index.ts';
import { canonicalRows } from '../../reports/summarize.ts';

/** A run as compare and view read it: its journal's latest row per cell, and what its folder says about it. */
export interface LoadedRun {
  id: string;
  dir: string;
  rows: ResultRow[];
  /** config.json as written by `run` (null when absent or unreadable: a merged or imported run). */
  config: Record<string, unknown> | null;
  /** A process still holds the run's lock: cells are still being journalled. */
  inProgress: boolean;
}

/**
 * Reads a run directory from its journal alone (results.jsonl), like `report` does. A half-written last
 * line (a run still writing) is skipped by readJsonl; any other bad line is an error naming the file.
 */
export function loadRun(dir: string): LoadedRun {
  const journal = join(dir, 'results.jsonl');
  if (!existsSync(journal))
    throw new InputError('no_journal', `${journal}: not found (is ${dir} a run directory?)`);
  let raw: ResultRow[];
  try {
    raw = readJsonl<ResultRow>(journal);
  } catch (err) {
    throw new InputError('bad_journal', (err as Error).message);
  }
  for (const [i, r] of raw.entries())
    if (!r || typeof r !== 'object' || typeof r.cell_id !== 'string' || typeof r.suite !== 'string')
      throw new InputError('invalid', `${journal}: row ${i + 1}: cell_id: missing (not a result row)`);
  const { rows } = canonicalRows(raw);
  return {
    id: rows[0]?.run_id ?? basename(resolve(dir)),
    dir: resolve(dir),
    rows,
    config: readConfig(dir),
    inProgress: runInProgress(dir),
  };
}

function readConfig(dir: string): Record<string, unknown> | null {
  try {
    const v = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as unknown;
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * Whether a live process holds the run's lock (harness/runner/run-lock.ts: the newest numbered claim,
 * not released, naming a live pid). Read-only: the viewer never takes or clears a lock.
 */
export function runInProgress(dir: string): boolean {
  const lockDir = join(dir, 'run.lock');
  let names: string[];
  try {
    if (!statSync(lockDir).isDirectory()) return false;
    names = readdirSync(lockDir);
  } catch {
    return false;
  }
  const claims = names.filter((f) => /^\d+$/.test(f)).map(Number);
  if (claims.length === 0) return false;
  const newest = Math.max(...claims);
  if (names.includes(`${newest}.released`)) return false;
  try {
    const pid = Number(readFileSync(join(lockDir, String(newest)), 'utf8').trim());
    if (!pid) return false;
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
