import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendFileSync, existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startMockLlmServer, type MockServer } from '../support/mock-llm-server.ts';
import { runCliAsync, startCli } from '../support/cli.ts';
import {
  exactlyOnce,
  fixtureCases,
  miniCells,
  mockEnv,
  rowsOf,
  tempDir,
  testModels,
} from '../support/mock-run.ts';

/**
 * `run --resume` after the real CLI was killed with SIGKILL mid-run: only the missing cells run, the
 * torn last line a kill can leave is tolerated, and every cell ends up in the journal exactly once.
 */
let mock: MockServer;
beforeAll(async () => {
  mock = await startMockLlmServer({ latencyMs: 25 });
});
afterAll(() => mock.close());

function project(reps: number): string {
  const dir = tempDir('resume');
  const config = {
    casesDir: fixtureCases,
    reps,
    seed: 3,
    provider: 'openai',
    models: testModels,
    concurrency: 4,
    providers: { openai: { concurrency: 4 } },
    cache: { dir: join(dir, 'cache') },
  };
  writeFileSync(join(dir, 'eval.config.ts'), `export default ${JSON.stringify(config)};\n`);
  return dir;
}

async function killMidRun(dir: string, minRows: number): Promise<string> {
  const child = startCli(['run', '--out', join(dir, 'runs'), '--quiet'], { cwd: dir, env: mockEnv(mock) });
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.on('exit', (_code, signal) => resolve(signal)),
  );
  const journal = () => {
    const runs = existsSync(join(dir, 'runs')) ? readdirSync(join(dir, 'runs')) : [];
    return runs.length ? join(dir, 'runs', runs[0]!, 'results.jsonl') : undefined;
  };
  await new Promise<void>((resolve, reject) => {
    const tick = () => {
      const j = journal();
      const n = j && existsSync(j) ? readFileSync(j, 'utf8').split('\n').filter(Boolean).length : 0;
      if (n >= minRows) return resolve();
      if (child.exitCode !== null)
        return reject(new Error('the run finished before it could be killed; make it longer'));
      setTimeout(tick, 5);
    };
    tick();
  });
  child.kill('SIGKILL');
  expect(await exited).toBe('SIGKILL');
  return join(dir, 'runs', readdirSync(join(dir, 'runs'))[0]!);
}

describe('run --resume after kill -9', () => {
  it('re-runs only the missing cells and ends with every cell exactly once', async () => {
    const reps = 30;
    const dir = project(reps);
    const runDir = await killMidRun(dir, 8);
    const before = rowsOf(runDir);
    expect(before.length).toBeGreaterThanOrEqual(8);
    expect(before.length).toBeLessThan(3 * reps);
    expect(existsSync(join(runDir, 'report.md'))).toBe(false);
    // A kill in the middle of a write can leave half a line behind.
    appendFileSync(join(runDir, 'results.jsonl'), '{"run_id":"torn","cell_id":"mini/deprecation-1/inline/');
    // The plan comes from the run's own config.json, not from flags given now.
    const resumed = await runCliAsync(['run', '--resume', runDir, '--reps', '2', '--quiet'], {
      cwd: dir,
      env: mockEnv(mock),
    });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain('differs in reps');
    const after = rowsOf(runDir);
    expect(
      exactlyOnce(
        after.map((r) => r.cell_id),
        miniCells(reps),
      ),
    ).toEqual({ missing: [], duplicated: [] });
    expect(after.every((r) => r.status === 'ok')).toBe(true);
    // What was journalled before the kill was kept as it was, not re-run.
    expect(after.slice(0, before.length)).toEqual(before);
    expect(new Set(after.map((r) => r.run_id))).toEqual(new Set([before[0]!.run_id]));
    expect(existsSync(join(runDir, 'report.md'))).toBe(true);
    // The resume took over the killed run's stale claim and released its own (the newest claim).
    const claims = readdirSync(join(runDir, 'run.lock'));
    const newest = Math.max(...claims.filter((f) => /^\d+$/.test(f)).map(Number));
    expect(newest).toBeGreaterThanOrEqual(2);
    expect(claims).toContain(`${newest}.released`);
    // A second resume finds nothing to do and calls nothing.
    mock.resetStats();
    const again = await runCliAsync(['run', '--resume', runDir, '--quiet'], { cwd: dir, env: mockEnv(mock) });
    expect(again.code, again.stderr).toBe(0);
    expect(mock.stats.requests).toBe(0);
    expect(rowsOf(runDir)).toHaveLength(3 * reps);
  });

  it('refuses a directory another live process is running', async () => {
    const dir = project(1);
    const first = await runCliAsync(['run', '--out', join(dir, 'runs'), '--quiet'], {
      cwd: dir,
      env: mockEnv(mock),
    });
    expect(first.code, first.stderr).toBe(0);
    const runDir = join(dir, 'runs', readdirSync(join(dir, 'runs'))[0]!);
    // A live process (this one) holds the newest claim.
    writeFileSync(join(runDir, 'run.lock', '99'), String(process.pid));
    const r = await runCliAsync(['run', '--resume', runDir, '--quiet'], { cwd: dir, env: mockEnv(mock) });
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(
      `handoff-eval: ${runDir}: in use by process ${process.pid} (run.lock); wait for it or stop it first`,
    );
  });

  it('names a directory that is not a run', async () => {
    const r = await runCliAsync(['run', '--resume', tempDir('empty'), '--quiet'], { env: mockEnv(mock) });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/config\.json: not found; --resume takes a run directory/);
  });
});
