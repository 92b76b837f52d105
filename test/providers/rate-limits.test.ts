import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ModelRequest, Provider } from '../../harness/core/index.ts';
import { resolveConfig } from '../../harness/config/resolve-config.ts';
import { goDuration, readRateLimitHeaders, resetOf } from '../../harness/providers/ratelimit/headers.ts';
import { startMockLlmServer, type MockServer } from '../support/mock-llm-server.ts';
import { loopbackProvider } from '../support/mock-run.ts';

/**
 * Rate-limit aware scheduling (harness/providers/ratelimit/) through the real SDKs against the loopback
 * mock's per-model token bucket: 429s stay few, retry-after holds back every attempt to the model,
 * pacing ends when the limit lifts, and one model's limit does not slow another. Assertions are on
 * counts and order, not on timings (except that nothing may reach the server before a retry-after
 * has passed: lateness under load can only make that later).
 */
let mock: MockServer;
let onRequest: ((n: number, at: number) => void) | undefined;
const providers: Provider[] = [];

beforeAll(async () => {
  mock = await startMockLlmServer({
    latencyMs: 20,
    faults: ({ n }) => (onRequest?.(n, performance.now()), undefined),
  });
});
afterAll(async () => {
  await Promise.all(providers.map((p) => p.close?.()));
  await mock.close();
});
afterEach(() => {
  onRequest = undefined;
  mock.options.rateLimit = undefined;
  mock.options.faults = ({ n }) => (onRequest?.(n, performance.now()), undefined);
  mock.resetStats();
});

async function make(name: 'anthropic' | 'openai', rateLimits?: 'off'): Promise<Provider> {
  const config = resolveConfig({
    providers: { [name]: { maxRetries: 8, timeoutMs: 30_000, concurrency: 32, rateLimits } },
  });
  const p = await loopbackProvider(mock, name, config);
  providers.push(p);
  return p;
}

const request = (model = 'test-model', i = 0): ModelRequest => ({
  purpose: 'answer',
  model,
  seed: `1/c/${i}/answer#0`,
  maxTokens: 64,
  messages: [{ role: 'user', text: 'Which merchants pin 2023-10?' }],
});

/** n calls, c at a time; each finished call's label is pushed onto `done` (shared order of completion). */
async function drive(
  p: Provider,
  n: number,
  c: number,
  model = 'test-model',
  done: string[] = [],
  label = model,
): Promise<string[]> {
  let i = 0;
  await Promise.all(
    Array.from({ length: c }, async () => {
      while (i < n) {
        const k = i++;
        await p.generate(request(model, k));
        done.push(label);
      }
    }),
  );
  return done;
}

describe('the vendors’ rate-limit headers', () => {
  it('reads durations, RFC 3339 resets, retry-after-ms before retry-after, and spent token allowances', () => {
    expect(goDuration('6m0s')).toBe(360_000);
    expect(goDuration('20ms')).toBe(20);
    expect(goDuration('1h2m3.5s')).toBe(3_723_500);
    expect(goDuration('soon')).toBeUndefined();
    const now = Date.parse('2026-12-02T06:00:00Z');
    expect(resetOf('2026-12-02T06:00:30Z', now)).toEqual({ ms: 30_000, resolution: 1000 });
    expect(resetOf('2026-12-02T06:00:00.250Z', now)).toEqual({ ms: 250, resolution: 1 });
    const h = (o: Record<string, string>) => (name: string) => o[name];
    const openai = readRateLimitHeaders(
      h({
        'retry-after': '1',
        'retry-after-ms': '20',
        'x-ratelimit-limit-requests': '50',
        'x-ratelimit-remaining-requests': '0',
        'x-ratelimit-reset-requests': '1s',
        'x-ratelimit-remaining-tokens': '0',
        'x-ratelimit-reset-tokens': '6m0s',
      }),
      now,
    );
    expect(openai).toEqual({
      retryAfterMs: 20,
      requests: { limit: 50, remaining: 0, resetMs: 1000, resolutionMs: 1 },
      tokensExhaustedMs: 360_000,
    });
    const anthropic = readRateLimitHeaders(
      h({
        'retry-after': '2',
        'anthropic-ratelimit-requests-limit': '4000',
        'anthropic-ratelimit-requests-remaining': '3999',
        'anthropic-ratelimit-requests-reset': '2026-12-02T06:00:01Z',
        'anthropic-ratelimit-output-tokens-remaining': '0',
        'anthropic-ratelimit-output-tokens-reset': '2026-12-02T06:00:07Z',
      }),
      now,
    );
    expect(anthropic).toEqual({
      retryAfterMs: 2000,
      requests: { limit: 4000, remaining: 3999, resetMs: 1000, resolutionMs: 1000 },
      tokensExhaustedMs: 7000,
    });
    expect(readRateLimitHeaders(h({ 'retry-after': 'Wed, 02 Dec 2026 06:00:03 GMT' }), now)).toEqual({
      retryAfterMs: 3000,
    });
    expect(readRateLimitHeaders(h({ 'x-ratelimit-remaining-requests': 'lots' }), now)).toEqual({});
  });
});

