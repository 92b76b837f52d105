import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveConfig } from '../../harness/config/resolve-config.ts';
import { runExperiment } from '../../harness/runner/run.ts';
import type { Reporter } from '../../harness/runner/reporters.ts';
import type { BatchEvent } from '../../harness/batch/scheduler.ts';
import type { ResultRow } from '../../harness/core/index.ts';
import { startBatchMock, type BatchMock } from '../support/mock-batch-server.ts';
import { startMockLlmServer, type MockServer } from '../support/mock-llm-server.ts';
import {
  callsOf,
  exactlyOnce,
  fixtureCases,
  miniCells,
  rowsOf,
  tempDir,
  testModels,
} from '../support/mock-run.ts';

/**
 * `run --batch` through the real SDKs against the loopback batch mock (both protocols): every cell
 * journalled once, calls grouped into phase batches, rows identical to an interactive run on the same
 * mock replies, failed requests as error rows with their reason, `--retry-errors` resubmitting only
 * those, and cached calls never submitted.
 */
let batchMock: BatchMock;
let chatMock: MockServer;
beforeAll(async () => {
  batchMock = await startBatchMock({ processMs: 60 });
  chatMock = await startMockLlmServer({ deterministicIds: true });
});
afterAll(async () => {
  await batchMock.close();
  await chatMock.close();
});
afterEach(() => {
  vi.unstubAllEnvs();
  batchMock.options.outcome = undefined;
});

function pointAt(base: { anthropicBaseURL: string; openaiBaseURL: string }) {
  vi.stubEnv('ANTHROPIC_API_KEY', 'sk-test-not-a-real-key-000');
  vi.stubEnv('OPENAI_API_KEY', 'sk-test-not-a-real-key-000');
  vi.stubEnv('ANTHROPIC_BASE_URL', base.anthropicBaseURL);
  vi.stubEnv('OPENAI_BASE_URL', base.openaiBaseURL);
}

type Provider = 'anthropic' | 'openai';
const config = (provider: Provider, dir: string, batch: boolean, extra: Record<string, unknown> = {}) =>
  resolveConfig(
    {
      casesDir: fixtureCases,
      reps: 2,
      seed: 5,
      provider,
      models: testModels,
      concurrency: 4,
      providers: { [provider]: { maxRetries: 1, batch: { pollMs: 20, quietMs: 40, ...extra } } },
      cache: { dir: join(dir, 'cache') },
      outDir: join(dir, 'runs'),
    },
    { quiet: true, batch },
  );

function eventsReporter(events: BatchEvent[]): Reporter {
  return { onBatch: (e) => events.push(e) };
}

/** A row without what legitimately differs between two runs (ids, timing, money, request ids). */
function comparable(r: ResultRow): Record<string, unknown> {
  const { run_id, started_at, finished_at, latency_ms, cost_usd, ...rest } = r as unknown as Record<
    string,
    unknown
  >;
  (void run_id, started_at, finished_at, latency_ms, cost_usd);
  return JSON.parse(
    JSON.stringify(rest, (k, v) => (/latency|_at$|request_?id|cost/i.test(k) ? undefined : v)),
  );
}

