import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startBatchMock, type BatchMock } from '../support/mock-batch-server.ts';
import { runCliAsync, startCli } from '../support/cli.ts';
import { exactlyOnce, fixtureCases, miniCells, rowsOf, tempDir, testModels } from '../support/mock-run.ts';

/**
 * The batch CLI end to end, as a user or CI runs it: kill -9 while polling then `--resume` (polls the
 * journalled batches, submits nothing twice), `--batch --detach` then `--resume` until done, `--batch`
 * with the sim (exit 2), and `--dry-run --batch` (half the list price).
 */
let mock: BatchMock;
beforeAll(async () => {
  mock = await startBatchMock({ processMs: 100 });
});
afterAll(() => mock.close());

const env = () => ({
  ANTHROPIC_API_KEY: 'sk-test-not-a-real-key-000',
  ANTHROPIC_BASE_URL: mock.anthropicBaseURL,
  OPENAI_API_KEY: 'sk-test-not-a-real-key-000',
  OPENAI_BASE_URL: mock.openaiBaseURL,
});

function project(provider: 'anthropic' | 'openai', reps: number): string {
  const dir = tempDir('batch-cli');
  const config = {
    casesDir: fixtureCases,
    reps,
    seed: 9,
    provider,
    models: testModels,
    providers: { [provider]: { batch: { pollMs: 25, quietMs: 60 } } },
    cache: { dir: join(dir, 'cache') },
  };
  writeFileSync(join(dir, 'eval.config.ts'), `export default ${JSON.stringify(config)};\n`);
  return dir;
}

const runDirOf = (dir: string) => join(dir, 'runs', readdirSync(join(dir, 'runs'))[0]!);
const journal = (runDir: string) =>
  existsSync(join(runDir, 'batches.jsonl'))
    ? readFileSync(join(runDir, 'batches.jsonl'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l))
    : [];

function duplicates(ids: string[]): string[] {
  const seen = new Set<string>();
  return ids.filter((id) => seen.has(id) || !seen.add(id));
}

describe.each(['anthropic', 'openai'] as const)('%s: batch runs from the CLI', (provider) => {
  it(
    'resumes after kill -9 while polling by polling the journalled batches, resubmitting nothing',
    { timeout: 120_000 },
    async () => {
      const dir = project(provider, 3);
      mock.options.processMs = 60_000; // the first batch stays in progress until the test lets it end
      const s0 = mock.stats.submitted.length;
      const child = startCli(['run', '--batch', '--out', join(dir, 'runs'), '--quiet'], {
        cwd: dir,
        env: env(),
      });
      const exited = new Promise<NodeJS.Signals | null>((resolve) =>
        child.on('exit', (_c, signal) => resolve(signal)),
      );
      const polls = mock.stats.polls;
      await new Promise<void>((resolve, reject) => {
        const tick = () => {
          const runs = existsSync(join(dir, 'runs')) ? readdirSync(join(dir, 'runs')) : [];
          const created = runs.length ? journal(runDirOf(dir)).some((r) => r.kind === 'created') : false;
          // Killed once the batch exists and the run has polled it at least twice.
          if (created && mock.stats.polls >= polls + 2) return resolve();
          if (child.exitCode !== null) return reject(new Error('the run ended before it could be killed'));
          setTimeout(tick, 10);
        };
        tick();
      });
      child.kill('SIGKILL');
      expect(await exited).toBe('SIGKILL');
      const runDir = runDirOf(dir);
      const before = journal(runDir);
      const createdBefore = before.filter((r) => r.kind === 'created').map((r) => r.batchId);
      expect(createdBefore.length).toBeGreaterThan(0);
      expect(rowsOf(runDir)).toHaveLength(0);
      const submittedBefore = mock.stats.submitted.slice(s0);
      mock.options.processMs = 100;
      const resumed = await runCliAsync(['run', '--resume', runDir, '--quiet'], { cwd: dir, env: env() });
      expect(resumed.code, resumed.stderr).toBe(0);
      const rows = rowsOf(runDir);
      expect(
        exactlyOnce(
          rows.map((r) => r.cell_id),
          miniCells(3),
        ),
      ).toEqual({ missing: [], duplicated: [] });
      expect(rows.every((r) => r.status === 'ok')).toBe(true);
      const submitted = mock.stats.submitted.slice(s0);
      // Zero resubmissions: every custom_id went to the vendor once, across both processes.
      expect(duplicates(submitted)).toEqual([]);
      expect(submitted.length).toBeGreaterThan(submittedBefore.length);
      // The batches created before the kill are still the only ones holding their requests.
      const after = journal(runDir);
      const firstIds = new Set(before.filter((r) => r.kind === 'submitting').flatMap((r) => r.customIds));
      const laterIds = after
        .slice(before.length)
        .filter((r) => r.kind === 'submitting')
        .flatMap((r) => r.customIds);
      expect(laterIds.filter((id: string) => firstIds.has(id))).toEqual([]);
    },
  );
});