describe.each(['anthropic', 'openai'] as const)('%s under a rate limit', (name) => {
  it('keeps 429s to a few per cent of the calls, and every call succeeds', async () => {
    mock.options.rateLimit = { rps: 40 };
    const p = await make(name);
    const done = await drive(p, 160, 16);
    expect(done).toHaveLength(160);
    expect(mock.stats.ok).toBe(160);
    // ≤ 10%: the first burst finds the bucket empty before any 429 is back; then pacing holds.
    expect(mock.stats.byStatus[429] ?? 0).toBeLessThanOrEqual(16);
  });

  it('without the gate (rateLimits: off) the same calls draw many more 429s', async () => {
    mock.options.rateLimit = { rps: 40 };
    const p = await make(name, 'off');
    let i = 0;
    const worker = async () => {
      while (i++ < 160) await p.generate(request()).catch(() => undefined); // some run out of retries
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    // The 10% bound the gated run meets is broken (Anthropic measured 30 under load; OpenAI hundreds).
    expect(mock.stats.byStatus[429] ?? 0).toBeGreaterThan(16);
  });
});

describe('the gate of one model', () => {
  it('holds every attempt to the model back until a 429’s retry-after has passed, not only the one that got it', async () => {
    const p = await make('anthropic');
    let limitedAt = 0;
    const arrivals: number[] = [];
    mock.options.faults = () => {
      if (limitedAt === 0) {
        limitedAt = performance.now();
        return { type: 'status', status: 429, retryAfter: '1' };
      }
      arrivals.push(performance.now());
      return undefined;
    };
    const first = p.generate(request('test-model', 0));
    for (let i = 0; i < 200 && limitedAt === 0; i++) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 100)); // the 429 is back at the client
    await Promise.all([first, drive(p, 6, 6)]);
    expect(arrivals).toHaveLength(7); // the retry and the six others
    // Nothing reached the server before the second was over (a slow machine only makes them later).
    expect(Math.min(...arrivals) - limitedAt).toBeGreaterThanOrEqual(950);
  });

  it('paces while the server states a limit, and stops pacing once the limit is lifted', async () => {
    const p = await make('openai');
    mock.options.rateLimit = { rps: 20 };
    await drive(p, 60, 16);
    // (the bound on 429s is the test above's; this one only checks the phase was limited and paced)
    expect(mock.stats.byStatus[429] ?? 0).toBeLessThanOrEqual(12);
    mock.options.rateLimit = undefined;
    mock.resetStats();
    await drive(p, 400, 16);
    // Still paced at 20/s with 20 ms replies, one attempt or two would be in flight; lifted, all 16 are.
    expect(mock.stats.maxInflight).toBeGreaterThanOrEqual(12);
  });

  it('recovers without headers too (a server that sends only retry-after)', async () => {
    const p = await make('openai');
    mock.options.rateLimit = { rps: 20, headers: false };
    // Without allowance headers the pace is learnt from 429s alone; the first burst costs some (≈ 10%
    // over 500 calls at 50/s in the bench) and, on a loaded machine, a call may run out of retries:
    // this test is about recovery, so phase 1 only has to have been limited.
    let i = 0;
    const worker = async () => {
      while (i++ < 60) await p.generate(request()).catch(() => undefined);
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    expect(mock.stats.byStatus[429] ?? 0).toBeGreaterThan(0);
    mock.options.rateLimit = undefined;
    mock.resetStats();
    await drive(p, 1500, 16);
    expect(mock.stats.maxInflight).toBeGreaterThanOrEqual(12);
  });

  it('does not slow another model: each model has its own gate, as the vendors limit per model', async () => {
    const p = await make('openai');
    mock.options.rateLimit = { rps: 10 };
    const order: string[] = [];
    const slowModel = drive(p, 40, 16, 'model-a', order, 'a');
    await new Promise((r) => setTimeout(r, 300)); // model-a is paced by now, with calls waiting
    const before = order.length;
    await drive(p, 8, 4, 'model-b', order, 'b');
    const meanwhile = order.slice(before).filter((l) => l === 'a').length;
    await slowModel;
    // model-b's eight calls fit its own burst; behind model-a's gate they would wait for ~10 of a's.
    expect(meanwhile).toBeLessThanOrEqual(3);
    expect(order.filter((l) => l === 'b')).toHaveLength(8);
    // model-a's first burst (16 sent, 10 tokens) is all: b's calls draw none.
    expect(mock.stats.byStatus[429] ?? 0).toBeLessThanOrEqual(8);
  });
});
