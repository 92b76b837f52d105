import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { ResultRow } from '../../harness/core/index.ts';
import { runCli } from '../support/cli.ts';

export const gateConfig = 'test/fixtures/gate/eval.config.ts';
export const regressedConfig = 'test/fixtures/gate/regressed.config.ts';
export const committedBaseline = 'test/fixtures/gate/baseline.json';

const made: string[] = [];

/** A fresh temp directory, removed by removeTempDirs (call it in afterAll). */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `he-gate-${prefix}-`));
  made.push(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Runs the gate fixture through the real CLI and returns the run directory. */
export function runFixture(args: string[] = [], config = gateConfig): string {
  const out = tempDir('run');
  const r = runCli(['run', '--config', config, '--out', out, '--quiet', ...args]);
  expect(r.code, r.stderr).toBe(0);
  const dirs = readdirSync(out);
  expect(dirs).toHaveLength(1);
  return join(out, dirs[0]!);
}

export function readRows(dir: string): ResultRow[] {
  return readFileSync(join(dir, 'results.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as ResultRow);
}

export function writeRows(dir: string, rows: readonly ResultRow[]): void {
  writeFileSync(join(dir, 'results.jsonl'), rows.map((r) => `${JSON.stringify(r)}\n`).join(''));
}
