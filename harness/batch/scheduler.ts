import { ProviderError } from '../core/errors.ts';
import { appendBatchRecord, readBatchJournal } from './batch-journal.ts';
import { createOrAdopt, isAbort, sleep, transient } from './submit.ts';
import { adoptUnconfirmed, createError, firstLine } from './adopt.ts';
import type { BatchBackend, BatchEntry, BatchOutcome, BatchSettings, BatchStatus } from './types.ts';

/** One status read of one batch, for the progress output. */
export type { BatchEvent } from './types.ts';
import type { BatchEvent } from './types.ts';

export interface SchedulerOptions {
  backend: BatchBackend;
  /** The run directory (batches.jsonl). */
  dir: string;
  settings: BatchSettings;
  /** --retry-errors: a journalled request whose result failed is submitted again (once). */
  retryFailed: boolean;
  /** --detach: once every waiting call waits on a submitted, unfinished batch, call onDetach. */
  detach: boolean;
  onDetach?: () => void;
  onEvent?: (e: BatchEvent) => void;
  signal?: AbortSignal;
}

/** An ended batch: its final state and each request's outcome by custom_id. */
interface Ended {
  state: string;
  results: Map<string, BatchOutcome>;
}

interface Queued {
  entry: BatchEntry;
  created: Deferred<string>;
}

interface Deferred<T> {
  promise: Promise<T>;
  resolve(v: T): void;
  reject(e: unknown): void;
}

/**
 * Queues requests, submits them as batches once the queue stops growing (a dependency phase is
 * complete: every cell in flight waits on a queued call) or reaches the batch limit, journals each
 * batch before and after its creation, polls it until it ends, and hands each request its outcome.
 * A request already submitted (this process or, per the journal, an earlier one) is never submitted
 * again; with retryFailed, one that failed in an earlier process is, once.
 */
export class BatchScheduler {
  private readonly queue = new Map<string, Queued>();
  private readonly watches = new Map<string, Promise<Ended>>();
  private readonly mine = new Set<string>();
  private readonly retried = new Map<string, Promise<BatchOutcome>>();
  private readonly creating = new Set<Promise<unknown>>();
  private readonly journal: ReturnType<typeof readBatchJournal>;
  private readonly ready: Promise<void>;
  /** Requests whose earlier submission could not be checked at the vendor: failed, not resubmitted. */
  private readonly unresolved = new Map<string, ProviderError>();
  private timer: NodeJS.Timeout | undefined;
  private readonly maxRequests: number;
  private readonly maxBytes: number;
  private readonly quietMs: number;
  private readonly pollMs: number;
  /** Requests submitted by this process. */
  submitted = 0;

  constructor(private readonly o: SchedulerOptions) {
    const { limits, provider } = o.backend;
    this.maxRequests = Math.max(
      1,
      Math.min(o.settings.maxRequests ?? limits.maxRequests, limits.maxRequests),
    );
    this.maxBytes = Math.max(1, Math.min(o.settings.maxBytes ?? limits.maxBytes, limits.maxBytes));
    this.quietMs = o.settings.quietMs ?? 500;
    this.pollMs = o.settings.pollMs ?? 30_000;
    this.journal = readBatchJournal(o.dir, provider);
    this.ready = adoptUnconfirmed(this.journal, o.backend, o.dir, this.unresolved, o.onEvent);
    o.signal?.addEventListener('abort', () => this.abortQueued(), { once: true });
  }

  /** The outcome of the request with this custom_id (submitting it if it never was). */
  async outcome(customId: string, body: () => unknown): Promise<BatchOutcome> {
    await this.ready;
    const failed = this.unresolved.get(customId);
    if (failed) throw failed;
    const known = this.journal.batchOf.get(customId);
    if (known) {
      const out = await this.resultOf(known, customId);
      if (out.ok || !this.o.retryFailed || this.mine.has(known)) return out;
      // Failed in an earlier process: submitted again once; every call for it shares that submission.
      let again = this.retried.get(customId);
      if (!again) {
        this.journal.batchOf.delete(customId);
        again = this.enqueue(customId, body).then((id) => this.resultOf(id, customId));
        this.retried.set(customId, again);
      }
      return again;
    }
    const batchId = await this.enqueue(customId, body);
    return this.resultOf(batchId, customId);
  }

  private enqueue(customId: string, body: () => unknown): Promise<string> {
    const queued = this.queue.get(customId);
    if (queued) return queued.created.promise;
    if (this.o.signal?.aborted) return Promise.reject(abortError());
    const created = deferred<string>();
    this.queue.set(customId, { entry: { customId, body: body() }, created });
    if (this.queue.size >= this.maxRequests) this.flush();
    else {
      if (this.timer) clearTimeout(this.timer);
      this.timer = setTimeout(() => this.flush(), this.quietMs);
    }
    return created.promise;
  }

