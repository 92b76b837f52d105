import { cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { sharedRun } from '../support/shared-run.ts';
import type { ResultRow } from '../../harness/core/index.ts';

/**
 * Real runs for the viewer tests, made by the CLI itself (sim provider, two ledgerline cases, one rep):
 * the journals have the shape `run` writes today, whatever it becomes. Each is made once per `vitest
 * run` (test/support/shared-run.ts; the server and browser tests ask for the same two) and copied into
 * `out`, where the viewer may write hand marks beside it. Returns the copy's directory.
 */
export async function cliRun(out: string, seed: number, extra: string[] = []): Promise<string> {
  const args = ['--suite', 'ledgerline', '--case', 'ledgerline-01,ledgerline-02', '--reps', '1'];
  const made = await sharedRun(`view-${seed}${extra.join('')}`, [
    ...args,
    '--seed',
    String(seed),
    '--no-cache',
    ...extra,
  ]);
  const copy = join(out, basename(made));
  if (existsSync(copy)) throw new Error(`${copy} exists: one run per seed and options in ${out}`);
  mkdirSync(out, { recursive: true });
  cpSync(made, copy, { recursive: true });
  return copy;
}

/** A run folder written from rows (no CLI): hostile or synthetic content. */
export function rowsRun(out: string, name: string, rows: ResultRow[]): string {
  const dir = join(out, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'results.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  return dir;
}
