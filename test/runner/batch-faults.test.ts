import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveConfig } from '../../harness/config/resolve-config.ts';
import { createAnthropicBatchBackend } from '../../harness/batch/anthropic-batch.ts';
import { createOpenAIBatchBackend } from '../../harness/batch/openai-batch.ts';
import { appendBatchRecord } from '../../harness/batch/batch-journal.ts';
import { BatchScheduler, type BatchEvent } from '../../harness/batch/scheduler.ts';
import type { BatchBackend } from '../../harness/batch/types.ts';
import { startBatchMock, type BatchMock } from '../support/mock-batch-server.ts';
import { tempDir, testModels } from '../support/mock-run.ts';

/**
 * Batch faults through the real SDKs against the loopback batch mock (issue 28, items 7 and 8): a create
 * that outlasts the timeout is never retried blindly — the vendor's batch list is read and the batch
 * holding the requests adopted, so the vendor holds one copy; a run killed during its create adopts
 * the batch on resume; a status outage longer than the SDK's retries is waited out.
 */
let mock: BatchMock;
beforeAll(async () => {
  mock = await startBatchMock({ processMs: 30 });
});
afterAll(() => mock.close());
beforeEach(() => {
  mock.options.faults = {};
  mock.batches.clear();
  mock.stats.submitted.length = 0;
});

type Vendor = 'anthropic' | 'openai';
const env = () => ({
  ANTHROPIC_API_KEY: 'sk-test-not-a-real-key-000',
  OPENAI_API_KEY: 'sk-test-not-a-real-key-000',
  ANTHROPIC_BASE_URL: mock.anthropicBaseURL,
  OPENAI_BASE_URL: mock.openaiBaseURL,
});

async function backendFor(vendor: Vendor, dir: string, maxRetries = 2): Promise<BatchBackend> {
  const config = resolveConfig(
    {
      provider: vendor,
      models: testModels,
      providers: { [vendor]: { maxRetries, timeoutMs: 400 } },
      outDir: join(dir, 'runs'),
    },
    { quiet: true },
  );
  return vendor === 'anthropic'
    ? createAnthropicBatchBackend(config, env())
    : createOpenAIBatchBackend(config, env());
}

const body = (vendor: Vendor, text: string) =>
  vendor === 'anthropic'
    ? { model: 'claude-test', max_tokens: 16, messages: [{ role: 'user', content: text }] }
    : { model: 'gpt-test', max_completion_tokens: 16, messages: [{ role: 'user', content: text }] };

function scheduler(backend: BatchBackend, dir: string, events: BatchEvent[] = []) {
  return new BatchScheduler({
    backend,
    dir,
    settings: { pollMs: 10, quietMs: 5 },
    retryFailed: false,
    detach: false,
    onEvent: (e) => events.push(e),
  });
}

