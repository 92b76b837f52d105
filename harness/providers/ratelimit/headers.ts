/**
 * What a response says about the caller's rate limits, read from the vendors' headers:
 * - `retry-after-ms` (milliseconds; OpenAI's, also read by both SDKs) or `retry-after` (seconds, or an
 *   HTTP date);
 * - the request allowance: Anthropic `anthropic-ratelimit-requests-{limit,remaining,reset}` (reset an
 *   RFC 3339 time), OpenAI `x-ratelimit-{limit,remaining,reset}-requests` (reset a duration: "1s",
 *   "6m0s", "20ms");
 * - token allowances: Anthropic `anthropic-ratelimit-{tokens,input-tokens,output-tokens}-*`, OpenAI
 *   `x-ratelimit-{remaining,reset}-tokens`. Only "remaining 0 until reset" is used from these: how many
 *   tokens the next request takes is not known here.
 * Headers that are absent or do not parse are ignored: a quirky header never fails a call.
 */
export interface Allowance {
  limit: number;
  remaining: number;
  /** Milliseconds from now until the allowance is back to `limit`. */
  resetMs: number;
  /** How precise `resetMs` is, ms (a whole-second timestamp: 1000). */
  resolutionMs: number;
}

export interface RateLimitInfo {
  retryAfterMs?: number;
  requests?: Allowance;
  /** The longest wait among token allowances that are used up (remaining 0). */
  tokensExhaustedMs?: number;
}

type HeaderGet = (name: string) => string | undefined;

const TOKEN_FAMILIES = [
  ['anthropic-ratelimit-tokens-remaining', 'anthropic-ratelimit-tokens-reset'],
  ['anthropic-ratelimit-input-tokens-remaining', 'anthropic-ratelimit-input-tokens-reset'],
  ['anthropic-ratelimit-output-tokens-remaining', 'anthropic-ratelimit-output-tokens-reset'],
  ['x-ratelimit-remaining-tokens', 'x-ratelimit-reset-tokens'],
] as const;

export function readRateLimitHeaders(get: HeaderGet, now = Date.now()): RateLimitInfo {
  const info: RateLimitInfo = {};
  const retryAfterMs = retryAfter(get, now);
  if (retryAfterMs !== undefined) info.retryAfterMs = retryAfterMs;
  const requests =
    allowance(
      get,
      'anthropic-ratelimit-requests-limit',
      'anthropic-ratelimit-requests-remaining',
      'anthropic-ratelimit-requests-reset',
      now,
    ) ??
    allowance(
      get,
      'x-ratelimit-limit-requests',
      'x-ratelimit-remaining-requests',
      'x-ratelimit-reset-requests',
      now,
    );
  if (requests) info.requests = requests;
  for (const [rem, reset] of TOKEN_FAMILIES) {
    const remaining = num(get(rem));
    const r = resetOf(get(reset), now);
    if (remaining !== undefined && remaining <= 0 && r && r.ms > 0)
      info.tokensExhaustedMs = Math.max(info.tokensExhaustedMs ?? 0, r.ms);
  }
  return info;
}

function retryAfter(get: HeaderGet, now: number): number | undefined {
  const ms = num(get('retry-after-ms'));
  if (ms !== undefined && ms >= 0) return ms;
  const raw = get('retry-after');
  if (raw === undefined) return undefined;
  const s = num(raw);
  if (s !== undefined) return s >= 0 ? s * 1000 : undefined;
  const at = Date.parse(raw);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function allowance(
  get: HeaderGet,
  limitName: string,
  remainingName: string,
  resetName: string,
  now: number,
): Allowance | undefined {
  const limit = num(get(limitName));
  const remaining = num(get(remainingName));
  const reset = resetOf(get(resetName), now);
  if (limit === undefined || remaining === undefined || !reset || limit <= 0) return undefined;
  return {
    limit,
    remaining: Math.max(0, remaining),
    resetMs: Math.max(0, reset.ms),
    resolutionMs: reset.resolution,
  };
}

/** A reset as a duration ("6m0s", "20ms", "1.5s"), a bare number of seconds, or an RFC 3339 time. */
export function resetOf(
  raw: string | undefined,
  now: number,
): { ms: number; resolution: number } | undefined {
  if (raw === undefined) return undefined;
  const v = raw.trim();
  const secs = num(v);
  if (secs !== undefined) return { ms: secs * 1000, resolution: v.includes('.') ? 1 : 1000 };
  const d = goDuration(v);
  if (d !== undefined) return { ms: d, resolution: 1 };
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return { ms: at - now, resolution: /T\d\d:\d\d:\d\d\.\d/.test(v) ? 1 : 1000 };
}

const UNIT_MS: Record<string, number> = {
  h: 3_600_000,
  m: 60_000,
  s: 1000,
  ms: 1,
  us: 0.001,
  µs: 0.001,
  ns: 1e-6,
};

/** A Go-style duration: one or more number+unit parts ("1h2m3.5s", "6m0s", "20ms"). */
export function goDuration(v: string): number | undefined {
  const parts = v.match(/(\d+(?:\.\d+)?)(ms|us|µs|ns|h|m|s)/g);
  if (!parts || parts.join('') !== v) return undefined;
  let ms = 0;
  for (const p of parts) {
    const [, n, unit] = /^(\d+(?:\.\d+)?)(.+)$/.exec(p)!;
    ms += Number(n) * UNIT_MS[unit!]!;
  }
  return ms;
}

function num(v: string | undefined): number | undefined {
  if (v === undefined || v.trim() === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
}