  /** Submits everything queued, split within the batch limits. */
  private flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const items = [...this.queue.values()];
    this.queue.clear();
    for (const chunk of this.split(items)) {
      const p = this.create(chunk).finally(() => this.creating.delete(p));
      this.creating.add(p);
    }
  }

  private split(items: Queued[]): Queued[][] {
    const chunks: Queued[][] = [];
    let chunk: Queued[] = [];
    let bytes = 0;
    for (const item of items) {
      const size = this.o.backend.entryBytes(item.entry);
      if (chunk.length && (chunk.length >= this.maxRequests || bytes + size > this.maxBytes)) {
        chunks.push(chunk);
        chunk = [];
        bytes = 0;
      }
      chunk.push(item);
      bytes += size;
    }
    if (chunk.length) chunks.push(chunk);
    return chunks;
  }

  private async create(chunk: Queued[]): Promise<void> {
    const { provider } = this.o.backend;
    const local = `b${++this.journal.count}`;
    const customIds = chunk.map((q) => q.entry.customId);
    try {
      const at = now();
      appendBatchRecord(this.o.dir, { kind: 'submitting', provider, local, customIds, at });
      const ctx = {
        backend: this.o.backend,
        exclude: this.journal.known,
        backoffMs: Math.min(this.pollMs, 2_000),
        signal: this.o.signal,
      };
      const { batchId, adopted } = await createOrAdopt(
        ctx,
        chunk.map((q) => q.entry),
        at,
      );
      appendBatchRecord(this.o.dir, {
        kind: 'created',
        provider,
        local,
        batchId,
        at: now(),
        ...(adopted ? { adopted } : {}),
      });
      if (adopted)
        this.o.onEvent?.({
          provider,
          batchId,
          state: 'adopted: the create timed out, but the vendor had created it',
        });
      this.journal.known.add(batchId);
      this.mine.add(batchId);
      this.submitted += chunk.length;
      for (const id of customIds) this.journal.batchOf.set(id, batchId);
      for (const q of chunk) q.created.resolve(batchId);
    } catch (err) {
      const e = createError(provider, chunk.length, err, 'creating a batch of');
      for (const q of chunk) q.created.reject(e);
    }
  }

  /** The outcome of one request of a batch: the batch is polled until it ends, its results read once. */
  private async resultOf(batchId: string, customId: string): Promise<BatchOutcome> {
    let watch = this.watches.get(batchId);
    if (!watch) {
      watch = this.watch(batchId);
      this.watches.set(batchId, watch);
      // A failed read is not remembered: the next call for that batch polls again.
      watch.catch(() => this.watches.delete(batchId));
    }
    const ended = await watch;
    return (
      ended.results.get(customId) ?? {
        customId,
        ok: false,
        kind: 'errored',
        reason: `batch ${batchId} ended (${ended.state}) without a result for this request`,
      }
    );
  }

  /**
   * Polls until the vendor's own verdict (ended: completed, failed, expired, cancelled). A batch runs
   * for hours, far past the SDK's retries: a status or results read that fails transiently (no
   * answer, a 5xx, a 429) is read again after a growing wait; only a definite refusal (a 4xx such
   * as 404 or 401) or the run's own abort ends the watch.
   */
  private async watch(batchId: string): Promise<Ended> {
    const { backend, onEvent } = this.o;
    let failures = 0;
    for (;;) {
      if (this.o.signal?.aborted) throw abortError();
      try {
        const status = await backend.retrieve(batchId);
        onEvent?.({ provider: backend.provider, ...status, batchId });
        if (status.ended) {
          const results = new Map((await backend.results(batchId)).map((r) => [r.customId, r] as const));
          return { state: status.state, results };
        }
        failures = 0;
      } catch (err) {
        if (isAbort(err) || !transient(err)) throw err;
        failures++;
        const wait = Math.min(MAX_POLL_BACKOFF_MS, this.pollMs * 2 ** failures);
        onEvent?.({
          provider: backend.provider,
          batchId,
          state: `status unavailable (${firstLine(err)}); asking again in ${Math.round(wait / 1000)} s`,
        });
        await sleep(wait, this.o.signal);
        continue;
      }
      if (this.o.detach && this.queue.size === 0 && !this.timer && this.creating.size === 0)
        this.o.onDetach?.();
      await sleep(this.pollMs, this.o.signal);
    }
  }

  private abortQueued(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    for (const q of this.queue.values()) q.created.reject(abortError());
    this.queue.clear();
  }

  /** Waits for batch creations under way (a batch created but not journalled would be submitted twice). */
  async close(): Promise<void> {
    await Promise.allSettled([...this.creating]);
  }
}

function deferred<T>(): Deferred<T> {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.catch(() => {});
  return { promise, resolve, reject };
}

function abortError(): Error {
  return new DOMException('The operation was aborted.', 'AbortError');
}

const now = () => new Date().toISOString();

/** The longest wait between two status reads while the vendor's batch API is failing. */
const MAX_POLL_BACKOFF_MS = 5 * 60_000;
