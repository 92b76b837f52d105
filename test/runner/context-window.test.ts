import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { join } from 'node:path';
import { resolveConfig } from '../../harness/config/resolve-config.ts';
import { loadConfig } from '../../harness/config/load-config.ts';
import { runExperiment } from '../../harness/runner/run.ts';
import { createSimProvider } from '../../harness/providers/sim/index.ts';
import { defaultSimRates } from '../../harness/providers/sim/rates.ts';
import { ProviderError } from '../../harness/core/errors.ts';
import type { ResultRow } from '../../harness/core/index.ts';
import type { UserConfig } from '../../harness/config/types.ts';
import { startMockLlmServer, type FaultRule, type MockServer } from '../support/mock-llm-server.ts';
import { repoRoot } from '../support/cli.ts';
import { fixtureCases, mockEnv, tempDir, testModels } from '../support/mock-run.ts';

/**
 * Every sim model has a context window (harness/providers/sim/rates.ts); a request past it fails as
 * a real provider's context-length 400 does, and both become the same error row: error_code
 * context_length_exceeded, status 400, nothing scored.
 */
const huge = 'merchant m_0007 pins api version 2023-10 in merchant_config. '.repeat(21_000);

describe('the sim context window', () => {
  it('every size has one, and a request past it is a context_length_exceeded 400 (input + max output)', async () => {
    for (const size of ['small', 'large', 'judge'] as const)
      expect(defaultSimRates[size].contextWindowTokens).toBe(200_000);
    const sim = createSimProvider();
    const ask = (text: string, maxTokens = 2048) =>
      sim.generate({
        purpose: 'answer',
        model: 'sim-large',
        seed: '1/c/0/answer#0',
        maxTokens,
        messages: [{ role: 'user', text }],
      });
    const err = await ask(huge).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect(err).toMatchObject({ code: 'context_length_exceeded', status: 400, fatal: false });
    expect((err as Error).message).toMatch(
      /^sim sim-large: HTTP 400 context length exceeded: [\d,]+ input \+ 2,048 max output tokens > 200,000/,
    );
    // The window counts the output it may write, as the vendors do.
    const small = createSimProvider({ sizes: { large: { contextWindowTokens: 100 } } });
    const shortText = 'which merchants pin 2023-10?';
    await expect(
      small.generate({
        purpose: 'answer',
        model: 'sim-large',
        seed: 's',
        maxTokens: 95,
        messages: [{ role: 'user', text: shortText }],
      }),
    ).rejects.toMatchObject({ code: 'context_length_exceeded' });
    await expect(ask(shortText)).resolves.toMatchObject({ stopReason: 'end_turn' });
  });
});

describe('a request past the context window is the same error row on every provider', () => {
  let mock: MockServer;
  let rule: FaultRule | undefined;
  beforeAll(async () => {
    mock = await startMockLlmServer({ faults: (ctx) => rule?.(ctx) });
  });
  afterAll(() => mock.close());

  const run = async (extra: UserConfig) => {
    const dir = tempDir('ctx');
    const config = resolveConfig(
      {
        casesDir: fixtureCases,
        reps: 1,
        seed: 11,
        models: testModels,
        cache: false,
        outDir: join(dir, 'runs'),
        providers: { openai: { maxRetries: 1 }, anthropic: { maxRetries: 1 } },
        ...extra,
      },
      { quiet: true },
    );
    return (await runExperiment({ config })).rows;
  };
  const expectContextRows = (rows: ResultRow[]) => {
    expect(rows).toHaveLength(3);
    for (const r of rows) {
      expect(r.status).toBe('error');
      expect(r.error_code).toBe('context_length_exceeded');
      expect(r.error).toMatch(/status 400/);
      expect(r.scores).toEqual({});
    }
  };

  it('sim', async () => {
    expectContextRows(await run({ sim: { sizes: { large: { contextWindowTokens: 300 } } } }));
  });

  it('openai (error.code context_length_exceeded) and anthropic ("prompt is too long")', async () => {
    for (const [k, v] of Object.entries(mockEnv(mock))) vi.stubEnv(k, v);
    try {
      rule = ({ protocol, body }) =>
        body.tool_choice === undefined || body.tool_choice?.type === 'none'
          ? protocol === 'openai'
            ? {
                type: 'status',
                status: 400,
                errorType: 'invalid_request_error',
                code: 'context_length_exceeded',
                message:
                  "This model's maximum context length is 128000 tokens. However, your messages resulted in 131012 tokens. Please reduce the length of the messages.",
              }
            : {
                type: 'status',
                status: 400,
                errorType: 'invalid_request_error',
                message: 'prompt is too long: 210345 tokens > 200000 maximum',
              }
          : undefined;
      expectContextRows(await run({ provider: 'openai' }));
      expectContextRows(await run({ provider: 'anthropic' }));
      // A vLLM-style message without a code maps the same way.
      rule = ({ body }) =>
        body.tool_choice === undefined
          ? {
              type: 'status',
              status: 400,
              errorType: 'BadRequestError',
              message:
                "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (2952 in the messages, 2048 in the completion).",
            }
          : undefined;
      expectContextRows(await run({ provider: 'openai' }));
    } finally {
      rule = undefined;
      vi.unstubAllEnvs();
    }
  });
});

describe('the default experiment', () => {
  it('trips no context window (one rep of every shipped suite × arm)', async () => {
    const config = await loadConfig(join(repoRoot, 'eval.config.ts'), { reps: 1, cache: false, quiet: true });
    const out = await runExperiment({
      config: { ...config, casesDir: join(repoRoot, 'cases'), outDir: join(tempDir('default'), 'runs') },
    });
    expect(out.rows.length).toBeGreaterThan(200);
    expect(out.rows.filter((r) => r.status === 'error').map((r) => r.error)).toEqual([]);
    const largest = Math.max(...out.rows.map((r) => r.receiver_window_tokens_after));
    expect(largest).toBeLessThan(200_000 - 2048);
  }, 120_000);
});
