import type { ResolvedConfig } from '../config/types.ts';
import { MissingKeyError, ProviderError } from '../errors.ts';
import { envSecrets, keyAsSent } from '../redact.ts';
import { maskedSdkLogger } from './sdk-logger.ts';
import { createTransport, ATTEMPT_TAG, type AttemptTag, type Transport } from './transport.ts';

/** What a vendor client is built from: key and base URL from the environment, the rest from the config. */
export interface ClientSettings {
  apiKey: string;
  baseURL: string | undefined;
  maxRetries: number;
  timeoutMs: number;
  concurrency: number;
  /** 'node': the lean keep-alive transport (default); 'fetch': the SDK's own global fetch. */
  transport: 'node' | 'fetch';
  provider: string;
  /** The key values to mask in the SDK's log lines (as set and as sent). */
  secrets: string[];
}

export const clientDefaults = { maxRetries: 4, timeoutMs: 120_000, concurrency: 16 };

interface KeySpec {
  provider: 'anthropic' | 'openai';
  keyVar: string;
  baseVar: string;
  /** A key is optional at a custom base URL (local OpenAI-compatible servers need none). */
  keyOptionalAtCustomURL: boolean;
}

/**
 * Keys come from the environment only (never the config file), and a missing one fails here — when
 * the providers are created, before the first call — as one line naming the variable.
 */
export function resolveClientSettings(
  spec: KeySpec,
  config: ResolvedConfig,
  env: NodeJS.ProcessEnv,
): ClientSettings {
  const s = config.providers[spec.provider] ?? {};
  const baseURL = nonEmpty(env[spec.baseVar]) ?? s.baseURL;
  let apiKey = keyAsSent(env[spec.keyVar]);
  if (!apiKey) {
    if (!(spec.keyOptionalAtCustomURL && baseURL && !/api\.openai\.com/.test(baseURL)))
      throw new MissingKeyError(spec.provider, spec.keyVar);
    apiKey = 'no-key';
  }
  const transport = s.transport === 'fetch' ? 'fetch' : 'node';
  return {
    apiKey,
    baseURL,
    maxRetries: s.maxRetries ?? clientDefaults.maxRetries,
    timeoutMs: s.timeoutMs ?? clientDefaults.timeoutMs,
    concurrency: s.concurrency ?? clientDefaults.concurrency,
    transport,
    provider: spec.provider,
    secrets: envSecrets(env),
  };
}

function nonEmpty(v: string | undefined): string | undefined {
  return v && v.trim() !== '' ? v.trim() : undefined;
}

/** The SDK client options shared by both vendors: retries, timeout and the transport. */
export function sdkOptions(settings: ClientSettings): {
  options: Record<string, unknown>;
  transport: Transport | null;
} {
  const transport =
    settings.transport === 'node' ? createTransport({ maxSockets: settings.concurrency }) : null;
  const options: Record<string, unknown> = {
    apiKey: settings.apiKey,
    maxRetries: settings.maxRetries,
    timeout: settings.timeoutMs,
    logger: maskedSdkLogger(settings.provider, settings.secrets),
  };
  if (settings.baseURL) options.baseURL = settings.baseURL;
  if (transport) options.fetch = transport.fetch;
  return { options, transport };
}

/** Per-call request options: the caller's abort signal and the attempt counter the transport fills. */
export function callOptions(signal: AbortSignal | undefined, tag: AttemptTag): Record<string, unknown> {
  return { ...(signal ? { signal } : {}), fetchOptions: { [ATTEMPT_TAG]: tag } };
}

interface SdkErrorShape {
  name?: string;
  message?: string;
  status?: number;
  requestID?: string | null;
}

/**
 * An SDK error → ProviderError with the HTTP status and the request id, the SDK error kept as the
 * cause. Retries were the SDK's; `attempts` says how many it made.
 */
export function toProviderError(
  provider: string,
  model: string,
  err: unknown,
  tag: AttemptTag,
): ProviderError {
  const e = (err ?? {}) as SdkErrorShape;
  const status = typeof e.status === 'number' ? e.status : undefined;
  const requestId = e.requestID ?? (status !== undefined ? tag.lastRequestId : undefined) ?? undefined;
  const cls = (err as { constructor?: { name?: string } })?.constructor?.name;
  const kind =
    status !== undefined
      ? `HTTP ${status}`
      : cls === 'APIConnectionTimeoutError'
        ? 'timed out'
        : cls === 'APIConnectionError'
          ? 'connection failed'
          : (cls ?? 'error');
  const attempts = Math.max(1, tag.attempts);
  const detail = (e.message ?? String(err)).split('\n')[0]!.slice(0, 300);
  const error = new ProviderError(
    provider,
    `${provider} ${model}: ${kind} after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${detail}`,
    status,
    requestId,
    { cause: err },
  );
  return Object.assign(error, { retries: attempts - 1 });
}

/** The retries a failed call made (the SDK's, counted by the transport); 0 when unknown. */
export function retriesOf(err: unknown): number {
  const r = (err as { retries?: unknown } | null)?.retries;
  return typeof r === 'number' ? r : 0;
}

/** True for the SDKs' user-abort error (the run was interrupted; not a provider failure). */
export function isUserAbort(err: unknown): boolean {
  return (err as { name?: string })?.name === 'APIUserAbortError';
}
