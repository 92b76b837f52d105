import { hash } from 'node:crypto';
import type { BatchBackend, BatchEntry } from './types.ts';

/**
 * Creating a batch costs money and is not idempotent: a create that times out may have created the
 * batch, and the SDK's blind retry would create another copy with the same custom_ids (issue 28 #7).
 * So the SDK never retries a create; when one's outcome is unknown, the vendor's recent batches are
 * listed and the one holding these requests adopted, and only when none is there is it sent again.
 */

/** A digest of a submission's custom_ids: the mark `find` recognises a batch by (OpenAI metadata). */
export function requestsTag(customIds: readonly string[]): string {
  return hash('sha256', [...customIds].sort().join('\n'), 'hex').slice(0, 40);
}

/** Whether the vendor may have acted on a failed call: no HTTP answer (timeout, connection) or a 5xx / 408 / 409. */
export function outcomeUnknown(err: unknown): boolean {
  const status = (err as { status?: unknown } | null)?.status;
  if (typeof status !== 'number') return !isAbort(err);
  return status >= 500 || status === 408 || status === 409;
}

/** Whether a read may succeed if asked again later (the outage passes): unknown outcomes and 429. */
export function transient(err: unknown): boolean {
  return outcomeUnknown(err) || (err as { status?: unknown } | null)?.status === 429;
}

export function isAbort(err: unknown): boolean {
  const name = (err as { name?: unknown } | null)?.name;
  return name === 'AbortError' || name === 'APIUserAbortError';
}

export interface CreateContext {
  backend: BatchBackend;
  /** Batch ids already journalled: never adopted for another submission. */
  exclude: ReadonlySet<string>;
  /** The wait before listing, doubled per attempt (capped at 30 s). */
  backoffMs: number;
  signal?: AbortSignal;
}

/**
 * The vendor's id for a batch of these entries: created once, or adopted after an ambiguous create.
 * A definite refusal (a 4xx) fails at once; when every attempt was ambiguous and no batch is found,
 * the last error is thrown (the journal's `submitting` line stays unconfirmed, and the next run lists
 * the vendor's batches again before it submits).
 */
export async function createOrAdopt(
  ctx: CreateContext,
  entries: BatchEntry[],
  since: string,
): Promise<{ batchId: string; adopted: boolean }> {
  const customIds = entries.map((e) => e.customId);
  const tag = requestsTag(customIds);
  const probe = { customIds, tag, since, exclude: ctx.exclude };
  const attempts = Math.max(1, ctx.backend.createAttempts);
  let last: unknown;
  for (let attempt = 0; attempt <= attempts; attempt++) {
    if (attempt > 0) {
      await sleep(Math.min(30_000, ctx.backoffMs * 2 ** (attempt - 1)), ctx.signal);
      if (ctx.signal?.aborted) throw last;
      const found = await ctx.backend.find(probe);
      if (found) return { batchId: found, adopted: true };
      if (attempt === attempts) break;
    }
    try {
      return { batchId: await ctx.backend.create(entries, tag), adopted: false };
    } catch (err) {
      if (!outcomeUnknown(err)) throw err;
      last = err;
    }
  }
  throw last;
}

export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
