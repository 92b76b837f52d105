import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, type AddressInfo } from 'node:net';
import { startMockLlmServer, type FaultRule, type MockServer } from '../support/mock-llm-server.ts';
import { repoRoot, runCli, runCliAsync } from '../support/cli.ts';
import { fixtureCases, mockEnv, rowsOf, tempDir, testModels } from '../support/mock-run.ts';

/**
 * What CI reads from `run`: exit 3 when error rows exceed the threshold (config `maxErrorRate`,
 * default gate.maxErrorRate), with the count and the top reasons; exit 4 when a provider error that
 * would fail every call (401, 403, unknown model) stops the run after the first one — with the
 * provider's message and the base URL — leaving a journal `--resume` continues.
 */
function project(config: Record<string, unknown>, preamble = ''): string {
  const dir = tempDir('exit');
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(repoRoot, join(dir, 'node_modules', 'handoff-eval'), 'dir');
  writeFileSync(
    join(dir, 'eval.config.ts'),
    `${preamble}\nexport default ${JSON.stringify({
      casesDir: fixtureCases,
      seed: 3,
      cache: false,
      ...config,
    })
      .replace('"__STRATEGIES__"', '{ flaky }')
      .replace(
        '"__FLAKY_ARM__"',
        "{ name: 'flaky', strategy: 'flaky', models: { source: 'large', receiver: 'large' } }",
      )};\n`,
  );
  return dir;
}
const onlyRun = (out: string) => join(out, readdirSync(out)[0]!);

