import { closeSync, existsSync, fsyncSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { readJsonl, repairJsonl } from '../core/journal.ts';

/**
 * batches.jsonl in the run directory: every batch this run submitted. A `submitting` line (its
 * provider, local id and every request's custom_id) is written and fsynced before the vendor is asked
 * to create the batch, and a `created` line with the vendor's batch id right after. A resumed run reads
 * it to poll those batches instead of submitting their requests again.
 */
export type BatchRecord =
  | { kind: 'submitting'; provider: string; local: string; customIds: string[]; at: string }
  | { kind: 'created'; provider: string; local: string; batchId: string; at: string; adopted?: boolean };

export interface SubmittedBatches {
  /** custom_id → the vendor batch id of its latest submission, per provider. */
  batchOf: Map<string, string>;
  /**
   * Local ids whose `created` line is missing (a kill during the create call, or a create whose outcome
   * stayed unknown): the vendor's batches are listed for them before their requests are sent again.
   * `customIds` are the requests still waiting on it, `submitted` all it held (what the vendor holds).
   */
  unconfirmed: {
    provider: string;
    local: string;
    requests: number;
    customIds: string[];
    submitted: string[];
    at: string;
  }[];
  /** Every vendor batch id journalled for this provider (never adopted for another submission). */
  known: Set<string>;
  /** How many local ids are in use (new ones continue the count). */
  count: number;
}

export const batchJournalName = 'batches.jsonl';

export function readBatchJournal(dir: string, provider: string): SubmittedBatches {
  // A torn last line (a kill mid-write) is cut, so the next record starts on a line of its own.
  repairJsonl(join(dir, batchJournalName));
  const records = readJsonl<BatchRecord>(join(dir, batchJournalName));
  const pending = new Map<string, { ids: string[]; at: string }>();
  const known = new Set<string>();
  // Each custom_id's latest submission (the last `submitting` line naming it), whatever order the
  // `created` lines come in: a request resubmitted (--retry-errors, an expired batch) is answered by
  // its new batch, never the old one; one whose latest submission is unconfirmed maps to no batch.
  const latest = new Map<string, string>();
  const batchOf = new Map<string, string>();
  let count = 0;
  for (const r of records) {
    if (r.provider !== provider) continue;
    if (r.kind === 'submitting') {
      pending.set(r.local, { ids: r.customIds, at: r.at });
      for (const id of r.customIds) {
        latest.set(id, r.local);
        batchOf.delete(id);
      }
      count++;
    } else {
      known.add(r.batchId);
      for (const id of pending.get(r.local)?.ids ?? [])
        if (latest.get(id) === r.local) batchOf.set(id, r.batchId);
      pending.delete(r.local);
    }
  }
  // An unconfirmed submission whose requests were all submitted again later is no longer waiting.
  const unconfirmed = [...pending]
    .map(([local, { ids, at }]) => {
      const customIds = ids.filter((id) => latest.get(id) === local);
      return { provider, local, requests: customIds.length, customIds, submitted: ids, at };
    })
    .filter((u) => u.requests > 0);
  return { batchOf, unconfirmed, known, count };
}

/** One line, written and fsynced before returning (a batch record must survive a kill -9 right after). */
export function appendBatchRecord(dir: string, record: BatchRecord): void {
  const file = join(dir, batchJournalName);
  const fd = openSync(file, existsSync(file) ? 'a' : 'wx');
  try {
    writeSync(fd, `${JSON.stringify(record)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
