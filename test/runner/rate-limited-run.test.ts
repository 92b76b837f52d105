import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { join } from 'node:path';
import { resolveConfig } from '../../harness/config/resolve-config.ts';
import { runExperiment } from '../../harness/runner/run.ts';
import { startMockLlmServer, type MockServer } from '../support/mock-llm-server.ts';
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
 * A whole run through the real SDKs against a mock limited per model (20 requests/s, 429 with
 * retry-after and x-ratelimit-* headers): the rate gates keep the 429s few, and every cell is
 * journalled exactly once, ok. Without the gates (rateLimits: 'off') the same run draws many more.
 */
let mock: MockServer;

beforeAll(async () => {
  mock = await startMockLlmServer({ latencyMs: 10, rateLimit: { rps: 20 } });
});
afterAll(() => mock.close());
afterEach(() => {
  vi.unstubAllEnvs();
  mock.resetStats();
});

async function run(rateLimits: 'adaptive' | 'off') {
  for (const [k, v] of Object.entries(mockEnv(mock))) vi.stubEnv(k, v);
  const dir = tempDir('rate-limited');
  const config = resolveConfig(
    {
      casesDir: fixtureCases,
      reps: 8,
      seed: 5,
      provider: 'openai',
      models: testModels,
      concurrency: 16,
      providers: { openai: { maxRetries: 4, timeoutMs: 30_000, concurrency: 16, rateLimits } },
      cache: false,
      outDir: join(dir, 'runs'),
    },
    { quiet: true },
  );
  return runExperiment({ config });
}

it('keeps 429s under 10% of the requests and journals every cell exactly once', async () => {
  const out = await run('adaptive');
  const rows = rowsOf(out.dir);
  expect(
    exactlyOnce(
      rows.map((r) => r.cell_id),
      miniCells(8),
    ),
  ).toEqual({ missing: [], duplicated: [] });
  expect(rows.filter((r) => r.status !== 'ok').map((r) => r.error)).toEqual([]);
  const limited = mock.stats.byStatus[429] ?? 0;
  expect(limited).toBeLessThanOrEqual(0.1 * mock.stats.ok);
  const withGates = limited;
  mock.resetStats();
  await run('off');
  // The SDKs' retries alone, on the same run: the gates are what keeps the count down.
  expect(mock.stats.byStatus[429] ?? 0).toBeGreaterThan(3 * Math.max(withGates, 5));
});
