import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { join } from 'node:path';
import { resolveConfig } from '../../harness/config/resolve-config.ts';
import { runExperiment } from '../../harness/runner/run.ts';
import { numericSeed } from '../../harness/providers/wire-shared.ts';
import { everyNth, startMockLlmServer, type FaultRule, type MockServer } from '../support/mock-llm-server.ts';
import {
  callsOf,
  exactlyOnce,
  fixtureCases,
  miniCells,
  mockEnv,
  rowsOf,
  tempDir,
  testModels,
} from '../support/mock-run.ts';

/**
 * Whole runs through the real SDKs against a mock that injects 429 (retry-after), 500, responses
 * slower than the client timeout, dropped connections and bodies cut short: every cell is journalled exactly once, the
 * SDKs' retries (the one retry layer) absorb the faults, and a call that runs out of retries becomes
 * an error row carrying the HTTP status and the request id.
 */
let mock: MockServer;
let rule: FaultRule | undefined;

beforeAll(async () => {
  mock = await startMockLlmServer({ faults: (ctx) => rule?.(ctx) });
});
afterAll(() => mock.close());
afterEach(() => {
  rule = undefined;
  vi.unstubAllEnvs();
  mock.resetStats();
});

function stubEnv() {
  for (const [k, v] of Object.entries(mockEnv(mock))) vi.stubEnv(k, v);
}

const config = (provider: 'anthropic' | 'openai', reps: number, dir: string) =>
  resolveConfig(
    {
      casesDir: fixtureCases,
      reps,
      seed: 11,
      provider,
      models: testModels,
      concurrency: 8,
      providers: { [provider]: { maxRetries: 3, timeoutMs: 1_000 } },
      cache: { dir: join(dir, 'cache') },
      outDir: join(dir, 'runs'),
    },
    { quiet: true },
  );

describe.each(['anthropic', 'openai'] as const)('%s: faults injected into a whole run', (provider) => {
  it('loses and duplicates no cell, and counts the retries the SDK made', async () => {
    stubEnv();
    rule = everyNth({ status429: 4, status500: 5, slow: 7, drop: 9, truncate: 11 }, 5_000);
    const dir = tempDir('faults');
    const out = await runExperiment({ config: config(provider, 4, dir) });
    const rows = rowsOf(out.dir);
    expect(
      exactlyOnce(
        rows.map((r) => r.cell_id),
        miniCells(4),
      ),
    ).toEqual({ missing: [], duplicated: [] });
    expect(rows).toHaveLength(12);
    expect(rows.filter((r) => r.status !== 'ok').map((r) => r.error)).toEqual([]);
    expect(Object.keys(mock.stats.faults).sort()).toEqual(['drop', 'slow', 'status', 'truncate']);
    const calls = callsOf(out.dir);
    const retries = calls.reduce((n, c) => n + c.retries, 0);
    // The retries the harness recorded are the ones the server saw; every injected fault cost one.
    expect(retries).toBe(mock.stats.retriesSeen);
    expect(retries).toBeGreaterThanOrEqual(Object.values(mock.stats.faults).reduce((a, b) => a + b, 0));
    expect(calls.every((c) => !c.error)).toBe(true);
  });
});

describe('a call that exhausts its retries', () => {
  it('becomes an error row with the HTTP status and request id; the other cells are unaffected', async () => {
    stubEnv();
    // Every attempt of the rep-1 receiver calls fails (openai carries the per-call seed in the body).
    const doomed = numericSeed('11/deprecation-1/1/answer#0');
    rule = ({ body }) =>
      body.seed === doomed ? { type: 'status', status: 500, retryAfterMs: 5 } : undefined;
    const dir = tempDir('exhaust');
    const out = await runExperiment({ config: config('openai', 2, dir) });
    const rows = rowsOf(out.dir);
    expect(
      exactlyOnce(
        rows.map((r) => r.cell_id),
        miniCells(2),
      ),
    ).toEqual({ missing: [], duplicated: [] });
    const failed = rows.filter((r) => r.status === 'error');
    expect(failed.map((r) => r.cell_id).sort()).toEqual([
      'mini/deprecation-1/brick/1',
      'mini/deprecation-1/full-transcript/1',
      'mini/deprecation-1/inline/1',
    ]);
    for (const r of failed) {
      expect(r.error_code).toBe('provider_error');
      expect(r.error).toMatch(/HTTP 500 after 4 attempts/);
      expect(r.error).toMatch(/status 500; request req_mock_\d+/);
    }
    const errorCalls = callsOf(out.dir).filter((c) => c.error);
    expect(errorCalls).toHaveLength(3);
    expect(
      errorCalls.every((c) => c.role === 'receiver' && /request req_mock_/.test(c.error!) && c.retries === 3),
    ).toBe(true);
  });

  it('is never cached: the next run calls again and succeeds', async () => {
    stubEnv();
    const dir = tempDir('nocache-err');
    rule = () => ({ type: 'status', status: 500, retryAfterMs: 5 });
    const first = await runExperiment({ config: config('openai', 1, dir) });
    expect(rowsOf(first.dir).every((r) => r.status === 'error')).toBe(true);
    rule = undefined;
    mock.resetStats();
    const second = await runExperiment({ config: config('openai', 1, dir) });
    expect(rowsOf(second.dir).every((r) => r.status === 'ok')).toBe(true);
    expect(mock.stats.ok).toBeGreaterThanOrEqual(3);
  });
});
