import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import type { ModelRequest, Provider } from '../../harness/core/index.ts';
import { resolveConfig } from '../../harness/config/resolve-config.ts';
import { createAnthropicProvider } from '../../harness/providers/anthropic.ts';
import { createOpenAIProvider } from '../../harness/providers/openai.ts';
import { MissingKeyError, ProviderError } from '../../harness/core/errors.ts';
import { toProviderError } from '../../harness/providers/wire-client.ts';
import { startMockLlmServer, type Fault, type MockServer } from '../support/mock-llm-server.ts';
import { loopbackProvider } from '../support/mock-run.ts';

/**
 * The real SDKs against the loopback mock: wire format, usage, request ids, and the SDKs' own
 * retries (the only retry layer) for 429 + retry-after, 5xx, timeouts and dropped connections.
 */
let mock: MockServer;
let fault: ((n: number, attempt: number) => Fault | undefined) | undefined;
const providers: Provider[] = [];

beforeAll(async () => {
  mock = await startMockLlmServer({ capture: true, faults: ({ n, attempt }) => fault?.(n, attempt) });
});
afterAll(async () => {
  await Promise.all(providers.map((p) => p.close?.()));
  await mock.close();
});
beforeEach(() => {
  fault = undefined;
  mock.resetStats();
});

const config = resolveConfig({
  providers: { anthropic: { maxRetries: 2, timeoutMs: 1_000 }, openai: { maxRetries: 2, timeoutMs: 1_000 } },
});
const make = {
  anthropic: async () => keep(await loopbackProvider(mock, 'anthropic', config)),
  openai: async () => keep(await loopbackProvider(mock, 'openai', config)),
};
const keep = (p: Provider) => (providers.push(p), p);

const request = (extra: Partial<ModelRequest> = {}): ModelRequest => ({
  purpose: 'answer',
  model: 'test-model',
  seed: '1/c/0/answer#0',
  maxTokens: 256,
  system: 'You are the parent.',
  messages: [{ role: 'user', text: 'Which merchants pin 2023-10?' }],
  ...extra,
});
const judgeRequest = () =>
  request({
    purpose: 'judge',
    tools: [
      {
        name: 'submit_scores',
        description: 'scores',
        inputSchema: {
          type: 'object',
          required: ['score'],
          properties: { score: { type: 'integer', minimum: 1 } },
        },
      },
    ],
    toolChoice: { type: 'tool', name: 'submit_scores' },
  });

describe.each(['anthropic', 'openai'] as const)('%s provider through the real SDK', (name) => {
  it('answers with text, usage, latency and the request id', async () => {
    const p = await make[name]();
    const r = await p.generate(request());
    expect(r.text).toMatch(/^Mock answer/);
    expect(r.toolCalls).toEqual([]);
    expect(r.usage.inputTokens).toBeGreaterThan(0);
    expect(r.usage.outputTokens).toBeGreaterThan(0);
    expect(r.requestId).toMatch(/^req_mock_\d+$/);
    expect(r.retries).toBe(0);
    expect(r.latencyMs).toBeGreaterThanOrEqual(0);
    expect(mock.captured[0]!.body.model).toBe('test-model');
  });

  it('returns a forced tool call as a ToolCall with parsed input', async () => {
    const p = await make[name]();
    const r = await p.generate(judgeRequest());
    expect(r.toolCalls).toEqual([{ id: expect.any(String), name: 'submit_scores', input: { score: 1 } }]);
    const body = mock.captured[0]!.body;
    expect(name === 'anthropic' ? body.tool_choice : body.tool_choice).toEqual(
      name === 'anthropic'
        ? { type: 'tool', name: 'submit_scores' }
        : { type: 'function', function: { name: 'submit_scores' } },
    );
  });

  it('honours 429 with retry-after and counts the retry', async () => {
    fault = (_n, attempt) =>
      attempt === 0 ? { type: 'status', status: 429, retryAfter: '0.05' } : undefined;
    const r = await (await make[name]()).generate(request());
    expect(r.retries).toBe(1);
    expect(mock.stats.byStatus).toEqual({ 200: 1, 429: 1 });
  });

  it('retries a 500, a response slower than the timeout, a dropped connection and a body cut short', async () => {
    const plan: Fault[] = [
      { type: 'status', status: 500, retryAfterMs: 10 },
      { type: 'slow', delayMs: 5_000 },
      { type: 'drop' },
      { type: 'truncate' },
    ];
    fault = (_n, attempt) => plan[attempt];
    const patient = resolveConfig({ providers: { [name]: { maxRetries: 4, timeoutMs: 1_000 } } });
    const p = keep(await loopbackProvider(mock, name, patient));
    const r = await p.generate(request());
    expect(r.text).toMatch(/^Mock answer/);
    expect(r.retries).toBe(4);
    expect(mock.stats.requests).toBe(5);
    expect(mock.stats.faults).toEqual({ status: 1, slow: 1, drop: 1, truncate: 1 });
  });

  it('a call that exhausts its retries is a ProviderError with status, request id and the SDK error as cause', async () => {
    fault = () => ({ type: 'status', status: 503, retryAfterMs: 5 });
    const p = await make[name]();
    const err = await p.generate(request()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    const e = err as ProviderError;
    expect(e.status).toBe(503);
    expect(e.requestId).toMatch(/^req_mock_\d+$/);
    expect(e.message).toContain('after 3 attempts');
    expect(e.cause).toBeInstanceOf(name === 'anthropic' ? Anthropic.APIError : OpenAI.APIError);
    expect(mock.stats.requests).toBe(3);
  });

  it('a request that keeps timing out fails as a timeout, without an HTTP status', async () => {
    fault = () => ({ type: 'slow', delayMs: 5_000 });
    const err = (await (await make[name]()).generate(request()).catch((e: unknown) => e)) as ProviderError;
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.status).toBeUndefined();
    expect(err.message).toMatch(/timed out after 3 attempts/);
  });

  it('a 400 is not retried', async () => {
    fault = () => ({ type: 'status', status: 400, message: 'bad request' });
    const err = (await (await make[name]()).generate(request()).catch((e: unknown) => e)) as ProviderError;
    expect(err.status).toBe(400);
    expect(mock.stats.requests).toBe(1);
  });
});