describe('exit 3: error rows over the threshold', () => {
  const flaky = `import { defineStrategy, strategies } from 'handoff-eval';
const flaky = defineStrategy({ name: 'flaky', description: 'fails on rep 1', seed: 'test', params: {},
  async prepare(ctx) { if (ctx.rep === 1) throw new Error('flaky on rep 1'); return strategies.inline.prepare(ctx, { replay: 'full' }); } });`;
  const config = (extra: Record<string, unknown> = {}) =>
    project(
      {
        reps: 2,
        strategies: '__STRATEGIES__',
        suites: [{ id: 'mini', arms: ['inline', 'flaky'], extraArms: ['__FLAKY_ARM__'] }],
        ...extra,
      },
      flaky,
    );

  it('1 error in 4 cells is over the default (gate.maxErrorRate 0.02): exit 3, the count and the reasons', () => {
    const dir = config();
    const r = runCli(['run', '--out', join(dir, 'runs'), '--quiet'], { cwd: dir });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toContain(
      'run: 1 of 4 cells are error rows (25.0%), above the error threshold 2.0% (maxErrorRate); top reasons:',
    );
    expect(r.stderr).toContain('  1 × internal: Error: flaky on rep 1');
    // The run itself finished: journal and reports are complete.
    const run = onlyRun(join(dir, 'runs'));
    expect(rowsOf(run)).toHaveLength(4);
    expect(existsSync(join(run, 'report.md'))).toBe(true);
    expect(r.stdout).toContain(`run directory: ${run}`);
  });

  it('at or under the threshold exits 0: the config field, gate.maxErrorRate, or --max-error-rate', () => {
    const field = config({ maxErrorRate: 0.25 });
    expect(runCli(['run', '--out', join(field, 'runs'), '--quiet'], { cwd: field }).code).toBe(0);
    const gate = config({ gate: { maxErrorRate: 0.3 } });
    expect(runCli(['run', '--out', join(gate, 'runs'), '--quiet'], { cwd: gate }).code).toBe(0);
    const flag = config({ maxErrorRate: 0 });
    const r = runCli(['run', '--out', join(flag, 'runs'), '--quiet', '--max-error-rate', '0.5'], {
      cwd: flag,
    });
    expect(r.code, r.stderr).toBe(0);
  });

  it('a bad threshold is bad input', () => {
    const dir = config({ maxErrorRate: 2 });
    const r = runCli(['run', '--quiet'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(
      `handoff-eval: ${join(dir, 'eval.config.ts')}: maxErrorRate: must be a number from 0 to 1 (got 2)`,
    );
    const flag = runCli(['run', '--quiet', '--max-error-rate', 'none'], { cwd: dir });
    expect(flag.stderr.trim()).toBe(
      'handoff-eval: --max-error-rate: must be a number from 0 to 1 (got none)',
    );
  });
});

describe('against a provider', () => {
  let mock: MockServer;
  let rule: FaultRule | undefined;
  beforeAll(async () => {
    mock = await startMockLlmServer({ faults: (ctx) => rule?.(ctx) });
  });
  afterAll(() => mock.close());

  const providerProject = (provider: string, concurrency: number) =>
    project({
      reps: 4,
      provider,
      models: testModels,
      concurrency,
      providers: { [provider]: { maxRetries: 2, concurrency } },
    });

  it('a dead endpoint (every call 500 after its retries): exit 3 with the reason', async () => {
    rule = () => ({ type: 'status', status: 500, retryAfterMs: 1 });
    const dir = providerProject('openai', 4);
    const r = await runCliAsync(['run', '--out', join(dir, 'runs'), '--quiet'], {
      cwd: dir,
      env: mockEnv(mock),
    });
    rule = undefined;
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(
      /run: 12 of 12 cells are error rows \(100\.0%\), above the error threshold 2\.0%/,
    );
    expect(r.stderr).toMatch(
      / {2}12 × provider_error: openai gpt-4o-mini: HTTP 500 after 3 attempts: injected 500/,
    );
  });

  const fatal: [string, string, FaultRule, RegExp][] = [
    [
      'openai',
      '401',
      () => ({
        type: 'status',
        status: 401,
        errorType: 'invalid_request_error',
        code: 'invalid_api_key',
        message: 'Incorrect API key provided: sk-test-****0000.',
      }),
      /openai gpt-4o-mini: HTTP 401 after 1 attempt: Incorrect API key provided: sk-test-\*\*\*\*0000\.; status 401/,
    ],
    [
      'anthropic',
      '403',
      () => ({
        type: 'status',
        status: 403,
        errorType: 'permission_error',
        message: 'Your API key does not have permission to use the specified resource.',
      }),
      /anthropic claude-haiku-4-5: HTTP 403 after 1 attempt: Your API key does not have permission/,
    ],
    [
      'openai',
      '404',
      () => ({
        type: 'status',
        status: 404,
        errorType: 'invalid_request_error',
        code: 'model_not_found',
        message: 'The model `gpt-4o-mini` does not exist or you do not have access to it.',
      }),
      /HTTP 404 after 1 attempt: The model `gpt-4o-mini` does not exist/,
    ],
    [
      'anthropic',
      '404',
      () => ({
        type: 'status',
        status: 404,
        errorType: 'not_found_error',
        message: 'model: claude-haiku-4-5',
      }),
      /anthropic claude-haiku-4-5: HTTP 404 after 1 attempt: model: claude-haiku-4-5/,
    ],
  ];
  it.each(fatal)(
    '%s %s stops the run after the first call: exit 4, message and base URL; --resume continues',
    async (provider, _status, fault, message) => {
      rule = fault;
      mock.resetStats();
      const dir = providerProject(provider, 1);
      const env = mockEnv(mock);
      const r = await runCliAsync(['run', '--out', join(dir, 'runs'), '--quiet'], { cwd: dir, env });
      rule = undefined;
      expect(r.code, r.stderr).toBe(4);
      expect(mock.stats.requests).toBe(1);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).toMatch(/^handoff-eval: run stopped by a provider error that would fail every call:/m);
      const base = provider === 'openai' ? env.OPENAI_BASE_URL! : env.ANTHROPIC_BASE_URL!;
      expect(r.stderr).toContain(`base URL: ${base}`);
      const run = onlyRun(join(dir, 'runs'));
      expect(r.stderr).toContain(`handoff-eval run --resume ${run}`);
      expect(existsSync(join(run, 'results.jsonl')) ? rowsOf(run) : []).toEqual([]);
      // The lock was released: the resume takes it.
      const resumed = await runCliAsync(['run', '--resume', run, '--quiet'], { cwd: dir, env });
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(rowsOf(run)).toHaveLength(12);
      expect(rowsOf(run).every((x) => x.status === 'ok')).toBe(true);
    },
  );

  it('with cells in flight, those already sent finish and nothing more is started', async () => {
    rule = () => ({ type: 'status', status: 401, message: 'invalid x-api-key' });
    mock.resetStats();
    const dir = providerProject('anthropic', 4);
    const r = await runCliAsync(['run', '--out', join(dir, 'runs'), '--quiet'], {
      cwd: dir,
      env: mockEnv(mock),
    });
    rule = undefined;
    expect(r.code).toBe(4);
    expect(mock.stats.requests).toBeLessThanOrEqual(4);
  });
});

describe('an endpoint nobody listens on', () => {
  it('every cell is an error row naming the endpoint, and the run exits 3 (not 0)', async () => {
    // A port that was just free: listen, note it, close.
    const port = await new Promise<number>((done) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as AddressInfo).port;
        s.close(() => done(p));
      });
    });
    const dir = project({
      reps: 1,
      provider: 'openai',
      models: testModels,
      providers: { openai: { baseURL: `http://127.0.0.1:${port}/v1`, maxRetries: 1 } },
    });
    const r = await runCliAsync(['run', '--out', join(dir, 'runs'), '--quiet'], {
      cwd: dir,
      env: { OPENAI_API_KEY: 'sk-test-dead-endpoint', OPENAI_BASE_URL: '' },
    });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toContain('run: 3 of 3 cells are error rows (100.0%)');
    expect(r.stderr).toContain(
      `3 × provider_error: openai gpt-4o-mini: connection to http://127.0.0.1:${port}/v1 failed after 2 attempts`,
    );
    const rows = rowsOf(onlyRun(join(dir, 'runs')));
    expect(rows.map((x) => x.status)).toEqual(['error', 'error', 'error']);
  });
});

describe('exit 4 on the sim', () => {
  it('an unknown sim model is fatal too', () => {
    const dir = project({ reps: 2, models: { large: { sim: 'sim-medium' } } });
    const r = runCli(['run', '--out', join(dir, 'runs'), '--quiet'], { cwd: dir });
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toContain('unknown sim model "sim-medium"; valid: sim-small, sim-large, sim-judge');
    expect(r.stderr).toContain('base URL: (the embedded sim provider)');
  });
});
