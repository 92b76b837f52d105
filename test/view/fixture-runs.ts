import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ResultRow } from '../../harness/core/index.ts';

/**
 * Real runs for the viewer tests, made by the CLI itself (sim provider, two ledgerline cases, one rep):
 * the journals have the shape `run` writes today, whatever it becomes. Returns the run directory.
 */
export function cliRun(out: string, seed: number, extra: string[] = []): string {
  mkdirSync(out, { recursive: true });
  const before = new Set(readdirSync(out));
  execFileSync(
    process.execPath,
    [
      'bin/handoff-eval.js',
      'run',
      '--suite',
      'ledgerline',
      '--case',
      'ledgerline-01,ledgerline-02',
      '--reps',
      '1',
      '--seed',
      String(seed),
      '--out',
      out,
      '--quiet',
      '--no-cache',
      ...extra,
    ],
    { stdio: 'pipe', timeout: 120_000 },
  );
  const made = readdirSync(out).filter((d) => !before.has(d));
  if (made.length !== 1) throw new Error(`expected one new run in ${out}, found ${made.join(', ')}`);
  return join(out, made[0]!);
}

/** A run folder written from rows (no CLI): hostile or synthetic content. */
export function rowsRun(out: string, name: string, rows: ResultRow[]): string {
  const dir = join(out, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'results.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  return dir;
}
