import http from 'node:http';
import https from 'node:https';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { BodyError, bodyStart, checkBody } from './body-check.ts';
import { LeanResponse } from './lean-response.ts';

export { LeanHeaders, LeanResponse } from './lean-response.ts';

/**
 * A lean keep-alive HTTP transport handed to the vendor SDKs as their `fetch`. The SDKs keep what
 * they are good at (request building, typed errors, the one retry layer, usage parsing); this replaces
 * only the global fetch underneath, which costs most of an SDK call's CPU (shared/PERF-NOTES.md).
 *
 * It implements the part of fetch the SDKs use for non-streaming JSON calls: method, headers, a string
 * or byte body, an AbortSignal; the response is read whole before the promise resolves, so the SDK's
 * timeout covers the body too. Streaming responses are not supported (the harness never streams).
 */
export interface Transport {
  fetch: (input: string | URL | { url: string }, init?: TransportInit) => Promise<LeanResponse>;
  stats: TransportStats;
  close(): void;
}

export interface TransportStats {
  requests: number;
  inflight: number;
  maxInflight: number;
}

/** Per-call attempt counter, passed through the SDK as a fetch option (`fetchOptions`). */
export interface AttemptTag {
  attempts: number;
  /** The request id of the last HTTP response, kept for errors the SDK reports without one. */
  lastRequestId?: string;
  /**
   * What a 2xx body must look like for the vendor's reply parser (undefined: fine, else what is
   * wrong). A body that fails it — or does not decode, or is not JSON — is rejected as a BodyError,
   * which the SDK retries like a connection failure: the one retry layer, under the 5xx policy.
   */
  check?: (json: unknown) => string | undefined;
  /** The BodyError of the last attempt, if that attempt's body was unusable. */
  lastBodyError?: BodyError;
  /** The request's model: its rate gate (harness/providers/ratelimit/). */
  model?: string;
}

/** The fetchOptions key that carries an AttemptTag to the transport. */
export const ATTEMPT_TAG = 'handoffAttemptTag';

export interface TransportInit {
  method?: string;
  headers?: HeadersLike;
  body?: string | Uint8Array | null;
  signal?: AbortSignal | null;
  [ATTEMPT_TAG]?: AttemptTag;
}

type HeadersLike =
  { forEach(cb: (value: string, key: string) => void): void } | Record<string, string> | [string, string][];

