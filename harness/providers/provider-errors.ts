import { ProviderError, type ProviderErrorCode, type ProviderErrorKind } from '../core/errors.ts';
import { maskSecrets } from '../core/redact.ts';
import type { AttemptTag } from './transport.ts';
import { BodyError } from './body-check.ts';

/**
 * A failed vendor call as the harness reports it: the SDK's error (status, request id, the vendor's
 * words) mapped to a ProviderError with the row's error_code, whether it stops the run, and the
 * endpoint without its credentials. Split from wire-client.ts (the client's settings and transport).
 */

type ErrorClass = abstract new (...args: never[]) => Error;

/**
 * The vendor SDK's error classes a failure is matched against with `instanceof` (each vendor file
 * passes its own SDK's; both SDKs declare the same three). A timeout is a connection error too, so it
 * is tested first.
 */
export interface SdkErrorClasses {
  APIConnectionError: ErrorClass;
  APIConnectionTimeoutError: ErrorClass;
  APIUserAbortError: ErrorClass;
}

interface SdkErrorShape {
  name?: string;
  message?: string;
  status?: number;
  requestID?: string | null;
  /** OpenAI: the body's error object; Anthropic: the whole body ({type: 'error', error: {...}}). */
  error?: { message?: unknown; code?: unknown; error?: { message?: unknown } } | null;
  /** Anthropic: the body's error.message. */
  apiMessage?: string | null;
  /** OpenAI: the body's error.code. */
  code?: unknown;
}

/**
 * An SDK error → ProviderError with the HTTP status, the request id and the row's error_code, the SDK
 * error kept as the cause. Retries were the SDK's; `attempts` says how many it made. `baseURL` is the
 * endpoint the client used, named when the error stops the run.
 */
export function toProviderError(
  provider: string,
  model: string,
  err: unknown,
  tag: AttemptTag,
  baseURL: string,
  sdk: SdkErrorClasses,
): ProviderError {
  const body = bodyErrorOf(err, tag, sdk);
  if (body) return badResponse(provider, model, err, body, tag, baseURL);
  const e = (err ?? {}) as SdkErrorShape;
  const status = typeof e.status === 'number' ? e.status : undefined;
  const requestId = e.requestID ?? (status !== undefined ? tag.lastRequestId : undefined) ?? undefined;
  const kind = errorKind(err, status, sdk);
  const label =
    kind === 'http'
      ? `HTTP ${status}`
      : kind === 'timeout'
        ? 'timed out'
        : kind === 'connection'
          ? `connection to ${endpointOf(baseURL)} failed`
          : err instanceof Error
            ? err.name
            : 'error';
  const attempts = Math.max(1, tag.attempts);
  const detail = (vendorMessage(e) ?? e.message ?? String(err)).split('\n')[0]!.slice(0, 300);
  const { code, fatal } = classify(status, e, detail);
  return new ProviderError(
    provider,
    `${provider} ${model}: ${label} after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${detail}`,
    status,
    requestId,
    { cause: err, code, fatal, baseURL: maskSecrets(baseURL), kind, retries: attempts - 1 },
  );
}

function errorKind(err: unknown, status: number | undefined, sdk: SdkErrorClasses): ProviderErrorKind {
  if (status !== undefined) return 'http';
  if (err instanceof sdk.APIConnectionTimeoutError) return 'timeout';
  if (err instanceof sdk.APIConnectionError) return 'connection';
  return 'other';
}

/**
 * Where a connection failed, for the row's reason (a dead or mistyped endpoint is then visible in the
 * report): scheme, host, port and path only — credentials or a query string in a base URL stay out.
 */
function endpointOf(baseURL: string): string {
  try {
    const u = new URL(baseURL);
    return `${u.protocol}//${u.host}${u.pathname.replace(/\/$/, '')}`;
  } catch {
    return 'the endpoint';
  }
}

/**
 * The unusable body behind a failed call: the SDK wraps what the fetch rejected with in an
 * APIConnectionError (`cause`) once its retries are spent. Only when the last attempt was the bad body
 * — a call whose final attempt got a 500 fails as that 500.
 */
function bodyErrorOf(err: unknown, tag: AttemptTag, sdk: SdkErrorClasses): BodyError | undefined {
  const cause = (err as { cause?: unknown } | null)?.cause;
  if (cause instanceof BodyError) return cause;
  return err instanceof sdk.APIConnectionError ? tag.lastBodyError : undefined;
}

function badResponse(
  provider: string,
  model: string,
  err: unknown,
  body: BodyError,
  tag: AttemptTag,
  baseURL: string,
): ProviderError {
  const attempts = Math.max(1, tag.attempts);
  return new ProviderError(
    provider,
    `${provider} ${model}: HTTP ${body.status} with an unusable body after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${body.problem}; body starts: ${body.bodyStart || '(nothing)'}`,
    body.status,
    tag.lastRequestId,
    {
      cause: err,
      code: 'bad_response',
      baseURL: maskSecrets(baseURL),
      kind: 'bad_body',
      retries: attempts - 1,
    },
  );
}

/** The provider's own words (the body's error message), without the SDK's status prefix. */
function vendorMessage(e: SdkErrorShape): string | undefined {
  const m = e.apiMessage ?? e.error?.message ?? e.error?.error?.message;
  return typeof m === 'string' && m.trim() !== '' ? m : undefined;
}

/** What a request too long for the model's window reads like: OpenAI, Anthropic, vLLM, llama.cpp, LM Studio. */
const CONTEXT_LENGTH =
  /context[_ ]length|context window|context limit|maximum context|prompt is too long|exceeds? the (available )?context|too many tokens/i;

/**
 * The row's error_code, and whether every later call would fail the same way. 401 / 403 / 404 (a
 * rejected key, a forbidden model or endpoint, an unknown model or a wrong base URL) are fatal: the SDK
 * does not retry them, and no other cell would get a different answer. A context-length 400 is the
 * cell's own (another cell's request may fit), with the same code the sim's window gives.
 */
function classify(
  status: number | undefined,
  e: SdkErrorShape,
  detail: string,
): { code: ProviderErrorCode; fatal: boolean } {
  if (status === 401) return { code: 'unauthorized', fatal: true };
  if (status === 403) return { code: 'forbidden', fatal: true };
  if (status === 404 || e.code === 'model_not_found') return { code: 'model_not_found', fatal: true };
  if (status !== undefined && status >= 400 && status < 500 && status !== 429)
    if (e.code === 'context_length_exceeded' || CONTEXT_LENGTH.test(detail))
      return { code: 'context_length_exceeded', fatal: false };
  return { code: 'provider_error', fatal: false };
}

/** The retries a failed call made (the SDK's, counted by the transport); 0 when unknown. */
export function retriesOf(err: unknown): number {
  return err instanceof ProviderError ? err.retries : 0;
}

/** True for the SDK's user-abort error (the run was interrupted; not a provider failure). */
export function isUserAbort(err: unknown, sdk: SdkErrorClasses): boolean {
  return err instanceof sdk.APIUserAbortError;
}
