import type { ResolvedConfig } from '../config/types.ts';
import { fromOpenAIReply, toOpenAIBody, type OpenAIReply } from '../providers/wire-openai.ts';
import { estimatedUsage, openaiWireFor } from '../providers/openai.ts';
import { resolveClientSettings, sdkOptions, openaiKeys } from '../providers/wire-client.ts';
import { vendorLimits, type BatchBackend, type BatchOutcome, type BatchStatus } from './types.ts';

const ENDPOINT = '/v1/chat/completions';

interface OpenAIBatch {
  id: string;
  status: string;
  created_at?: number;
  metadata?: Record<string, string> | null;
  output_file_id?: string | null;
  error_file_id?: string | null;
  request_counts?: { total: number; completed: number; failed: number };
  errors?: { data?: { code?: string; message?: string }[] } | null;
}

interface OutputLine {
  custom_id: string;
  response?: { status_code: number; request_id?: string; body: unknown } | null;
  error?: { code?: string | null; message?: string | null } | null;
}

interface FilesBatchesClient {
  files: {
    create(body: { file: unknown; purpose: 'batch' }): Promise<{ id: string }>;
    content(id: string): Promise<{ text(): Promise<string> }>;
  };
  batches: {
    create(
      body: {
        input_file_id: string;
        endpoint: string;
        completion_window: '24h';
        metadata: Record<string, string>;
      },
      options?: { maxRetries?: number },
    ): Promise<OpenAIBatch>;
    list(query?: { limit?: number }): AsyncIterable<OpenAIBatch>;
    retrieve(id: string): Promise<OpenAIBatch>;
  };
}

/** The batch's metadata key holding the digest of its custom_ids (how `find` recognises it). */
const TAG_KEY = 'handoff_eval_requests';
/** How far the vendor's clock may be behind ours; batches listed at most when looking for one. */
const CLOCK_SKEW_MS = 5 * 60_000;
const LIST_LIMIT = 1_000;

const ENDED = new Set(['completed', 'failed', 'expired', 'cancelled']);

/**
 * The OpenAI Batch API through the `openai` SDK: the requests as a JSONL input file (`files.create`,
 * purpose batch), `batches.create` on /v1/chat/completions with the 24 h completion window,
 * `batches.retrieve` for the status, and the output and error files (`files.content`) for the results.
 */
export async function createOpenAIBatchBackend(
  config: ResolvedConfig,
  env: NodeJS.ProcessEnv = process.env,
): Promise<BatchBackend> {
  const { client, toFile, wire, settings } = await openaiClient(config, env);
  const lineOf = (customId: string, body: unknown) =>
    JSON.stringify({ custom_id: customId, method: 'POST', url: ENDPOINT, body });
  const readLines = (fileId: string | null | undefined) => outputLines(client, fileId);
  return {
    provider: 'openai',
    limits: vendorLimits.openai,
    toBody: (req) => toOpenAIBody(req, wire),
    entryBytes: (e) => Buffer.byteLength(lineOf(e.customId, e.body)) + 1,
    createAttempts: settings.maxRetries + 1,
    async create(entries, tag) {
      const jsonl = `${entries.map((e) => lineOf(e.customId, e.body)).join('\n')}\n`;
      const file = await client.files.create({
        file: await toFile(Buffer.from(jsonl), 'handoff-eval-batch.jsonl'),
        purpose: 'batch',
      });
      // The upload may be retried (a second copy of a file costs nothing); the create may not.
      const batch = await client.batches.create(
        {
          input_file_id: file.id,
          endpoint: ENDPOINT,
          completion_window: '24h',
          metadata: { [TAG_KEY]: tag },
        },
        { maxRetries: 0 },
      );
      return batch.id;
    },
    async find(probe) {
      const from = Date.parse(probe.since) - CLOCK_SKEW_MS;
      let match: string | undefined;
      let seen = 0;
      for await (const b of client.batches.list({ limit: 100 })) {
        if (++seen > LIST_LIMIT || (b.created_at ?? 0) * 1000 < from) break;
        if (b.metadata?.[TAG_KEY] === probe.tag && !probe.exclude.has(b.id)) match = b.id;
      }
      return match;
    },
    async retrieve(id) {
      return statusOf(await client.batches.retrieve(id));
    },
    async results(id) {
      const batch = await client.batches.retrieve(id);
      const lines = [...(await readLines(batch.output_file_id)), ...(await readLines(batch.error_file_id))];
      return lines.map((l) => outcomeOf(l, id));
    },
    fromReply(reply, req) {
      const r = reply as OpenAIReply & { id?: string };
      const out = fromOpenAIReply(r, req);
      return { ...out, usage: out.usage ?? estimatedUsage(req, out), requestId: r.id };
    },
    async close() {},
  };
}

/** The `openai` SDK's client over the harness's settings (key, base URL, fetch transport), and the wire shape. */
async function openaiClient(config: ResolvedConfig, env: NodeJS.ProcessEnv) {
  const settings = resolveClientSettings(openaiKeys, config, env);
  const { default: OpenAI, toFile } = await import('openai');
  const { options } = sdkOptions({ ...settings, transport: 'fetch' });
  const client = new OpenAI(
    options as ConstructorParameters<typeof OpenAI>[0],
  ) as unknown as FilesBatchesClient;
  const wire = openaiWireFor(settings.baseURL);
  return { client, toFile, wire, settings };
}

/** A results file's lines (none when the batch has no such file). */
async function outputLines(
  client: FilesBatchesClient,
  fileId: string | null | undefined,
): Promise<OutputLine[]> {
  if (!fileId) return [];
  const text = await (await client.files.content(fileId)).text();
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as OutputLine);
}

function statusOf(b: OpenAIBatch): BatchStatus {
  const c = b.request_counts ?? { total: 0, completed: 0, failed: 0 };
  const note = b.errors?.data?.map((e) => `${e.code ?? 'error'}: ${e.message ?? ''}`).join('; ');
  return {
    id: b.id,
    state: note && b.status === 'failed' ? `failed (${note})` : b.status,
    ended: ENDED.has(b.status),
    total: c.total,
    succeeded: c.completed,
    failed: c.failed,
    processing: Math.max(0, c.total - c.completed - c.failed),
  };
}

function outcomeOf(line: OutputLine, batchId: string): BatchOutcome {
  const customId = line.custom_id;
  const res = line.response;
  if (res && res.status_code >= 200 && res.status_code < 300 && !line.error)
    return { customId, ok: true, reply: res.body, requestId: res.request_id };
  const code = line.error?.code ?? (res?.body as { error?: { code?: string } })?.error?.code ?? undefined;
  const message =
    line.error?.message ?? (res?.body as { error?: { message?: string } })?.error?.message ?? '(no message)';
  const kind = code === 'batch_expired' ? 'expired' : code === 'batch_cancelled' ? 'canceled' : 'errored';
  const status = res?.status_code;
  return {
    customId,
    ok: false,
    kind,
    reason: `batch ${batchId}: request ${kind}${status ? ` (HTTP ${status})` : ''}: ${code ? `${code}: ` : ''}${message}`,
    ...(status ? { status } : {}),
  };
}
