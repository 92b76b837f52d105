import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BatchScheduler, type BatchEvent } from '../../harness/batch/scheduler.ts';
import { appendBatchRecord } from '../../harness/batch/batch-journal.ts';
import type { BatchBackend, BatchEntry } from '../../harness/batch/types.ts';
import { tempDir } from '../support/mock-run.ts';

/** An in-memory vendor: every batch ends at its first status read; `fail` names custom_ids that expire. */
function fakeBackend(fail: Set<string> = new Set()) {
  const created: BatchEntry[][] = [];
  const backend: BatchBackend = {
    provider: 'anthropic',
    limits: { maxRequests: 100_000, maxBytes: 256 * 2 ** 20 },
    toBody: (req) => req,
    entryBytes: (e) => JSON.stringify(e).length,
    createAttempts: 1,
    find: async () => undefined,
    async create(entries) {
      created.push(entries);
      return `batch_${created.length}`;
    },
    async retrieve(id) {
      const n = created[Number(id.slice(6)) - 1]!.length;
      return { id, state: 'ended', ended: true, total: n, succeeded: n, failed: 0, processing: 0 };
    },
    async results(id) {
      return created[Number(id.slice(6)) - 1]!.map((e) =>
        fail.has(e.customId)
          ? { customId: e.customId, ok: false as const, kind: 'expired' as const, reason: 'expired' }
          : { customId: e.customId, ok: true as const, reply: e.body },
      );
    },
    fromReply: () => {
      throw new Error('not used');
    },
    async close() {},
  };
  return { backend, created };
}

const opts = { settings: { pollMs: 5, quietMs: 5 }, retryFailed: false, detach: false };

describe('BatchScheduler', () => {
  it('submits a request whose batch was never confirmed created again, and says so', async () => {
    const dir = tempDir('sched-unconfirmed');
    appendBatchRecord(dir, {
      kind: 'submitting',
      provider: 'anthropic',
      local: 'b1',
      customIds: ['a', 'b'],
      at: '',
    });
    const { backend, created } = fakeBackend();
    const events: BatchEvent[] = [];
    const s = new BatchScheduler({ ...opts, backend, dir, onEvent: (e) => events.push(e) });
    const [a, b] = await Promise.all([s.outcome('a', () => 'A'), s.outcome('b', () => 'B')]);
    expect(events[0]!.state).toMatch(/not at the vendor: its 2 requests are submitted again/);
    expect([a.ok, b.ok]).toEqual([true, true]);
    expect(created.map((c) => c.map((e) => e.customId))).toEqual([['a', 'b']]);
    // The new batch is numbered after the unconfirmed one.
    const lines = readFileSync(join(dir, 'batches.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => `${l.kind}:${l.local}`)).toEqual([
      'submitting:b1',
      'submitting:b2',
      'created:b2',
    ]);
  });

  it('splits one phase by bytes, and shares one request between identical calls', async () => {
    const dir = tempDir('sched-split');
    const { backend, created } = fakeBackend();
    const s = new BatchScheduler({ ...opts, settings: { ...opts.settings, maxBytes: 120 }, backend, dir });
    const ids = ['r1', 'r2', 'r3', 'r4', 'r1'];
    const out = await Promise.all(ids.map((id) => s.outcome(id, () => 'x'.repeat(30))));
    expect(out.every((o) => o.ok)).toBe(true);
    // Each entry is 57 bytes: two per batch within 120 bytes; r1 asked twice, submitted once.
    expect(created.map((c) => c.length)).toEqual([2, 2]);
    expect(s.submitted).toBe(4);
  });

  it('with retryFailed, resubmits a request that failed in an earlier process once, for every call sharing it', async () => {
    const dir = tempDir('sched-retry');
    const first = fakeBackend(new Set(['bad']));
    const s1 = new BatchScheduler({ ...opts, backend: first.backend, dir });
    expect((await s1.outcome('bad', () => 1)).ok).toBe(false);
    expect((await s1.outcome('good', () => 1)).ok).toBe(true);
    // A later process (the journal names batch_1 and batch_2) against a vendor that now succeeds.
    const second = fakeBackend();
    second.created.push([{ customId: 'bad', body: 1 }], [{ customId: 'good', body: 1 }]);
    const fail = new Set(['bad']);
    const results = second.backend.results;
    second.backend.results = async (id) =>
      (await results(id)).map((r) =>
        id === 'batch_1' && fail.has(r.customId)
          ? { customId: r.customId, ok: false as const, kind: 'expired' as const, reason: 'expired' }
          : r,
      );
    const s2 = new BatchScheduler({ ...opts, retryFailed: true, backend: second.backend, dir });
    const out = await Promise.all([
      s2.outcome('bad', () => 1),
      s2.outcome('bad', () => 1),
      s2.outcome('good', () => 1),
    ]);
    expect(out.map((o) => o.ok)).toEqual([true, true, true]);
    expect(second.created.slice(2).map((c) => c.map((e) => e.customId))).toEqual([['bad']]);
  });
});
