import { ProviderError } from '../core/errors.ts';
import { appendBatchRecord, type SubmittedBatches } from './batch-journal.ts';
import { requestsTag } from './submit.ts';
import type { BatchBackend } from './types.ts';
import type { BatchEvent } from './types.ts';

/**
 * A submission journalled without its `created` line may exist at the vendor (a kill during the
 * create, or a create whose outcome stayed unknown): its batch is looked for first and adopted when
 * found (a `created` line marked adopted); only requests with no batch are submitted again. When the
 * vendor's batches cannot be listed, those requests fail in `unresolved` (the next run asks again)
 * rather than risk a second paid copy.
 */
export async function adoptUnconfirmed(
  journal: SubmittedBatches,
  backend: BatchBackend,
  dir: string,
  unresolved: Map<string, ProviderError>,
  onEvent?: (e: BatchEvent) => void,
): Promise<void> {
  const { provider } = backend;
  for (const u of journal.unconfirmed) {
    const event = (state: string, batchId = `(local ${u.local})`) => onEvent?.({ provider, batchId, state });
    let found: string | undefined;
    try {
      const probe = { customIds: u.submitted, tag: requestsTag(u.submitted), since: u.at };
      found = await backend.find({ ...probe, exclude: journal.known });
    } catch (err) {
      const e = createError(provider, u.requests, err, 'checking whether the vendor created a batch of');
      for (const id of u.customIds) unresolved.set(id, e);
      event(
        `not confirmed created, and the vendor's batches could not be listed: its ${u.requests} requests fail this run (run again to check)`,
      );
      continue;
    }
    if (!found) {
      event(
        `not confirmed created before the run stopped, and not at the vendor: its ${u.requests} requests are submitted again`,
      );
      continue;
    }
    appendBatchRecord(dir, {
      kind: 'created',
      provider,
      local: u.local,
      batchId: found,
      at: new Date().toISOString(),
      adopted: true,
    });
    journal.known.add(found);
    for (const id of u.customIds) journal.batchOf.set(id, found);
    event('adopted: created at the vendor though not confirmed before the run stopped', found);
  }
}

export function firstLine(err: unknown): string {
  return String((err as Error)?.message ?? err)
    .split('\n')[0]!
    .slice(0, 200);
}

/** A failed submission as every waiting call's error (row code batch_create_failed; 401/403 stop the run). */
export function createError(provider: string, n: number, err: unknown, what: string): ProviderError {
  const status = (err as { status?: number } | null)?.status;
  return new ProviderError(
    provider,
    `${provider}: ${what} ${n} requests failed: ${firstLine(err)}`,
    status,
    undefined,
    {
      cause: err,
      code: 'batch_create_failed',
      fatal: [401, 403].includes(status ?? 0),
    },
  );
}
