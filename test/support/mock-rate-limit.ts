import type { Protocol } from './mock-llm-wire.ts';

/**
 * The loopback mock's rate limiter, per model like the vendors': a token bucket that refills at `rps`
 * requests per second up to `burst` (default: one second's worth, so "R requests/s" allows R at once,
 * as a 1-second sliding window would). A request that finds no token is answered 429 at once, with
 * the vendor's headers:
 * - every response: the request allowance — Anthropic `anthropic-ratelimit-requests-{limit,remaining,reset}`
 *   (reset an RFC 3339 time, whole seconds, when the bucket is full again), OpenAI
 *   `x-ratelimit-{limit,remaining,reset}-requests` (reset a duration: "20ms", "1.5s");
 * - a 429: `retry-after` in whole seconds (rounded up, as the header's syntax requires) and, from the
 *   OpenAI protocol only, `retry-after-ms` (the exact wait for the next token).
 * `headers: false` sends only retry-after (a server that states no allowance).
 */
export interface RateLimitSpec {
  rps: number;
  burst?: number;
  /** false: only retry-after; 'on429': the allowance headers on 429s only (some compatible servers). @default true */
  headers?: boolean | 'on429';
}

export interface RateDecision {
  ok: boolean;
  headers: Record<string, string>;
}

export class MockRateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  constructor(readonly spec: RateLimitSpec) {}

  take(model: string, protocol: Protocol, now = performance.now()): RateDecision {
    const burst = this.spec.burst ?? this.spec.rps;
    const perMs = this.spec.rps / 1000;
    let b = this.buckets.get(model);
    if (!b) this.buckets.set(model, (b = { tokens: burst, at: now }));
    b.tokens = Math.min(burst, b.tokens + (now - b.at) * perMs);
    b.at = now;
    const ok = b.tokens >= 1;
    if (ok) b.tokens -= 1;
    const headers: Record<string, string> = {};
    if (
      this.spec.headers === true ||
      this.spec.headers === undefined ||
      (this.spec.headers === 'on429' && !ok)
    ) {
      const resetMs = (burst - b.tokens) / perMs;
      const remaining = String(Math.floor(b.tokens));
      if (protocol === 'anthropic') {
        headers['anthropic-ratelimit-requests-limit'] = String(burst);
        headers['anthropic-ratelimit-requests-remaining'] = remaining;
        headers['anthropic-ratelimit-requests-reset'] = wholeSecondsFromNow(resetMs);
      } else {
        headers['x-ratelimit-limit-requests'] = String(burst);
        headers['x-ratelimit-remaining-requests'] = remaining;
        headers['x-ratelimit-reset-requests'] = duration(resetMs);
      }
    }
    if (!ok) {
      const waitMs = (1 - b.tokens) / perMs;
      headers['retry-after'] = String(Math.max(1, Math.ceil(waitMs / 1000)));
      if (protocol === 'openai') headers['retry-after-ms'] = String(Math.ceil(waitMs));
    }
    return { ok, headers };
  }
}

function wholeSecondsFromNow(ms: number): string {
  return new Date(Math.ceil((Date.now() + ms) / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** OpenAI's reset format: "20ms", "1.5s", "6m0s". */
function duration(ms: number): string {
  if (ms < 1000) return `${Math.ceil(ms)}ms`;
  const s = Math.round(ms) / 1000;
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${Math.round(s % 60)}s`;
}
