import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveConfig } from '../../harness/config/resolve-config.ts';
import { dryRun } from '../../harness/runner/dry-run.ts';
import { runExperiment } from '../../harness/runner/run.ts';
import { startMockLlmServer, type MockServer } from '../support/mock-llm-server.ts';
import { runCliAsync } from '../support/cli.ts';
import { callsOf, fixtureCases, mockEnv, rowsOf, tempDir, testModels } from '../support/mock-run.ts';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockLlmServer();
});
afterAll(() => mock.close());

function project(extra: Record<string, unknown> = {}): string {
  const dir = tempDir('dry');
  writeFileSync(
    join(dir, 'eval.config.ts'),
    `export default ${JSON.stringify({ casesDir: fixtureCases, reps: 3, provider: 'openai', models: testModels, cache: false, ...extra })};\n`,
  );
  return dir;
}

describe('run --dry-run', () => {
  it('prints cells, calls per role, tokens and cost per arm, and calls nothing', async () => {
    const dir = project();
    mock.resetStats();
    const r = await runCliAsync(['run', '--dry-run', '--out', join(dir, 'runs')], {
      cwd: dir,
      env: mockEnv(mock),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(mock.stats.requests).toBe(0);
    expect(existsSync(join(dir, 'runs'))).toBe(false);
    expect(r.stdout).toContain(
      '9 cells; nothing was called. Providers: source=openai, receiver=openai, judge=openai.',
    );
    const line = r.stdout.split('\n').find((l) => l.startsWith('| mini | full-transcript |'))!;
    const cols = line.split('|').map((c) => c.trim());
    expect(cols[4]).toBe('3'); // cells
    expect(cols[6]).toBe('3'); // receiver calls: one per cell
    expect(Number(cols[7])).toBeGreaterThanOrEqual(3); // judge calls: criterion judge (+ LLM survival classification with a real judge)
    expect(cols[10]).toMatch(/^\$\d/);
    expect(r.stdout).toContain('| **total** |');
  });

  it('with --resume, estimates only the cells the run is missing', async () => {
    const dir = project({ reps: 2, judge: { criteria: false, classify: 'off' } });
    const first = await runCliAsync(['run', '--out', join(dir, 'runs'), '--quiet'], {
      cwd: dir,
      env: mockEnv(mock),
    });
    expect(first.code, first.stderr).toBe(0);
    const runDir = join(dir, 'runs', readdirSync(join(dir, 'runs'))[0]!);
    const journal = join(runDir, 'results.jsonl');
    writeFileSync(journal, readFileSync(journal, 'utf8').split('\n').slice(0, 4).join('\n') + '\n');
    mock.resetStats();
    const r = await runCliAsync(['run', '--dry-run', '--resume', runDir], { cwd: dir, env: mockEnv(mock) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('2 cells; nothing was called.');
    expect(mock.stats.requests).toBe(0);
  });

  it('needs no key: only a real run does', async () => {
    const dir = project({ provider: 'anthropic' });
    const r = await runCliAsync(['run', '--dry-run'], { cwd: dir, env: { ANTHROPIC_API_KEY: '' } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/\| mini \| inline \| inline \| 3 \|/);
  });

  it('estimates exactly the receiver input the real run sends', async () => {
    const config = resolveConfig(
      {
        casesDir: fixtureCases,
        reps: 2,
        provider: 'sim',
        judge: { criteria: false },
        cache: false,
        outDir: tempDir('dry-out'),
      },
      { quiet: true },
    );
    const est = await dryRun(config);
    const run = await runExperiment({ config });
    for (const arm of est.arms) {
      const rows = rowsOf(run.dir).filter((row) => row.arm === arm.arm);
      // No criterion judge, but the survival classifier reads payload and answer of every cell (issue 26):
      // the estimate counts exactly the classify calls the run made.
      const classify = callsOf(run.dir).filter(
        (c) => c.role === 'judge' && rows.some((r) => r.cell_id === c.cellId),
      );
      expect(classify.length).toBeGreaterThanOrEqual(2 * rows.length);
      expect(arm.calls).toEqual({ source: 0, receiver: rows.length, judge: classify.length });
      // Receiver input exactly; the classify requests as the run's calls recorded them.
      const judgeIn = classify.reduce((n, c) => n + c.inputTokens, 0);
      expect(arm.inputTokens).toBe(
        rows.reduce((n, row) => n + row.receiver_window_tokens_after, 0) + judgeIn,
      );
    }
  });
});

describe('a missing key', () => {
  it('fails before the first call with one line naming the variable, and writes no run directory', async () => {
    const dir = project({ provider: 'anthropic' });
    mock.resetStats();
    const r = await runCliAsync(['run', '--out', join(dir, 'runs')], {
      cwd: dir,
      env: { ANTHROPIC_API_KEY: '', ANTHROPIC_BASE_URL: mock.anthropicBaseURL },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'handoff-eval: provider "anthropic" needs ANTHROPIC_API_KEY in the environment (keys are read from the environment only)\n',
    );
    expect(mock.stats.requests).toBe(0);
    expect(existsSync(join(dir, 'runs'))).toBe(false);
  });

  it("--provider switches every role (and so needs that provider's key)", async () => {
    const dir = project({ provider: 'sim' });
    const r = await runCliAsync(['run', '--provider', 'openai', '--out', join(dir, 'runs')], {
      cwd: dir,
      env: { OPENAI_API_KEY: '', OPENAI_BASE_URL: '' },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('needs OPENAI_API_KEY');
  });
});

describe('judge.criteria: false', () => {
  it('makes the runner call no judge at all', async () => {
    const dir = project({ judge: { criteria: false, classify: 'off' }, reps: 2 });
    mock.resetStats();
    const r = await runCliAsync(['run', '--out', join(dir, 'runs'), '--quiet'], {
      cwd: dir,
      env: mockEnv(mock),
    });
    expect(r.code, r.stderr).toBe(0);
    const runDir = join(dir, 'runs', readdirSync(join(dir, 'runs'))[0]!);
    expect(callsOf(runDir).map((c) => c.role)).toEqual(Array(6).fill('receiver'));
    expect(mock.stats.requests).toBe(6);
    expect(
      rowsOf(runDir).every(
        (row) => row.status === 'ok' && Object.keys(row.scores).length === 0 && row.model_calls === 1,
      ),
    ).toBe(true);
  });
});
