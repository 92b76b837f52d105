import type { ResolvedConfig } from '../config/types.ts';
import { fromAnthropicReply, toAnthropicBody, type AnthropicReply } from '../providers/wire-anthropic.ts';
import { resolveClientSettings, sdkOptions, anthropicKeys } from '../providers/wire-client.ts';
import {
  vendorLimits,
  type BatchBackend,
  type BatchOutcome,
  type BatchProbe,
  type BatchStatus,
} from './types.ts';

interface AnthropicBatch {
  id: string;
  created_at?: string;
  processing_status: 'in_progress' | 'canceling' | 'ended';
  request_counts: {
    processing: number;
    succeeded: number;
    errored: number;
    canceled: number;
    expired: number;
  };
}

type AnthropicResultLine = {
  custom_id: string;
  result:
    | { type: 'succeeded'; message: AnthropicReply & { id?: string } }
    | { type: 'errored'; error: { error?: { type?: string; message?: string } } }
    | { type: 'expired' }
    | { type: 'canceled' };
};

interface BatchesClient {
  messages: {
    batches: {
      create(body: unknown, options?: { maxRetries?: number }): Promise<AnthropicBatch>;
      list(query?: { limit?: number }): AsyncIterable<AnthropicBatch>;
      retrieve(id: string): Promise<AnthropicBatch>;
      results(id: string): Promise<AsyncIterable<AnthropicResultLine>>;
    };
  };
}

/**
 * The Message Batches API through @anthropic-ai/sdk: `messages.batches.create` with `{custom_id,
 * params}` requests, `retrieve` for processing_status and request_counts, `results` for the JSONL of
 * succeeded / errored / canceled / expired results. The client uses the SDK's own fetch: results are
 * streamed, which the lean transport of the interactive path does not do.
 */
export async function createAnthropicBatchBackend(
  config: ResolvedConfig,
  env: NodeJS.ProcessEnv = process.env,
): Promise<BatchBackend> {
  const settings = resolveClientSettings(anthropicKeys, config, env);
  const { default: Anthropic } = await import('@anthropic-ai/sdk');
  const { options } = sdkOptions({ ...settings, transport: 'fetch' });
  const client = new Anthropic(
    options as ConstructorParameters<typeof Anthropic>[0],
  ) as unknown as BatchesClient;
  return {
    provider: 'anthropic',
    limits: vendorLimits.anthropic,
    toBody: toAnthropicBody,
    entryBytes: (e) => Buffer.byteLength(JSON.stringify({ custom_id: e.customId, params: e.body })) + 1,
    createAttempts: settings.maxRetries + 1,
    async create(entries) {
      const batch = await client.messages.batches.create(
        { requests: entries.map((e) => ({ custom_id: e.customId, params: e.body })) },
        { maxRetries: 0 },
      );
      return batch.id;
    },
    find: (probe) => findBatch(client, probe),
    async retrieve(id) {
      return statusOf(await client.messages.batches.retrieve(id));
    },
    async results(id) {
      const out: BatchOutcome[] = [];
      for await (const line of await client.messages.batches.results(id)) out.push(outcomeOf(line, id));
      return out;
    },
    fromReply(reply, req) {
      const r = reply as AnthropicReply & { id?: string };
      return { ...fromAnthropicReply(r, req), requestId: r.id };
    },
    async close() {},
  };
}

/** How far a vendor's clock may be behind ours when a batch's created_at is compared with the journal's time. */
const CLOCK_SKEW_MS = 5 * 60_000;
/** Batches listed at most, newest first, when looking for one (a submission is among the most recent). */
const LIST_LIMIT = 1_000;

/**
 * A Message Batch carries no metadata, so the one holding a submission is recognised by what it does
 * carry: created since the submission was journalled (less a clock skew), not journalled already,
 * the same number of requests, and — once it has ended and its results can be read — exactly these
 * custom_ids. The oldest match wins (a copy made by an earlier retry is the one to keep). A batch
 * adopted while in progress is checked by its results too: a request missing from them is an
 * error row naming the batch, never another request's answer.
 */
async function findBatch(client: BatchesClient, probe: BatchProbe): Promise<string | undefined> {
  const from = Date.parse(probe.since) - CLOCK_SKEW_MS;
  const want = new Set(probe.customIds);
  let match: string | undefined;
  let seen = 0;
  for await (const b of client.messages.batches.list({ limit: 100 })) {
    if (++seen > LIST_LIMIT || Date.parse(b.created_at ?? '') < from) break;
    if (probe.exclude.has(b.id) || statusOf(b).total !== want.size) continue;
    if (b.processing_status === 'ended' && !(await holdsExactly(client, b.id, want))) continue;
    match = b.id;
  }
  return match;
}

async function holdsExactly(client: BatchesClient, id: string, want: Set<string>): Promise<boolean> {
  let n = 0;
  for await (const line of await client.messages.batches.results(id)) {
    if (!want.has(line.custom_id)) return false;
    n++;
  }
  return n === want.size;
}

function statusOf(b: AnthropicBatch): BatchStatus {
  const c = b.request_counts;
  const failed = c.errored + c.canceled + c.expired;
  return {
    id: b.id,
    state: b.processing_status,
    ended: b.processing_status === 'ended',
    total: c.processing + c.succeeded + failed,
    succeeded: c.succeeded,
    failed,
    processing: c.processing,
  };
}

function outcomeOf(line: AnthropicResultLine, batchId: string): BatchOutcome {
  const r = line.result;
  const customId = line.custom_id;
  if (r.type === 'succeeded') return { customId, ok: true, reply: r.message };
  if (r.type === 'errored') {
    const e = r.error?.error;
    return {
      customId,
      ok: false,
      kind: 'errored',
      reason: `batch ${batchId}: request errored: ${e?.type ?? 'error'}: ${e?.message ?? '(no message)'}`,
    };
  }
  const why =
    r.type === 'expired'
      ? 'request expired (the batch ended, 24 h after creation, before it was processed)'
      : 'request canceled (the batch was canceled before it was processed)';
  return { customId, ok: false, kind: r.type, reason: `batch ${batchId}: ${why}` };
}
