import type { ResolvedConfig } from '../config/types.ts';
import { MissingKeyError } from '../core/errors.ts';
import { envSecrets, keyAsSent } from '../core/redact.ts';
import { maskedSdkLogger } from './sdk-logger.ts';
import { configDefaults } from '../config/defaults.ts';
import { createTransport, ATTEMPT_TAG, type AttemptTag, type Transport } from './transport.ts';
import { BodyError, checkBody } from './body-check.ts';

// The SDK error → ProviderError mapping lives in provider-errors.ts; re-exported for the vendor files.
export { isUserAbort, retriesOf, toProviderError, type SdkErrorClasses } from './provider-errors.ts';
import { RateGates } from './ratelimit/gate.ts';
import { gatedFetch, type ResponseLike } from './ratelimit/gated-fetch.ts';

/** What a vendor client is built from: key and base URL from the environment, the rest from the config. */
export interface ClientSettings {
  apiKey: string;
  baseURL: string | undefined;
  maxRetries: number;
  timeoutMs: number;
  concurrency: number;
  /** 'node': the lean keep-alive transport (default); 'fetch': the SDK's own global fetch. */
  transport: 'node' | 'fetch';
  /** 'adaptive': attempts pass a rate gate per model (harness/providers/ratelimit/); 'off': none. */
  rateLimits: 'adaptive' | 'off';
  provider: string;
  /** The key values to mask in the SDK's log lines (as set and as sent). */
  secrets: string[];
}

/** The SDK client's settings a provider does not set (`configDefaults.providers`). */
export const clientDefaults = configDefaults.providers;

export interface KeySpec {
  provider: 'anthropic' | 'openai';
  keyVar: string;
  baseVar: string;
  /** A key is optional at a custom base URL (local OpenAI-compatible servers need none). */
  keyOptionalAtCustomURL: boolean;
}

/** Where the Anthropic client's key and base URL come from (the interactive provider and batch mode alike). */
export const anthropicKeys: KeySpec = {
  provider: 'anthropic',
  keyVar: 'ANTHROPIC_API_KEY',
  baseVar: 'ANTHROPIC_BASE_URL',
  keyOptionalAtCustomURL: false,
};

/** Where the OpenAI client's key and base URL come from; a compatible server at a custom URL may need none. */
export const openaiKeys: KeySpec = {
  provider: 'openai',
  keyVar: 'OPENAI_API_KEY',
  baseVar: 'OPENAI_BASE_URL',
  keyOptionalAtCustomURL: true,
};

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
    rateLimits: s.rateLimits === 'off' ? 'off' : 'adaptive',
    provider: spec.provider,
    secrets: envSecrets(env),
  };
}

function nonEmpty(v: string | undefined): string | undefined {
  return v && v.trim() !== '' ? v.trim() : undefined;
}

/** The SDK client options shared by both vendors: retries, timeout, the transport and its rate gates. */
export function sdkOptions(settings: ClientSettings): {
  options: Record<string, unknown>;
  transport: Transport | null;
  gates: RateGates | null;
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
  const fetch: (input: any, init?: any) => Promise<ResponseLike> = transport ? transport.fetch : checkedFetch;
  const gates = settings.rateLimits === 'off' ? null : new RateGates(settings.timeoutMs / 2);
  options.fetch = gates ? gatedFetch(gates, fetch) : fetch;
  return { options, transport, gates };
}

/** Per-call request options: the caller's abort signal and the attempt counter the transport fills. */
export function callOptions(signal: AbortSignal | undefined, tag: AttemptTag): Record<string, unknown> {
  return { ...(signal ? { signal } : {}), fetchOptions: { [ATTEMPT_TAG]: tag } };
}

/**
 * The SDK's own global fetch (`providers.<name>.transport: 'fetch'`) with the same body check as the
 * lean transport: a 2xx body that does not decode or parse is rejected as a BodyError, so the SDK
 * retries it like a connection failure. It also counts the attempts, as the lean transport does.
 */
export async function checkedFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const tag = (init as Record<string, unknown> | undefined)?.[ATTEMPT_TAG] as AttemptTag | undefined;
  if (tag) {
    tag.attempts++;
    tag.lastBodyError = undefined;
  }
  const res = await fetch(input, init);
  if (!res.ok || !tag?.check) return res;
  let bytes: Buffer;
  try {
    bytes = Buffer.from(await res.arrayBuffer());
  } catch (err) {
    // undici decodes content-encoding while reading: a bad gzip fails here.
    const why = String((err as Error).cause ?? (err as Error).message).split('\n')[0];
    // Its raw bytes are gone with the failed decode (fetch exposes no undecoded body).
    throw (tag.lastBodyError = new BodyError(
      res.status,
      `could not be read or decoded (${why})`,
      '(not available: fetch could not decode it)',
    ));
  }
  const { error } = checkBody(res.status, bytes, tag.check);
  if (error) throw (tag.lastBodyError = error);
  const headers = new Headers(res.headers);
  headers.delete('content-encoding');
  headers.delete('content-length');
  return new Response(new Uint8Array(bytes), { status: res.status, statusText: res.statusText, headers });
}
