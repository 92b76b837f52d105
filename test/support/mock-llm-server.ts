import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  CachePrefixes,
  replyId,
  anthropicReply,
  checkAnthropic,
  checkOpenAI,
  defaultReply,
  openaiReply,
  type Protocol,
  type Responder,
} from './mock-llm-wire.ts';
import { MockRateLimiter, type RateLimitSpec } from './mock-rate-limit.ts';

/**
 * A loopback HTTP server that speaks the Anthropic Messages API (POST /v1/messages) and OpenAI Chat
 * Completions (POST /v1/chat/completions) to the real SDKs, with fixed latency and scripted faults:
 * 429 with retry-after, 5xx, responses slower than the client's timeout, dropped connections, and
 * 200s whose body is unusable (bad gzip, an HTML page, not JSON, JSON of the wrong shape).
 * Used by the provider/runner tests (in-process) and by the throughput bench (in its own process,
 * bench/mock-server.ts). GET /__stats returns the counters as JSON; POST /__reset zeroes them.
 */
export type Fault =
  | {
      type: 'status';
      status: number;
      retryAfter?: string;
      retryAfterMs?: number;
      message?: string;
      /** The error body's type (Anthropic `error.type`, OpenAI `error.type`). @default by status */
      errorType?: string;
      /** OpenAI's `error.code` (e.g. context_length_exceeded, model_not_found). */
      code?: string;
    }
  | { type: 'slow'; delayMs: number }
  | { type: 'drop' }
  /** 200 headers and half a body, then the connection is cut. */
  | { type: 'truncate' }
  /** 400 whose message quotes the request's credentials (tests that keys never reach a written file). */
  | { type: 'echo-auth' }
  /** 200 whose body says `content-encoding: gzip` but is not gzip. */
  | { type: 'bad-gzip' }
  /** 200 with an HTML page (a proxy's or a login page), content-type text/html. */
  | { type: 'html' }
  /** 200, content-type application/json, with a body that is not JSON (cut short at a valid length). */
  | { type: 'not-json' }
  /** 200 with valid JSON of the wrong shape (no choices / content). */
  | { type: 'wrong-shape' };

/** The bodies of the malformed-response faults (tests assert on their first bytes). */
export const malformedBodies = {
  'bad-gzip': Buffer.from('this is not gzip, whatever the header says'),
  html: '<!DOCTYPE html><html><head><title>Sign in</title></head><body>Please sign in</body></html>',
  'not-json': '{"id":"chatcmpl-x","choices":[{"message":{"role":"assist',
  'wrong-shape': '{"status":"ok","result":"queued"}',
} as const;

export interface FaultContext {
  /** 1-based sequence number of the HTTP request. */
  n: number;
  /** The SDK's x-stainless-retry-count: 0 on the first attempt of a call. */
  attempt: number;
  protocol: Protocol;
  body: any;
}

export type FaultRule = (ctx: FaultContext) => Fault | undefined;

export interface MockServerOptions {
  latencyMs?: number;
  faults?: FaultRule;
  responder?: Responder;
  /** Reject requests that break the wire rules (HTTP 400), as the real APIs do. @default true */
  validate?: boolean;
  /** Keep every parsed request body (tests inspect what the SDK sent). @default false */
  capture?: boolean;
  /**
   * Reply ids (tool-call ids included) from a digest of the request rather than its arrival order, as
   * the batch mock makes them: the same request gets the same reply whatever the order. @default false
   */
  deterministicIds?: boolean;
  /**
   * A rate limit per model (mock-rate-limit.ts): 429 with retry-after and the vendors' headers. Tests
   * may replace or remove it while the server runs (`server.options.rateLimit`).
   */
  rateLimit?: RateLimitSpec;
}

export interface MockStats {
  requests: number;
  /** Requests answered 200 (one per successful model call). */
  ok: number;
  byProtocol: Record<Protocol, number>;
  byStatus: Record<string, number>;
  faults: Record<string, number>;
  retriesSeen: number;
  inflight: number;
  maxInflight: number;
}