describe('anthropic: run --batch --detach', () => {
  // One CLI process per dependency phase (a few seconds each on a loaded machine): one protocol only.
  const provider = 'anthropic';
  it(
    'submits and exits; --resume collects and submits the next phase until the run is done',
    { timeout: 240_000 },
    async () => {
      const dir = project(provider, 2);
      const s0 = mock.stats.submitted.length;
      const first = await runCliAsync(['run', '--batch', '--detach', '--out', join(dir, 'runs'), '--quiet'], {
        cwd: dir,
        env: env(),
      });
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout).toMatch(/detached: \d+ requests submitted/);
      expect(first.stdout).toContain('--resume');
      const runDir = runDirOf(dir);
      expect(rowsOf(runDir)).toHaveLength(0);
      let rounds = 0;
      for (; rounds < 12; rounds++) {
        await new Promise((r) => setTimeout(r, 150)); // the vendor works while nothing runs here
        const next = await runCliAsync(['run', '--resume', runDir, '--detach', '--quiet'], {
          cwd: dir,
          env: env(),
        });
        expect(next.code, next.stderr).toBe(0);
        if (!/detached/.test(next.stdout)) break;
      }
      expect(rounds).toBeLessThan(12);
      const rows = rowsOf(runDir);
      expect(
        exactlyOnce(
          rows.map((r) => r.cell_id),
          miniCells(2),
        ),
      ).toEqual({ missing: [], duplicated: [] });
      expect(rows.every((r) => r.status === 'ok')).toBe(true);
      expect(duplicates(mock.stats.submitted.slice(s0))).toEqual([]);
    },
  );
});

describe('batch flags', () => {
  it('--batch with the sim is bad input: exit 2, one clear line, nothing written', async () => {
    const dir = tempDir('batch-sim');
    const r = await runCliAsync(['run', '--batch', '--provider', 'sim', '--out', join(dir, 'runs')], {
      cwd: dir,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--batch: provider sim cannot batch/);
    expect(existsSync(join(dir, 'runs'))).toBe(false);
  });

  it('--dry-run --batch prices the calls at half the list price', async () => {
    const dir = project('anthropic', 1);
    const total = (out: string) => Number(/\| \*\*total\*\* .*\| \$([\d.]+) \/ \$([\d.]+) \|/.exec(out)?.[1]);
    const list = await runCliAsync(['run', '--dry-run'], { cwd: dir });
    const batch = await runCliAsync(['run', '--dry-run', '--batch'], { cwd: dir });
    expect(list.code, list.stderr).toBe(0);
    expect(batch.code, batch.stderr).toBe(0);
    expect(total(list.stdout)).toBeGreaterThan(0);
    expect(total(batch.stdout)).toBeCloseTo(total(list.stdout) / 2, 2);
    expect(batch.stdout).toContain('batch price');
  });
});
