import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  CachePrefixes,
  anthropicReply,
  checkAnthropic,
  checkOpenAI,
  defaultReply,
  openaiReply,
  replyId,
  type Protocol,
  type Responder,
} from './mock-llm-wire.ts';
import {
  anthropicBatch,
  anthropicResultLine,
  openaiBatch,
  openaiErrorLine,
  multipartFile,
  json,
  jsonl,
} from './mock-batch-wire.ts';

/**
 * A loopback server speaking both vendors' batch protocols to the real SDKs:
 * - Anthropic Message Batches: POST /v1/messages/batches, GET /v1/messages/batches/:id (in_progress →
 *   ended, request_counts), GET …/:id/results (JSONL of succeeded / errored / canceled / expired);
 * - OpenAI Files + Batches: POST /v1/files (multipart JSONL upload), POST /v1/batches, GET
 *   /v1/batches/:id (validating → in_progress → finalizing → completed, or expired / failed),
 *   GET /v1/files/:id/content (the output and error files).
 * Each request is answered as the interactive mock would answer it (same replies, same wire checks, a
 * request-derived reply id); `outcome` scripts partial failures. Status moves with time: a batch ends
 * `processMs` after its creation.
 */
export type Outcome = 'errored' | 'expired' | 'canceled' | undefined;

export interface BatchMockOptions {
  processMs?: number;
  responder?: Responder;
  /** Per request: undefined answers it; otherwise it fails that way. `batch` counts from 1 per server. */
  outcome?: (ctx: { batch: number; customId: string; body: any; protocol: Protocol }) => Outcome;
  /** Faults, each a count consumed as requests arrive (tests set and reset them). */
  faults?: {
    /** Create calls that create the batch but never answer (the client times out; the batch exists). */
    hangCreates?: number;
    /** Create calls answered 500 without creating anything. */
    failCreates?: number;
    /** Status reads (GET one batch) answered 500: an outage of the batch API. */
    statusErrors?: number;
  };
}

export interface BatchMockStats {
  batches: number;
  /** Every custom_id submitted, in order (duplicates are resubmissions). */
  submitted: string[];
  polls: number;
  resultReads: number;
  uploads: number;
}

export interface MockBatch {
  metadata?: Record<string, string>;
  id: string;
  n: number;
  protocol: Protocol;
  createdAt: number;
  lines: { customId: string; body: any }[];
  results?: { customId: string; outcome: Outcome; reply?: unknown; problem?: string }[];
}

export interface BatchMock {
  url: string;
  anthropicBaseURL: string;
  openaiBaseURL: string;
  stats: BatchMockStats;
  options: BatchMockOptions;
  batches: Map<string, MockBatch>;
  close(): Promise<void>;
}