export function createTransport(opts: { maxSockets: number }): Transport {
  const agentOptions = {
    keepAlive: true,
    maxSockets: opts.maxSockets,
    maxFreeSockets: opts.maxSockets,
    scheduling: 'lifo' as const,
  };
  const agents = { http: new http.Agent(agentOptions), https: new https.Agent(agentOptions) };
  const stats: TransportStats = { requests: 0, inflight: 0, maxInflight: 0 };
  return {
    fetch: (input, init = {}) =>
      new Promise((resolve, reject) => exchange(input, init, agents, stats, resolve, reject)),
    stats,
    close() {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}

/**
 * One HTTP exchange: request out, whole response in. Plain functions with their listeners inline (no
 * named closures per request: tsx keeps function names by defining `name` on every closure it creates).
 */
function exchange(
  input: string | URL | { url: string },
  init: TransportInit,
  agents: { http: http.Agent; https: https.Agent },
  stats: TransportStats,
  resolve: (r: LeanResponse) => void,
  reject: (e: Error) => void,
): void {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  const signal = init.signal ?? undefined;
  if (signal?.aborted) return reject(abortError());
  const tag = init[ATTEMPT_TAG];
  if (tag) {
    tag.attempts++;
    tag.lastBodyError = undefined;
  }
  const { req, body } = openRequest(url, init, agents);
  stats.requests++;
  if (++stats.inflight > stats.maxInflight) stats.maxInflight = stats.inflight;
  const state: Exchange = { settled: false, stats, signal, onAbort: undefined, resolve, reject };
  if (signal) {
    state.onAbort = () => {
      req.destroy();
      settle(state, abortError());
    };
    signal.addEventListener('abort', state.onAbort, { once: true });
  }
  req.on('error', (err) => settle(state, err));
  req.on('response', (res) => onResponse(state, url, tag, res));
  req.end(body);
}

/** The outgoing request for a URL: plain headers with the body's length, the pooled agent. */
function openRequest(
  url: string,
  init: TransportInit,
  agents: { http: http.Agent; https: https.Agent },
): { req: http.ClientRequest; body: TransportInit['body'] } {
  const target = targetOf(url);
  const headers = plainHeaders(init.headers);
  const body = init.body ?? undefined;
  if (body !== undefined)
    headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
  const secure = target.protocol === 'https:';
  const req = (secure ? https : http).request({
    protocol: target.protocol,
    hostname: target.hostname,
    port: target.port,
    path: target.path,
    method: init.method ?? 'GET',
    headers,
    agent: secure ? agents.https : agents.http,
  });
  return { req, body };
}

/** Reads the whole response, decodes and checks its body, and settles the exchange with it. */
function onResponse(
  state: Exchange,
  url: string,
  tag: AttemptTag | undefined,
  res: http.IncomingMessage,
): void {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('error', (err) => settle(state, err));
  res.on('close', () => {
    if (!res.complete) settle(state, new Error('the connection closed before the response was complete'));
  });
  res.on('end', () => {
    const status = res.statusCode ?? 0;
    const raw = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
    if (tag) tag.lastRequestId = requestIdOf(res.headers) ?? tag.lastRequestId;
    const body = readBody(status, raw, res.headers['content-encoding'], tag);
    if (body.error) {
      if (tag) tag.lastBodyError = body.error;
      return settle(state, body.error);
    }
    settle(
      state,
      null,
      new LeanResponse(url, status, res.statusMessage ?? '', res.headers, body.bytes, body.json),
    );
  });
}

interface Exchange {
  settled: boolean;
  stats: TransportStats;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
  resolve: (r: LeanResponse) => void;
  reject: (e: Error) => void;
}

function settle(x: Exchange, err: Error | null, res?: LeanResponse): void {
  if (x.settled) return;
  x.settled = true;
  x.stats.inflight--;
  if (x.onAbort) x.signal!.removeEventListener('abort', x.onAbort);
  if (err) x.reject(err);
  else x.resolve(res!);
}

/** URL parts per distinct URL: an SDK calls the same endpoint every time, so it is parsed once. */
const targets = new Map<string, { protocol: string; hostname: string; port: string; path: string }>();
function targetOf(url: string): { protocol: string; hostname: string; port: string; path: string } {
  let t = targets.get(url);
  if (!t) {
    const u = new URL(url);
    t = {
      protocol: u.protocol,
      hostname: u.hostname.replace(/^\[|\]$/g, ''),
      port: u.port,
      path: `${u.pathname}${u.search}`,
    };
    if (targets.size > 256) targets.clear();
    targets.set(url, t);
  }
  return t;
}

function plainHeaders(h: HeadersLike | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!h) return out;
  if (Array.isArray(h)) for (const [k, v] of h) out[k.toLowerCase()] = v;
  else if (typeof (h as { forEach?: unknown }).forEach === 'function')
    (h as { forEach(cb: (v: string, k: string) => void): void }).forEach((v, k) => (out[k] = v));
  else for (const [k, v] of Object.entries(h)) out[k.toLowerCase()] = v;
  return out;
}

function requestIdOf(h: http.IncomingHttpHeaders): string | undefined {
  const v = h['request-id'] ?? h['x-request-id'];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * A response body, decoded; a 2xx body is also parsed and checked (when the call has a check). A body
 * that cannot be used is a BodyError — never an exception thrown in a socket event, which would end
 * the process.
 */
function readBody(
  status: number,
  raw: Buffer,
  encoding: string | undefined,
  tag: AttemptTag | undefined,
): { bytes: Buffer; json?: unknown; error?: BodyError } {
  let bytes: Buffer;
  try {
    bytes = decode(raw, encoding);
  } catch (err) {
    const why = (err as Error).message.split('\n')[0];
    return {
      bytes: raw,
      error: new BodyError(status, `does not decode as ${encoding} (${why})`, bodyStart(raw)),
    };
  }
  if (status < 200 || status >= 300 || !tag?.check) return { bytes };
  return { bytes, ...checkBody(status, bytes, tag.check) };
}

function decode(body: Buffer, encoding: string | undefined): Buffer {
  if (!encoding || encoding === 'identity') return body;
  if (encoding === 'gzip' || encoding === 'x-gzip') return gunzipSync(body);
  if (encoding === 'deflate') return inflateSync(body);
  if (encoding === 'br') return brotliDecompressSync(body);
  return body;
}

function abortError(): Error {
  return new DOMException('The operation was aborted.', 'AbortError');
}
