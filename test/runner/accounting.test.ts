import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { join } from 'node:path';
import type { CallRecord } from '../../harness/core/index.ts';
import { resolveConfig } from '../../harness/config/resolve-config.ts';
import { runExperiment } from '../../harness/runner/run.ts';
import { startMockLlmServer, type MockServer } from '../support/mock-llm-server.ts';
import { callsOf, fixtureCases, mockEnv, rowsOf, tempDir, testModels } from '../support/mock-run.ts';

/**
 * Whole runs against the loopback mock (with latency, so calls overlap): what a row counts (the
 * cell's own calls; its judge calls only in judge_cost_usd), what a call costs at the configured
 * prices, and the run-wide and per-provider concurrency limits, read off the mock's recorded peak.
 */
let mock: MockServer;
beforeAll(async () => {
  mock = await startMockLlmServer({ latencyMs: 25 });
});
afterAll(() => mock.close());
afterEach(() => {
  vi.unstubAllEnvs();
  mock.resetStats();
});

/** USD per million tokens, unlike any built-in price, so a cost computed from them is recognisable. */
const price = { input: 2, output: 7, cacheRead: 0.5, cacheWrite: 3 };
const usd = (c: CallRecord) =>
  (2 * c.inputTokens + 7 * c.outputTokens + 0.5 * c.cacheReadTokens + 3 * c.cacheWriteTokens) / 1e6;

async function run(opts: {
  reps: number;
  concurrency: number;
  providerConcurrency: number;
  transport?: 'node' | 'fetch';
  timeoutMs?: number;
}) {
  for (const [k, v] of Object.entries(mockEnv(mock))) vi.stubEnv(k, v);
  const dir = tempDir('accounting');
  const config = resolveConfig(
    {
      casesDir: fixtureCases,
      reps: opts.reps,
      seed: 5,
      provider: 'anthropic',
      models: testModels,
      concurrency: opts.concurrency,
      providers: {
        anthropic: {
          maxRetries: 0,
          timeoutMs: opts.timeoutMs ?? 10_000,
          concurrency: opts.providerConcurrency,
          transport: opts.transport ?? 'node',
        },
      },
      prices: { 'claude-haiku-4-5': price },
      cache: false,
      outDir: join(dir, 'runs'),
    },
    { quiet: true },
  );
  const out = await runExperiment({ config });
  return { rows: rowsOf(out.dir), calls: callsOf(out.dir) };
}

describe('per-row accounting and prices', () => {
  it('a row totals its own calls; judge calls count only in judge_cost_usd; each call costs its tokens at the configured price', async () => {
    const { rows, calls } = await run({ reps: 2, concurrency: 4, providerConcurrency: 16 });
    expect(rows.length).toBe(6);
    expect(calls.some((c) => c.role === 'judge')).toBe(true);
    for (const c of calls) {
      expect(c.model).toBe('claude-haiku-4-5');
      expect(c.costUsd, `${c.cellId} ${c.purpose}`).toBeCloseTo(usd(c), 15);
      expect(c.costUsd).toBeGreaterThan(0);
    }
    for (const r of rows) {
      expect(r.status).toBe('ok');
      const mine = calls.filter((c) => c.cellId === r.cell_id);
      const own = mine.filter((c) => c.role !== 'judge');
      const judge = mine.filter((c) => c.role === 'judge');
      expect(judge.length, r.cell_id).toBeGreaterThan(0);
      const sum = (xs: CallRecord[], f: (c: CallRecord) => number) => xs.reduce((n, c) => n + f(c), 0);
      expect(r.input_tokens).toBe(sum(own, (c) => c.inputTokens));
      expect(r.output_tokens).toBe(sum(own, (c) => c.outputTokens));
      expect(r.latency_ms).toBe(sum(own, (c) => c.latencyMs));
      expect(r.cost_usd).toBeCloseTo(sum(own, usd), 15);
      expect(r.judge_cost_usd).toBeCloseTo(sum(judge, usd), 15);
      expect(r.model_calls).toBe(mine.length);
    }
  });
});

describe('concurrency limits (the mock records the peak of requests in flight)', () => {
  it.each(['node', 'fetch'] as const)(
    'the per-provider limit bounds the calls in flight across all cells (%s transport)',
    async (transport) => {
      // With the SDK's own fetch there is no socket pool: the call path's limit alone holds the peak.
      await run({ reps: 4, concurrency: 12, providerConcurrency: 2, transport });
      expect(mock.stats.maxInflight).toBe(2);
    },
  );

  it('a call queued behind the per-provider limit starts its timeout when it gets its turn (node transport)', async () => {
    // 36 cells at once, one call at a time, 25 ms each: the queue is ~36 calls deep, ~0.9 s, longer than
    // the 600 ms timeout, while one call takes a twenty-fourth of it. With the limit in the call path, a
    // call reaches the SDK (and starts its clock) only when a slot is free; if it were left to the socket
    // pool, the SDK's clock would run while the call waits for a socket, and queued calls would time out.
    const { rows, calls } = await run({
      reps: 12,
      concurrency: 36,
      providerConcurrency: 1,
      transport: 'node',
      timeoutMs: 600,
    });
    expect(mock.stats.maxInflight).toBe(1);
    expect(rows.filter((r) => r.status !== 'ok').map((r) => `${r.cell_id}: ${r.error}`)).toEqual([]);
    expect(calls.length).toBeGreaterThanOrEqual(rows.length * 2);
  });

  it('the run-wide limit bounds the cells in flight: one cell at a time never overlaps two cells’ calls', async () => {
    await run({ reps: 4, concurrency: 12, providerConcurrency: 64 });
    const wide = mock.stats.maxInflight;
    mock.resetStats();
    const { calls } = await run({ reps: 4, concurrency: 1, providerConcurrency: 64 });
    const narrow = mock.stats.maxInflight;
    // With one cell at a time the peak is at most the parallel calls of a single cell (its judge
    // criteria); twelve cells at once exceed it.
    const perCell = Math.max(
      ...[...new Set(calls.map((c) => c.cellId))].map(
        (id) => calls.filter((c) => c.cellId === id && c.role === 'judge').length,
      ),
    );
    expect(narrow).toBeLessThanOrEqual(Math.max(1, perCell));
    expect(wide).toBeGreaterThan(narrow);
  });
});