export async function startBatchMock(options: BatchMockOptions = {}): Promise<BatchMock> {
  const stats: BatchMockStats = { batches: 0, submitted: [], polls: 0, resultReads: 0, uploads: 0 };
  const batches = new Map<string, MockBatch>();
  const files = new Map<string, string>();
  const prefixes = new CachePrefixes();
  let url = '';
  const ended = (b: MockBatch) => Date.now() - b.createdAt >= (options.processMs ?? 100);
  /** Answers a batch's requests once, when it ends (as the vendor does, whenever it processes them). */
  const settle = (b: MockBatch) =>
    (b.results ??= b.lines.map(({ customId, body }) => {
      const outcome = options.outcome?.({ batch: b.n, customId, body, protocol: b.protocol });
      if (outcome) return { customId, outcome };
      const problem = b.protocol === 'anthropic' ? checkAnthropic(body) : checkOpenAI(body);
      if (problem) return { customId, outcome: 'errored' as const, problem };
      const reply = options.responder?.(body, b.protocol) ?? defaultReply(body, b.protocol);
      const id = replyId(body);
      return {
        customId,
        outcome: undefined,
        reply:
          b.protocol === 'anthropic'
            ? anthropicReply(body, reply, id, prefixes.anthropic(body))
            : openaiReply(body, reply, id),
      };
    }));
  const create = (protocol: Protocol, lines: MockBatch['lines']): MockBatch => {
    const n = ++stats.batches;
    const b: MockBatch = {
      id: protocol === 'anthropic' ? `msgbatch_mock${n}` : `batch_mock${n}`,
      n,
      protocol,
      createdAt: Date.now(),
      lines,
    };
    for (const l of lines) stats.submitted.push(l.customId);
    batches.set(b.id, b);
    return b;
  };
  const faults = () => (options.faults ??= {});
  /** Consumes one of a fault's count: true when this request is to fail that way. */
  const take = (k: keyof NonNullable<BatchMockOptions['faults']>) => {
    const n = faults()[k] ?? 0;
    if (n <= 0) return false;
    faults()[k] = n - 1;
    return true;
  };
  const serverError = (res: http.ServerResponse) =>
    json(res, 500, { type: 'error', error: { type: 'api_error', message: 'injected outage' } });
  /** Newest first, as both vendors list batches (one page). */
  const listed = (protocol: Protocol) =>
    [...batches.values()].filter((b) => b.protocol === protocol).sort((a, b) => b.n - a.n);
  const route = (req: http.IncomingMessage, raw: Buffer, res: http.ServerResponse) => {
    const path = (req.url ?? '').split('?')[0]!;
    let m: RegExpMatchArray | null;
    if (req.method === 'POST' && (path === '/v1/messages/batches' || path === '/v1/batches')) {
      if (take('failCreates')) return serverError(res);
      if (take('hangCreates')) {
        createBatch(path, raw, res);
        return; // created, never answered: the client's timeout ends the call
      }
      return createBatch(path, raw, res, true);
    }
    if (req.method === 'GET' && path === '/v1/messages/batches') {
      const data = listed('anthropic').map((b) => anthropicBatch(b, url, ended, settle));
      return json(res, 200, {
        data,
        has_more: false,
        first_id: data[0]?.id ?? null,
        last_id: data.at(-1)?.id ?? null,
      });
    }
    if (req.method === 'GET' && path === '/v1/batches') {
      const data = listed('openai').map((b) =>
        openaiBatch(b, files, ended, settle, options.processMs ?? 100),
      );
      return json(res, 200, {
        object: 'list',
        data,
        has_more: false,
        first_id: data[0]?.id,
        last_id: data.at(-1)?.id,
      });
    }
    if (req.method === 'GET' && /^\/v1\/(messages\/)?batches\/[^/]+$/.test(path) && take('statusErrors'))
      return serverError(res);
    if ((m = path.match(/^\/v1\/messages\/batches\/([^/]+)(\/results)?$/)) && req.method === 'GET') {
      const b = batches.get(m[1]!);
      if (!b)
        return json(res, 404, { type: 'error', error: { type: 'not_found_error', message: 'no batch' } });
      if (!m[2]) {
        stats.polls++;
        return json(res, 200, anthropicBatch(b, url, ended, settle));
      }
      if (!ended(b)) return json(res, 400, { type: 'error', error: { message: 'not ended' } });
      stats.resultReads++;
      return jsonl(
        res,
        settle(b).map((r) => anthropicResultLine(r)),
      );
    }
    if (req.method === 'POST' && path === '/v1/files') {
      stats.uploads++;
      const id = `file-in${files.size + 1}`;
      files.set(id, multipartFile(req, raw));
      return json(res, 200, {
        id,
        object: 'file',
        bytes: raw.length,
        created_at: 0,
        filename: 'batch.jsonl',
        purpose: 'batch',
        status: 'processed',
      });
    }
    if ((m = path.match(/^\/v1\/batches\/([^/]+)$/)) && req.method === 'GET') {
      const b = batches.get(m[1]!);
      if (!b) return json(res, 404, { error: { message: 'no batch', type: 'invalid_request_error' } });
      stats.polls++;
      return json(res, 200, openaiBatch(b, files, ended, settle, options.processMs ?? 100));
    }
    if ((m = path.match(/^\/v1\/files\/([^/]+)\/content$/)) && req.method === 'GET') {
      const text = files.get(m[1]!);
      if (text === undefined) return json(res, 404, { error: { message: 'no file' } });
      stats.resultReads++;
      res.writeHead(200, {
        'content-type': 'application/octet-stream',
        'content-length': Buffer.byteLength(text),
      });
      return res.end(text);
    }
    json(res, 404, { error: { message: `no route ${req.method} ${path}` } });
  };
  /** A create call: the batch is made; `answer` false leaves the call hanging (its batch exists). */
  function createBatch(path: string, raw: Buffer, res: http.ServerResponse, answer = false): void {
    const body = JSON.parse(raw.toString('utf8'));
    if (path === '/v1/messages/batches') {
      const lines = body.requests.map((r: any) => ({ customId: r.custom_id, body: r.params }));
      const b = create('anthropic', lines);
      if (answer) json(res, 200, anthropicBatch(b, url, ended, settle));
      return;
    }
    const text = files.get(body.input_file_id);
    if (text === undefined)
      return json(res, 400, { error: { message: 'no such input file', type: 'invalid_request_error' } });
    const lines = text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .map((l) => ({ customId: l.custom_id, body: l.body }));
    const b = create('openai', lines);
    if (body.metadata) b.metadata = body.metadata;
    if (answer) json(res, 200, openaiBatch(b, files, ended, settle, options.processMs ?? 100));
  }
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => route(req, Buffer.concat(chunks), res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    anthropicBaseURL: url,
    openaiBaseURL: `${url}/v1`,
    stats,
    options,
    batches,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
