import { describe, expect, it, onTestFinished } from 'vitest';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { resolveConfig } from '../../harness/config/resolve-config.ts';
import { runExperiment } from '../../harness/runner/run.ts';
import { repoRoot } from '../support/cli.ts';
import { tempDir } from '../support/mock-run.ts';

/**
 * milk and esc-owned-parity run live (issue 29 item 2): every case has a writable world, the sim
 * primary acts in its own copy (reads, edits, runs the world's tests) and no row is an error. With
 * --keep-worlds each row names its copy, which holds that cell's edits.
 */
const run = async (suite: string, flags: Record<string, unknown> = {}) => {
  const config = resolveConfig(
    { suites: [suite], casesDir: join(repoRoot, 'cases'), reps: 1, cache: false, outDir: tempDir('wl') },
    { mode: 'live', quiet: true, ...flags },
  );
  return (await runExperiment({ config })).rows;
};

describe('writable worlds, live on the sim', () => {
  it('run --mode live --suite milk: rows for every generated case, none an error; the primary edits and tests in its copy', async () => {
    const rows = await run('milk', { keepWorlds: true });
    onTestFinished(() =>
      rows.forEach((r) => r.world_dir && rmSync(r.world_dir, { recursive: true, force: true })),
    );
    expect(rows.length).toBe(12 * 4);
    expect(rows.filter((r) => r.status !== 'ok').map((r) => r.error)).toEqual([]);
    expect(rows.every((r) => r.source_mode === 'live' && r.source_tool_calls! > 0)).toBe(true);
    const calls = rows.flatMap(
      (r) => ((r.detail?.artifacts as any)?.live?.[0]?.calls ?? []) as { name: string; isError: boolean }[],
    );
    expect(calls.some((c) => c.name === 'edit_file' && !c.isError)).toBe(true);
    expect(calls.some((c) => c.name === 'run_tests')).toBe(true);
    // --keep-worlds: each row names its own copy; a copy whose primary changed the source holds the fix.
    const dirs = rows.map((r) => r.world_dir!);
    expect(new Set(dirs).size).toBe(rows.length);
    const fixed = rows.filter((r) =>
      ((r.detail?.artifacts as any)?.live?.[0]?.calls ?? []).some(
        (c: { name: string; input: string }) => c.name === 'edit_file' && c.input.includes('old_string'),
      ),
    );
    expect(fixed.length).toBeGreaterThan(0);
    for (const r of fixed) expect(existsSync(join(r.world_dir!, 'repo'))).toBe(true);
    const one = fixed[0]!;
    const src = JSON.parse(readFileSync(join(one.world_dir!, 'runner', 'spec.json'), 'utf8')) as {
      src: string;
      fixed: string;
    };
    expect(readFileSync(join(one.world_dir!, 'repo', src.src), 'utf8')).toContain(src.fixed);
  }, 240_000);

  it('run --mode live --suite esc-owned-parity: no error rows; the copies are removed after their cells', async () => {
    const rows = await run('esc-owned-parity');
    expect(rows.length).toBe(8 * 3);
    expect(rows.filter((r) => r.status !== 'ok').map((r) => r.error)).toEqual([]);
    expect(rows.every((r) => r.source_tool_calls! > 0 && r.world_dir === undefined)).toBe(true);
  }, 240_000);
});