const journalOf = (dir: string) =>
  readFileSync(join(dir, 'batches.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

const vendorBatches = (vendor: Vendor) => [...mock.batches.values()].filter((b) => b.protocol === vendor);

describe.each(['anthropic', 'openai'] as const)('%s batch faults', (vendor) => {
  it('a create that times out is not retried blindly: the created batch is found and adopted, one copy at the vendor', async () => {
    const dir = tempDir('batch-hang');
    mock.options.faults = { hangCreates: 1 };
    const events: BatchEvent[] = [];
    const s = scheduler(await backendFor(vendor, dir), dir, events);
    const out = await Promise.all(['a', 'b', 'c'].map((id) => s.outcome(id, () => body(vendor, id))));
    expect(out.map((o) => o.ok)).toEqual([true, true, true]);
    expect(vendorBatches(vendor)).toHaveLength(1);
    expect(mock.stats.submitted.filter((id) => 'abc'.includes(id))).toEqual(['a', 'b', 'c']);
    const journal = journalOf(dir);
    expect(journal.map((l) => `${l.kind}:${l.local}${l.adopted ? ':adopted' : ''}`)).toEqual([
      'submitting:b1',
      'created:b1:adopted',
    ]);
    expect(journal[1].batchId).toBe(vendorBatches(vendor)[0]!.id);
    expect(events.some((e) => /adopted/.test(e.state))).toBe(true);
  });

  it('a create answered 500 that created nothing is sent again after the list shows no batch', async () => {
    const dir = tempDir('batch-500');
    mock.options.faults = { failCreates: 1 };
    const s = scheduler(await backendFor(vendor, dir), dir);
    expect((await s.outcome('a', () => body(vendor, 'a'))).ok).toBe(true);
    expect(vendorBatches(vendor)).toHaveLength(1);
    expect(journalOf(dir).map((l) => `${l.kind}:${l.local}:${l.adopted ?? false}`)).toEqual([
      'submitting:b1:false',
      'created:b1:false',
    ]);
  });

  it('a 4xx create is a definite refusal: one call, no listing, every request a batch_create_failed error', async () => {
    const dir = tempDir('batch-400');
    const backend = await backendFor(vendor, dir);
    let finds = 0;
    const find = backend.find.bind(backend);
    backend.find = (p) => (finds++, find(p));
    backend.create = async () => {
      throw Object.assign(new Error('400 invalid request'), { status: 400 });
    };
    const s = scheduler(backend, dir);
    await expect(s.outcome('a', () => body(vendor, 'a'))).rejects.toMatchObject({
      code: 'batch_create_failed',
    });
    expect(finds).toBe(0);
  });

  it('a run killed during its create adopts the batch on resume instead of submitting a second copy', async () => {
    const dir = tempDir('batch-kill');
    const backend = await backendFor(vendor, dir, 0);
    const entries = ['a', 'b'].map((customId) => ({ customId, body: body(vendor, customId) }));
    appendBatchRecord(dir, {
      kind: 'submitting',
      provider: vendor,
      local: 'b1',
      customIds: ['a', 'b'],
      at: new Date().toISOString(),
    });
    // The create reached the vendor; the process died before its answer was journalled.
    const { requestsTag } = await import('../../harness/batch/submit.ts');
    const made = await backend.create(entries, requestsTag(['a', 'b']));
    // A foreign batch of the same size made at the same time is not adopted (a different tag / other ids).
    await backend.create(
      ['x', 'y'].map((customId) => ({ customId, body: body(vendor, customId) })),
      requestsTag(['x', 'y']),
    );
    await new Promise((r) => setTimeout(r, 60)); // both end, so the Anthropic check reads their ids
    const events: BatchEvent[] = [];
    const s = scheduler(await backendFor(vendor, dir, 0), dir, events);
    const out = await Promise.all(['a', 'b'].map((id) => s.outcome(id, () => body(vendor, id))));
    expect(out.map((o) => o.ok)).toEqual([true, true]);
    expect(vendorBatches(vendor)).toHaveLength(2);
    expect(s.submitted).toBe(0);
    expect(journalOf(dir).at(-1)).toMatchObject({
      kind: 'created',
      local: 'b1',
      batchId: made,
      adopted: true,
    });
    expect(events[0]!.state).toMatch(/^adopted/);
  });

  it('polling outlasts a status outage longer than the SDK retries: backs off and keeps polling', async () => {
    const dir = tempDir('batch-outage');
    const events: BatchEvent[] = [];
    const s = scheduler(await backendFor(vendor, dir, 0), dir, events);
    mock.options.faults = { statusErrors: 5 };
    const out = await Promise.all(['a', 'b'].map((id) => s.outcome(id, () => body(vendor, id))));
    expect(out.map((o) => o.ok)).toEqual([true, true]);
    expect(mock.options.faults.statusErrors).toBe(0);
    const outages = events.filter((e) => /status unavailable/.test(e.state));
    expect(outages).toHaveLength(5);
    expect(vendorBatches(vendor)).toHaveLength(1);
  });

  it('a batch the vendor says does not exist (404) ends the wait with an error, not a poll forever', async () => {
    const dir = tempDir('batch-404');
    appendBatchRecord(dir, { kind: 'submitting', provider: vendor, local: 'b1', customIds: ['a'], at: '' });
    appendBatchRecord(dir, { kind: 'created', provider: vendor, local: 'b1', batchId: 'gone', at: '' });
    const s = scheduler(await backendFor(vendor, dir, 0), dir);
    await expect(s.outcome('a', () => body(vendor, 'a'))).rejects.toMatchObject({ status: 404 });
  });
});
