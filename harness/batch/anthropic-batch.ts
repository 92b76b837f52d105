import type { ResolvedConfig } from '../config/types.ts';
import { fromAnthropicReply, toAnthropicBody, type AnthropicReply } from '../providers/wire-anthropic.ts';
import { resolveClientSettings, sdkOptions, anthropicKeys } from '../providers/wire-client.ts';
import { vendorLimits, type BatchBackend, type BatchOutcome, type BatchStatus } from './types.ts';

interface AnthropicBatch {
  id: string;
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
      create(body: unknown): Promise<AnthropicBatch>;
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
    async create(entries) {
      const batch = await client.messages.batches.create({
        requests: entries.map((e) => ({ custom_id: e.customId, params: e.body })),
      });
      return batch.id;
    },
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
