import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ModelRequest, Provider } from '../../harness/core/index.ts';
import { resolveConfig } from '../../harness/config/resolve-config.ts';
import { createAnthropicProvider } from '../../harness/providers/anthropic.ts';
import { createOpenAIProvider } from '../../harness/providers/openai.ts';
import { ProviderError } from '../../harness/core/errors.ts';
import { runExperiment } from '../../harness/runner/run.ts';
import { acquireRunLock } from '../../harness/runner/run-lock.ts';
import {
  malformedBodies,
  startMockLlmServer,
  type Fault,
  type MockServer,
} from '../support/mock-llm-server.ts';
import { fixtureCases, mockEnv, rowsOf, tempDir, testModels } from '../support/mock-run.ts';

/**
 * A 200 whose body cannot be used — content-encoding gzip that is not gzip, an HTML page, a body
 * that is not JSON, JSON of the wrong shape — is a transient failure: the SDK retries it under the
 * same policy as a 5xx (the one retry layer), then the call fails with the status and the body's
 * first bytes in its reason. No response can end the run.
 */
type Kind = keyof typeof malformedBodies;
const kinds = Object.keys(malformedBodies) as Kind[];

let mock: MockServer;
let fault: ((attempt: number) => Fault | undefined) | undefined;
const made: Provider[] = [];
beforeAll(async () => {
  mock = await startMockLlmServer({ faults: ({ attempt }) => fault?.(attempt) });
});
afterAll(async () => {
  await Promise.all(made.map((p) => p.close?.()));
  await mock.close();
});
beforeEach(() => {
  fault = undefined;
  mock.resetStats();
});

const make = async (provider: 'anthropic' | 'openai', transport: 'node' | 'fetch' = 'node') => {
  const config = resolveConfig({ providers: { [provider]: { maxRetries: 2, timeoutMs: 2_000, transport } } });
  const env = mockEnv(mock);
  const p =
    provider === 'anthropic'
      ? await createAnthropicProvider(config, env)
      : await createOpenAIProvider(config, env);
  made.push(p);
  return p;
};
const request: ModelRequest = {
  purpose: 'answer',
  model: 'test-model',
  seed: '1/c/0/answer#0',
  maxTokens: 64,
  messages: [{ role: 'user', text: 'Which merchants pin 2023-10?' }],
};
/** What the reason quotes of each body: its first bytes, printable. */
const quoted: Record<Kind, string> = {
  'bad-gzip': 'this is not gzip',
  html: '<!DOCTYPE html><html><head><title>Sign in',
  'not-json': '{"id":"chatcmpl-x","choices":[{"message"',
  'wrong-shape': '{"status":"ok","result":"queued"}',
};

describe.each(['anthropic', 'openai'] as const)('%s: an unusable 200 body', (provider) => {
  describe.each(['node', 'fetch'] as const)('over the %s transport', (transport) => {
    it.each(kinds)('%s once: retried like a 5xx, and the call succeeds', async (kind) => {
      fault = (attempt) => (attempt === 0 ? { type: kind } : undefined);
      const p = await make(provider, transport);
      const res = await p.generate(request);
      expect(res.text).toMatch(/Mock answer/);
      expect(res.retries).toBe(1);
      expect(mock.stats.requests).toBe(2);
    });

    it.each(kinds)(
      '%s every time: a bad_response error naming the status and the first bytes',
      async (kind) => {
        fault = () => ({ type: kind });
        const p = await make(provider, transport);
        const err = (await p.generate(request).catch((e: unknown) => e)) as ProviderError;
        expect(err).toBeInstanceOf(ProviderError);
        expect(mock.stats.requests).toBe(3);
        expect(err).toMatchObject({ code: 'bad_response', status: 200, fatal: false });
        expect(err.message).toMatch(
          new RegExp(`^${provider} test-model: HTTP 200 with an unusable body after 3 attempts: `),
        );
        // fetch decodes while it reads, so a body that does not decode leaves no bytes to quote.
        const fetchDecode = transport === 'fetch' && kind === 'bad-gzip';
        expect(err.message).toContain(
          fetchDecode
            ? 'body starts: (not available: fetch could not decode it)'
            : `body starts: ${quoted[kind]}`,
        );
      },
    );
  });
});

describe('a run whose responses are all unusable', () => {
  it('ends normally: every cell an error row with the reason, no stale lock', async () => {
    const old = { ...process.env };
    Object.assign(process.env, mockEnv(mock));
    try {
      fault = () => ({ type: 'bad-gzip' });
      const dir = tempDir('bad-gzip');
      const config = resolveConfig(
        {
          casesDir: fixtureCases,
          reps: 2,
          seed: 3,
          provider: 'openai',
          models: testModels,
          cache: false,
          outDir: join(dir, 'runs'),
          providers: { openai: { maxRetries: 1 } },
        },
        { quiet: true },
      );
      const out = await runExperiment({ config });
      const rows = rowsOf(out.dir);
      expect(rows).toHaveLength(6);
      for (const r of rows) {
        expect(r.status).toBe('error');
        expect(r.error_code).toBe('bad_response');
        expect(r.error).toMatch(
          /HTTP 200 with an unusable body after 2 attempts: .*; body starts: this is not gzip/,
        );
      }
      // The run released its lock: another process can take the directory.
      acquireRunLock(out.dir)();
      expect(existsSync(join(out.dir, 'report.md'))).toBe(true);
    } finally {
      process.env = old;
    }
  });
});