describe.each(['anthropic', 'openai'] as const)('%s: run --batch', (provider) => {
  it('journals every cell once, in phase batches, at the batch price', async () => {
    pointAt(batchMock);
    const dir = tempDir(`batch-${provider}`);
    const before = batchMock.stats.submitted.length;
    const events: BatchEvent[] = [];
    const out = await runExperiment({
      config: config(provider, dir, true),
      reporters: [eventsReporter(events)],
    });
    const rows = rowsOf(out.dir);
    expect(
      exactlyOnce(
        rows.map((r) => r.cell_id),
        miniCells(2),
      ),
    ).toEqual({ missing: [], duplicated: [] });
    expect(
      rows.every((r) => r.status === 'ok'),
      JSON.stringify(rows.map((r) => r.error)),
    ).toBe(true);
    const submitted = batchMock.stats.submitted.slice(before);
    // Every model call of the run was one batched request, none twice.
    const calls = callsOf(out.dir);
    expect(new Set(submitted).size).toBe(submitted.length);
    expect(submitted.length).toBe(calls.filter((c) => !c.cached).length);
    expect(out.batch).toEqual({ submitted: submitted.length, detached: false });
    // More than one phase (source → receiver → judge), fewer batches than calls.
    const ids = new Set(events.map((e) => e.batchId));
    expect(ids.size).toBeGreaterThanOrEqual(2);
    expect(ids.size).toBeLessThan(submitted.length);
    expect(events.some((e) => !e.state.match(/ended|completed/))).toBe(true);
    // The batch journal holds each batch before (custom_ids) and after (vendor id) its creation.
    const journal = readFileSync(join(out.dir, 'batches.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(
      journal
        .filter((r) => r.kind === 'submitting')
        .flatMap((r) => r.customIds)
        .sort(),
    ).toEqual([...submitted].sort());
    expect(
      journal
        .filter((r) => r.kind === 'created')
        .map((r) => r.batchId)
        .sort(),
    ).toEqual([...ids].sort());
    // Half the list price: usage priced by the table, then halved.
    const { costOf } = await import('../../harness/providers/prices.ts');
    for (const c of calls.slice(0, 5)) {
      const list = costOf(c.model, {
        inputTokens: c.inputTokens,
        outputTokens: c.outputTokens,
        cacheReadTokens: c.cacheReadTokens,
        cacheWriteTokens: c.cacheWriteTokens,
      });
      expect(c.costUsd).toBeCloseTo(list / 2, 12);
    }
  });

  it('gives the same rows as the same run without --batch on the same mock replies', async () => {
    const dirA = tempDir(`batch-eq-${provider}`);
    pointAt(batchMock);
    const a = await runExperiment({ config: config(provider, dirA, true) });
    const dirB = tempDir(`interactive-eq-${provider}`);
    pointAt(chatMock);
    const b = await runExperiment({ config: config(provider, dirB, false) });
    const byCell = (rows: ResultRow[]) => new Map(rows.map((r) => [r.cell_id, comparable(r)]));
    const rowsA = byCell(rowsOf(a.dir));
    const rowsB = byCell(rowsOf(b.dir));
    expect(rowsA.size).toBe(6);
    if (provider === 'anthropic') {
      // Prompt-cache reads/writes depend on which request the mock saw first: compare all but the token split.
      for (const m of [rowsA, rowsB])
        for (const r of m.values()) for (const k of Object.keys(r)) if (/token/.test(k)) delete r[k];
    }
    expect(rowsA).toEqual(rowsB);
  });

  it('turns expired requests into error rows with their reason; --retry-errors resubmits only those', async () => {
    pointAt(batchMock);
    const dir = tempDir(`batch-expire-${provider}`);
    const first = batchMock.stats.batches + 1;
    // The run's second batch (its second phase) expires as a whole.
    batchMock.options.outcome = ({ batch }) => (batch === first + 1 ? 'expired' : undefined);
    const start = batchMock.stats.submitted.length;
    const out = await runExperiment({ config: config(provider, dir, true) });
    const firstRun = batchMock.stats.submitted.slice(start);
    const errors = rowsOf(out.dir).filter((r) => r.status === 'error');
    expect(errors.length).toBeGreaterThan(0);
    for (const r of errors) {
      expect(r.error_code).toBe('batch_expired');
      expect(r.error).toMatch(/expired/);
    }
    const expired = new Set(
      batchMock.batches
        .get([...batchMock.batches.values()].find((b) => b.n === first + 1)!.id)!
        .lines.map((l) => l.customId),
    );
    batchMock.options.outcome = undefined;
    const mid = batchMock.stats.submitted.length;
    const resumed = await runExperiment({
      config: config(provider, dir, true),
      resumeDir: out.dir,
      retryErrors: true,
    });
    const resubmitted = batchMock.stats.submitted.slice(mid);
    // Nothing that succeeded is sent again; every expired request is.
    for (const id of resubmitted) expect(expired.has(id) || !firstRun.includes(id)).toBe(true);
    for (const id of expired) expect(resubmitted).toContain(id);
    expect(resumed.rows.every((r) => r.status === 'ok')).toBe(true);
    expect(resumed.rows).toHaveLength(6);
  });

  it('fails only the requests the vendor errored or canceled, each row naming its reason', async () => {
    pointAt(batchMock);
    const dir = tempDir(`batch-partial-${provider}`);
    const first = batchMock.stats.batches + 1;
    // In the run's first batch (the sources), one request errors and one is canceled; the rest succeed.
    const failed = new Map<string, 'errored' | 'canceled'>();
    batchMock.options.outcome = ({ batch, customId }) => {
      if (batch !== first) return undefined;
      if (!failed.has(customId) && failed.size < 2)
        failed.set(customId, failed.size ? 'canceled' : 'errored');
      return failed.get(customId);
    };
    const out = await runExperiment({ config: config(provider, dir, true) });
    const rows = rowsOf(out.dir);
    expect(rows).toHaveLength(6);
    const errors = rows.filter((r) => r.status === 'error');
    expect(errors.length).toBeGreaterThanOrEqual(1);
    expect(errors.length).toBeLessThan(6);
    const codes = new Set(errors.map((r) => r.error_code));
    for (const c of codes) expect(['batch_errored', 'batch_canceled']).toContain(c);
    for (const r of errors.filter((e) => e.error_code === 'batch_errored'))
      expect(r.error).toMatch(/injected error/);
    for (const r of errors.filter((e) => e.error_code === 'batch_canceled'))
      expect(r.error).toMatch(/cancel/);
  });

  it('never submits a cached call, and splits a phase within the batch size limit', async () => {
    pointAt(batchMock);
    const dir = tempDir(`batch-cache-${provider}`);
    const b0 = batchMock.stats.batches;
    const s0 = batchMock.stats.submitted.length;
    await runExperiment({ config: config(provider, dir, true, { maxRequests: 2 }) });
    const sent = batchMock.stats.submitted.length - s0;
    for (const b of batchMock.batches.values()) if (b.n > b0) expect(b.lines.length).toBeLessThanOrEqual(2);
    expect(batchMock.stats.batches - b0).toBeGreaterThanOrEqual(Math.ceil(sent / 2));
    const s1 = batchMock.stats.submitted.length;
    const again = await runExperiment({ config: config(provider, dir, true) });
    expect(batchMock.stats.submitted.length).toBe(s1);
    expect(again.rows.every((r) => r.status === 'ok')).toBe(true);
    expect(callsOf(again.dir).every((c) => c.cached)).toBe(true);
  });
});
