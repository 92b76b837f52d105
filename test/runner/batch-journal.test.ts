import { describe, expect, it } from 'vitest';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { appendBatchRecord, readBatchJournal, type BatchRecord } from '../../harness/batch/batch-journal.ts';
import { BatchScheduler } from '../../harness/batch/scheduler.ts';
import type { BatchBackend, BatchEntry } from '../../harness/batch/types.ts';
import { tempDir } from '../support/mock-run.ts';

/**
 * batches.jsonl maps each custom_id to the vendor batch of its LATEST submission. A resumed run polls
 * that batch; mapping to the first would poll the old, failed batch after --retry-errors resubmitted
 * the request. Every order the lines can come in: resubmission, created lines out of order (creates
 * in flight together), a latest submission never confirmed (killed during create), other providers.
 */
const s = (local: string, customIds: string[], provider = 'anthropic'): BatchRecord => ({
  kind: 'submitting',
  provider,
  local,
  customIds,
  at: '',
});
const c = (local: string, batchId: string, provider = 'anthropic'): BatchRecord => ({
  kind: 'created',
  provider,
  local,
  batchId,
  at: '',
});

function journal(records: BatchRecord[]) {
  const dir = tempDir('batch-journal');
  for (const r of records) appendBatchRecord(dir, r);
  return { dir, read: (provider = 'anthropic') => readBatchJournal(dir, provider) };
}

const mapOf = (j: ReturnType<typeof readBatchJournal>) => Object.fromEntries([...j.batchOf].sort());

describe('batch journal: a custom_id maps to its latest submission', () => {
  it('after a resubmission (--retry-errors, an expired batch) the new batch answers', () => {
    const j = journal([s('b1', ['a', 'b']), c('b1', 'B1'), s('b2', ['a']), c('b2', 'B2')]).read();
    expect(mapOf(j)).toEqual({ a: 'B2', b: 'B1' });
    expect(j.unconfirmed).toEqual([]);
    expect(j.count).toBe(2);
  });

  it('three submissions of one request: the third answers', () => {
    const j = journal([
      s('b1', ['a']),
      c('b1', 'B1'),
      s('b2', ['a']),
      c('b2', 'B2'),
      s('b3', ['a']),
      c('b3', 'B3'),
    ]);
    expect(mapOf(j.read())).toEqual({ a: 'B3' });
  });

  it('created lines out of order: still the latest submission, not the last line', () => {
    const j = journal([s('b1', ['a', 'b']), s('b2', ['a']), c('b2', 'B2'), c('b1', 'B1')]).read();
    expect(mapOf(j)).toEqual({ a: 'B2', b: 'B1' });
  });

  it('a latest submission never confirmed (killed during its create): no batch, and it is listed for resubmission', () => {
    const j = journal([s('b1', ['a', 'b']), c('b1', 'B1'), s('b2', ['a'])]).read();
    expect(mapOf(j)).toEqual({ b: 'B1' });
    expect(j.unconfirmed).toMatchObject([
      { provider: 'anthropic', local: 'b2', requests: 1, customIds: ['a'] },
    ]);
    expect(j.count).toBe(2);
  });

  it('an unconfirmed submission whose requests were all submitted again later is not listed', () => {
    const j = journal([s('b1', ['a', 'b']), s('b2', ['a', 'b']), c('b2', 'B2')]).read();
    expect(mapOf(j)).toEqual({ a: 'B2', b: 'B2' });
    expect(j.unconfirmed).toEqual([]);
  });

  it('partly superseded: only the requests still waiting on it are listed', () => {
    const j = journal([s('b1', ['a', 'b']), s('b2', ['a']), c('b2', 'B2')]).read();
    expect(mapOf(j)).toEqual({ a: 'B2' });
    expect(j.unconfirmed).toMatchObject([
      { provider: 'anthropic', local: 'b1', requests: 1, customIds: ['b'], submitted: ['a', 'b'] },
    ]);
  });

  it("another provider's lines change nothing, and each provider counts its own", () => {
    const j = journal([
      s('b1', ['a']),
      c('b1', 'B1'),
      s('b1', ['a'], 'openai'),
      c('b1', 'O1', 'openai'),
      s('b2', ['a'], 'openai'),
      c('b2', 'O2', 'openai'),
    ]);
    expect(mapOf(j.read())).toEqual({ a: 'B1' });
    expect(mapOf(j.read('openai'))).toEqual({ a: 'O2' });
    expect([j.read().count, j.read('openai').count]).toEqual([1, 2]);
  });

  it('a torn last line (a kill mid-write) is cut and the next record starts on its own line', () => {
    const { dir, read } = journal([s('b1', ['a']), c('b1', 'B1'), s('b2', ['a'])]);
    appendFileSync(join(dir, 'batches.jsonl'), '{"kind":"created","provider":"anthr');
    expect(mapOf(read())).toEqual({});
    appendBatchRecord(dir, c('b2', 'B2'));
    expect(mapOf(read())).toEqual({ a: 'B2' });
  });
});

/** A vendor whose batch_1 expired for every request and whose later batches succeed. */
function vendor() {
  const created: BatchEntry[][] = [];
  const retrieved: string[] = [];
  const backend: BatchBackend = {
    provider: 'anthropic',
    limits: { maxRequests: 100, maxBytes: 2 ** 20 },
    toBody: (req) => req,
    entryBytes: (e) => JSON.stringify(e).length,
    createAttempts: 1,
    find: async () => undefined,
    async create(entries) {
      created.push(entries);
      return `batch_${created.length}`;
    },
    async retrieve(id) {
      retrieved.push(id);
      return { id, state: 'ended', ended: true, total: 1, succeeded: 1, failed: 0, processing: 0 };
    },
    async results(id) {
      return created[Number(id.slice(6)) - 1]!.map((e) =>
        id === 'batch_1'
          ? { customId: e.customId, ok: false as const, kind: 'expired' as const, reason: 'expired' }
          : { customId: e.customId, ok: true as const, reply: id },
      );
    },
    fromReply: () => {
      throw new Error('not used');
    },
    async close() {},
  };
  return { backend, created, retrieved };
}

describe('batch journal through the scheduler: expiry, --retry-errors, then a plain resume', () => {
  it('the third process polls the resubmitted batch, not the expired one, and submits nothing', async () => {
    const dir = tempDir('batch-journal-resume');
    const v = vendor();
    const opts = { backend: v.backend, dir, settings: { pollMs: 1, quietMs: 1 }, detach: false };
    const first = await new BatchScheduler({ ...opts, retryFailed: false }).outcome('a', () => 1);
    expect(first).toMatchObject({ ok: false, kind: 'expired' });
    const second = await new BatchScheduler({ ...opts, retryFailed: true }).outcome('a', () => 1);
    expect(second).toMatchObject({ ok: true, reply: 'batch_2' });
    v.retrieved.length = 0;
    const third = new BatchScheduler({ ...opts, retryFailed: false });
    expect(await third.outcome('a', () => 1)).toMatchObject({ ok: true, reply: 'batch_2' });
    expect(v.retrieved).toEqual(['batch_2']);
    expect(third.submitted).toBe(0);
    expect(v.created).toHaveLength(2);
  });
});
