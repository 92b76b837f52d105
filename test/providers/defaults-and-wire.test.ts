import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ModelRequest, Provider } from '../../harness/core/index.ts';
import { resolveConfig } from '../../harness/config/resolve-config.ts';
import { createOpenAIProvider } from '../../harness/providers/openai.ts';
import { clientDefaults, resolveClientSettings, sdkOptions } from '../../harness/providers/wire-client.ts';
import { countTokens, requestTokens } from '../../harness/core/tokens.ts';
import { ProviderError } from '../../harness/core/errors.ts';
import { startMockLlmServer, type Fault, type MockServer } from '../support/mock-llm-server.ts';
import { loopbackProvider } from '../support/mock-run.ts';

/**
 * Provider defaults (retries, timeout) and the OpenAI wire details no other test pins: which token
 * field goes to which server, and usage estimated when a compatible server sends none.
 */
let mock: MockServer;
let fault: ((attempt: number) => Fault | undefined) | undefined;
const made: Provider[] = [];
beforeAll(async () => {
  mock = await startMockLlmServer({ capture: true, faults: ({ attempt }) => fault?.(attempt) });
});
afterAll(async () => {
  await Promise.all(made.map((p) => p.close?.()));
  await mock.close();
});
beforeEach(() => {
  fault = undefined;
  mock.resetStats();
  mock.captured.length = 0;
});
const keep = (p: Provider) => (made.push(p), p);

const request: ModelRequest = {
  purpose: 'answer',
  model: 'test-model',
  seed: '1/c/0/answer#0',
  maxTokens: 321,
  system: 'You are the parent.',
  messages: [{ role: 'user', text: 'Which merchants pin 2023-10?' }],
};

describe('provider defaults', () => {
  it('are 4 retries and a 120 s timeout, and both reach the SDK client options', () => {
    expect(clientDefaults).toMatchObject({ maxRetries: 4, timeoutMs: 120_000 });
    const spec = { provider: 'openai', keyVar: 'K', baseVar: 'B', keyOptionalAtCustomURL: true } as const;
    const s = resolveClientSettings(spec, resolveConfig({}), { K: 'sk-test' });
    expect(s).toMatchObject({ maxRetries: 4, timeoutMs: 120_000 });
    const { options, transport } = sdkOptions(s);
    transport?.close();
    expect(options).toMatchObject({ maxRetries: 4, timeout: 120_000 });
    const set = resolveClientSettings(
      spec,
      resolveConfig({ providers: { openai: { maxRetries: 1, timeoutMs: 5 } } }),
      {
        K: 'sk-test',
      },
    );
    expect(set).toMatchObject({ maxRetries: 1, timeoutMs: 5 });
  });

  it.each(['anthropic', 'openai'] as const)(
    '%s: without a configured retry count a failing call is tried 1 + 4 times, then fails',
    async (name) => {
      fault = () => ({ type: 'status', status: 429, retryAfterMs: 1 });
      const config = resolveConfig({});
      const p = keep(await loopbackProvider(mock, name, config));
      await expect(p.generate(request)).rejects.toBeInstanceOf(ProviderError);
      expect(mock.stats.byStatus).toEqual({ 429: 5 });
    },
  );
});

describe('OpenAI wire details', () => {
  it('sends max_completion_tokens to OpenAI’s own API and max_tokens to a compatible server', async () => {
    const official = keep(await createOpenAIProvider(resolveConfig({}), { OPENAI_API_KEY: 'sk-test' }));
    expect(official.cacheScope).toMatch(/ max_completion_tokens/);
    const named = keep(
      await createOpenAIProvider(resolveConfig({}), {
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: 'https://api.openai.com/v1',
      }),
    );
    expect(named.cacheScope).toMatch(/ max_completion_tokens/);
    const local = keep(
      await createOpenAIProvider(resolveConfig({}), { OPENAI_BASE_URL: mock.openaiBaseURL }),
    );
    expect(local.cacheScope).toMatch(/ max_tokens/);
    await local.generate(request);
    const body = mock.captured.at(-1)!.body;
    expect(body.max_tokens).toBe(321);
    expect(body).not.toHaveProperty('max_completion_tokens');
  });

  it('estimates usage with the tokenizer when a compatible server sends none (never reports zero)', async () => {
    const text = 'Nineteen merchants pin API version 2023-10.';
    const server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            id: 'chatcmpl-1',
            object: 'chat.completion',
            created: 0,
            model: 'local-model',
            choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: text } }],
          }),
        );
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const port = (server.address() as AddressInfo).port;
      const p = keep(
        await createOpenAIProvider(resolveConfig({}), { OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1` }),
      );
      const r = await p.generate(request);
      expect(r.text).toBe(text);
      expect(r.usage).toEqual({
        inputTokens: requestTokens(request),
        outputTokens: countTokens(text),
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
      });
      expect(r.usage.inputTokens).toBeGreaterThan(10);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