export interface MockServer {
  port: number;
  url: string;
  /** For ANTHROPIC_BASE_URL (the SDK adds /v1/messages). */
  anthropicBaseURL: string;
  /** For OPENAI_BASE_URL (the SDK adds /chat/completions). */
  openaiBaseURL: string;
  stats: MockStats;
  captured: { protocol: Protocol; body: any; headers: http.IncomingHttpHeaders }[];
  options: MockServerOptions;
  resetStats(): void;
  close(): Promise<void>;
}

const freshStats = (): MockStats => ({
  requests: 0,
  ok: 0,
  byProtocol: { anthropic: 0, openai: 0 },
  byStatus: {},
  faults: {},
  retriesSeen: 0,
  inflight: 0,
  maxInflight: 0,
});

export async function startMockLlmServer(options: MockServerOptions = {}): Promise<MockServer> {
  const stats = freshStats();
  const captured: MockServer['captured'] = [];
  const prefixes = new CachePrefixes();
  const server = http.createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/__stats') return send(res, 200, stats, {});
    if (req.method === 'POST' && req.url === '/__reset') {
      resetStats();
      // A fresh limit window too: a measurement after a warm-up starts with the quota a new run would
      // meet, not one the warm-up spent (its floor N/R assumes so).
      limiter = undefined;
      return send(res, 200, stats, {});
    }
    const protocol: Protocol | undefined = req.url?.endsWith('/v1/messages')
      ? 'anthropic'
      : req.url?.endsWith('/chat/completions')
        ? 'openai'
        : undefined;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (!protocol) return send(res, 404, { error: { message: `no route ${req.method} ${req.url}` } }, {});
      handle(protocol, req, res, Buffer.concat(chunks).toString('utf8'));
    });
  });
  const resetStats = () => {
    Object.assign(stats, freshStats(), { inflight: stats.inflight });
    captured.length = 0;
  };
  let seq = 0;
  let limiter: MockRateLimiter | undefined;
  const rateLimiter = (model: unknown, protocol: Protocol) => {
    const spec = options.rateLimit;
    if (!spec) return undefined;
    if (limiter?.spec !== spec) limiter = new MockRateLimiter(spec);
    return limiter.take(String(model ?? ''), protocol);
  };
  const handle = (protocol: Protocol, req: http.IncomingMessage, res: http.ServerResponse, raw: string) => {
    const n = ++seq;
    let id = `mock_${n}`;
    const idHeader = protocol === 'anthropic' ? 'request-id' : 'x-request-id';
    const headers: Record<string, string> = { [idHeader]: `req_${id}` };
    stats.requests++;
    stats.byProtocol[protocol]++;
    stats.maxInflight = Math.max(stats.maxInflight, ++stats.inflight);
    let done = false;
    const end = (status: number, payload: unknown, extra: Record<string, string> = {}) => {
      if (done) return;
      done = true;
      stats.inflight--;
      stats.byStatus[status] = (stats.byStatus[status] ?? 0) + 1;
      if (status === 200) stats.ok++;
      send(res, status, payload, { ...headers, ...extra });
    };
    res.on('close', () => {
      if (!done) {
        done = true;
        stats.inflight--;
      }
    });
    let body: any;
    try {
      body = JSON.parse(raw);
    } catch {
      return end(400, errorBody(protocol, 'invalid_request_error', 'body is not JSON'));
    }
    if (options.deterministicIds) id = replyId(body);
    const attempt = Number(req.headers['x-stainless-retry-count'] ?? 0);
    if (attempt > 0) stats.retriesSeen++;
    if (options.capture) captured.push({ protocol, body, headers: req.headers });
    const limit = rateLimiter(body?.model, protocol);
    if (limit && !limit.ok)
      return end(429, errorBody(protocol, 'rate_limit_error', 'rate limited (mock)'), limit.headers);
    if (limit) Object.assign(headers, limit.headers);
    const fault = options.faults?.({ n, attempt, protocol, body });
    if (fault) stats.faults[fault.type] = (stats.faults[fault.type] ?? 0) + 1;
    if (fault?.type === 'drop') {
      done = true;
      stats.inflight--;
      req.socket.destroy();
      return;
    }
    const delay = fault?.type === 'slow' ? fault.delayMs : (options.latencyMs ?? 0);
    const malformed = (kind: keyof typeof malformedBodies) => {
      done = true;
      stats.inflight--;
      stats.byStatus[200] = (stats.byStatus[200] ?? 0) + 1;
      const body = malformedBodies[kind];
      res.writeHead(200, {
        'content-type': kind === 'html' ? 'text/html; charset=utf-8' : 'application/json',
        ...(kind === 'bad-gzip' ? { 'content-encoding': 'gzip' } : {}),
        'content-length': String(Buffer.byteLength(body)),
        ...headers,
      });
      res.end(body);
    };
    const respond = () => {
      if (fault?.type === 'status') {
        const extra: Record<string, string> = {};
        if (fault.retryAfter !== undefined) extra['retry-after'] = fault.retryAfter;
        if (fault.retryAfterMs !== undefined) extra['retry-after-ms'] = String(fault.retryAfterMs);
        return end(
          fault.status,
          errorBody(
            protocol,
            fault.errorType ?? (fault.status === 429 ? 'rate_limit_error' : 'api_error'),
            fault.message ?? `injected ${fault.status}`,
            fault.code,
          ),
          extra,
        );
      }
      if (fault?.type === 'truncate') {
        done = true;
        stats.inflight--;
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '400', ...headers });
        res.write('{"id":"chatcmpl-trunc","choices":[{"mess');
        setTimeout(() => req.socket.destroy(), 5);
        return;
      }
      if (fault && fault.type in malformedBodies)
        return malformed(fault.type as keyof typeof malformedBodies);
      if (fault?.type === 'echo-auth')
        return end(
          400,
          errorBody(
            protocol,
            'invalid_request_error',
            `rejected credentials: ${req.headers['x-api-key'] ?? req.headers.authorization ?? ''}`,
          ),
        );
      const problem =
        options.validate === false
          ? undefined
          : protocol === 'anthropic'
            ? checkAnthropic(body)
            : checkOpenAI(body);
      if (problem) return end(400, errorBody(protocol, 'invalid_request_error', problem));
      const reply = options.responder?.(body, protocol) ?? defaultReply(body, protocol);
      end(
        200,
        protocol === 'anthropic'
          ? anthropicReply(body, reply, id, prefixes.anthropic(body))
          : openaiReply(body, reply, id),
      );
    };
    if (delay > 0) {
      const timer = setTimeout(respond, delay);
      res.on('close', () => clearTimeout(timer));
    } else respond();
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  return {
    port,
    url,
    anthropicBaseURL: url,
    openaiBaseURL: `${url}/v1`,
    stats,
    captured,
    options,
    resetStats,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function send(
  res: http.ServerResponse,
  status: number,
  payload: unknown,
  headers: Record<string, string>,
): void {
  if (res.destroyed) return;
  const text = JSON.stringify(payload);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

function errorBody(protocol: Protocol, type: string, message: string, code?: string): unknown {
  return protocol === 'anthropic'
    ? { type: 'error', error: { type, message } }
    : { error: { message, type, param: null, code: code ?? null } };
}

/** Faults on a fixed rhythm of first attempts (retries succeed, so every call recovers); the n-th first attempt gets the fault whatever the retries' timing. */
export function everyNth(
  rhythm: { status429?: number; status500?: number; slow?: number; drop?: number; truncate?: number },
  slowMs = 5_000,
): FaultRule {
  // Counted over first attempts only: the server's request number also counts retries, whose
  // timing varies, so a rhythm on it could skip a fault kind altogether in one run.
  let first = 0;
  return ({ attempt }) => {
    if (attempt > 0) return undefined;
    const n = ++first;
    if (rhythm.drop && n % rhythm.drop === 0) return { type: 'drop' };
    if (rhythm.truncate && n % rhythm.truncate === 0) return { type: 'truncate' };
    if (rhythm.slow && n % rhythm.slow === 0) return { type: 'slow', delayMs: slowMs };
    if (rhythm.status429 && n % rhythm.status429 === 0)
      return { type: 'status', status: 429, retryAfter: '0.02' };
    if (rhythm.status500 && n % rhythm.status500 === 0)
      return { type: 'status', status: 500, retryAfterMs: 10 };
    return undefined;
  };
}