describe('Anthropic prompt caching', () => {
  it('marks the shared prefix and counts cache writes, then cache reads', async () => {
    const p = await make.anthropic();
    const messages = [
      { role: 'user' as const, text: 'Parent history '.repeat(50) },
      { role: 'assistant' as const, text: 'Spawning.' },
      { role: 'user' as const, text: 'The child transcript '.repeat(50) },
      { role: 'user' as const, text: 'Task A' },
    ];
    const first = await p.generate(request({ messages, cachePrefix: 3 }));
    const second = await p.generate(
      request({ messages: [...messages.slice(0, 3), { role: 'user', text: 'Task B' }], cachePrefix: 3 }),
    );
    expect(first.usage.cacheWriteTokens).toBeGreaterThan(0);
    expect(first.usage.cacheReadTokens).toBe(0);
    expect(second.usage.cacheReadTokens).toBe(first.usage.cacheWriteTokens);
    expect(second.usage.cacheWriteTokens).toBe(0);
    const marked = mock.captured[0]!.body.messages.flatMap(
      (m: { content: { cache_control?: unknown }[] }) => m.content,
    ).filter((b: { cache_control?: unknown }) => b.cache_control);
    expect(marked).toHaveLength(1);
  });
});

describe('OpenAI usage', () => {
  it('splits cached prompt tokens out of input tokens', async () => {
    const m = await startMockLlmServer({
      responder: () => ({ text: 'ok', usage: { input: 70, cacheRead: 30, output: 5 } }),
    });
    try {
      const p = keep(
        await createOpenAIProvider(config, { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: m.openaiBaseURL }),
      );
      const r = await p.generate(request());
      expect(r.usage).toEqual({ inputTokens: 70, outputTokens: 5, cacheReadTokens: 30, cacheWriteTokens: 0 });
    } finally {
      await m.close();
    }
  });
});

describe('keys come from the environment only', () => {
  it('a missing key fails when the provider is created, naming the variable', async () => {
    await expect(createAnthropicProvider(config, {})).rejects.toThrow(MissingKeyError);
    await expect(createAnthropicProvider(config, {})).rejects.toThrow(/ANTHROPIC_API_KEY/);
    await expect(createOpenAIProvider(config, {})).rejects.toThrow(/OPENAI_API_KEY/);
  });

  it('an OpenAI-compatible server at a custom base URL needs no key', async () => {
    const p = keep(
      await createOpenAIProvider(
        resolveConfig({ providers: { openai: { baseURL: mock.openaiBaseURL } } }),
        {},
      ),
    );
    expect((await p.generate(request())).text).toMatch(/^Mock answer/);
    expect(mock.captured[0]!.headers.authorization).toBe('Bearer no-key');
  });
});

describe('a connection failure names the endpoint, and nothing secret in it', () => {
  it('scheme, host, port and path only: credentials and a query string in the base URL stay out', () => {
    class APIConnectionError extends Error {}
    class APIConnectionTimeoutError extends APIConnectionError {}
    class APIUserAbortError extends Error {}
    const err = toProviderError(
      'openai',
      'gpt-4o-mini',
      new APIConnectionError('Connection error.'),
      { attempts: 3, check: () => undefined },
      'http://user:s3cret@127.0.0.1:8000/v1/?api-key=k3y',
      { APIConnectionError, APIConnectionTimeoutError, APIUserAbortError },
    );
    expect(err.message).toBe(
      'openai gpt-4o-mini: connection to http://127.0.0.1:8000/v1 failed after 3 attempts: Connection error.',
    );
  });
});
