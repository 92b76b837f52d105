import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { resolveConfig } from '../../harness/config/resolve-config.ts';
import { runExperiment } from '../../harness/runner/run.ts';
import { errorBudget } from '../../harness/runner/error-budget.ts';
import type { MockReply, Protocol } from '../support/mock-llm-wire.ts';
import { startMockLlmServer, type MockServer } from '../support/mock-llm-server.ts';
import { fixtureCases, mockEnv, tempDir, testModels } from '../support/mock-run.ts';

/**
 * The source's answers a handoff is built from (issue 28 #10): an empty, refused or content-filtered
 * summary is an error row with its own error_code, never handed on and scored; an answer cut at
 * max_tokens (source or receiver) is flagged in the row (`truncated`) and counts against the error
 * budget unless the arm allows truncation.
 */
let mock: MockServer;
let source: ((p: Protocol) => MockReply) | undefined;
let receiver: ((p: Protocol) => MockReply) | undefined;
const isJudge = (body: any) => body.tool_choice?.type === 'tool' || body.tool_choice?.type === 'function';
const isSummary = (body: any) => JSON.stringify(body).includes('Summarise your findings');
beforeAll(async () => {
  mock = await startMockLlmServer({
    capture: true,
    responder: (body, protocol) =>
      isJudge(body) ? undefined : isSummary(body) ? source?.(protocol) : receiver?.(protocol),
  });
});
afterAll(() => mock.close());

async function run(provider: 'anthropic' | 'openai', allowTruncation = false) {
  const old = { ...process.env };
  Object.assign(process.env, mockEnv(mock));
  try {
    const config = resolveConfig(
      {
        casesDir: fixtureCases,
        reps: 1,
        seed: 5,
        provider,
        models: testModels,
        cache: false,
        outDir: join(tempDir('source-answer'), 'runs'),
        suites: [
          {
            id: 'mini',
            arms: ['sum'],
            extraArms: [
              {
                name: 'sum',
                strategy: 'summary',
                models: { source: 'large', receiver: 'large' },
                ...(allowTruncation ? { allowTruncation } : {}),
              },
            ],
          },
        ],
      },
      { quiet: true },
    );
    return (await runExperiment({ config })).rows;
  } finally {
    process.env = old;
  }
}

const unusable: [string, 'anthropic' | 'openai', (p: Protocol) => MockReply, string, RegExp][] = [
  [
    'an empty summary',
    'anthropic',
    () => ({ text: '' }),
    'empty_answer',
    /source's summarize answer is empty/,
  ],
  [
    'a blank summary',
    'openai',
    () => ({ text: '  \n ' }),
    'empty_answer',
    /source's summarize answer is empty/,
  ],
  [
    'a refused summary',
    'anthropic',
    () => ({ text: 'I can’t help with that.', stop: 'refusal' }),
    'refusal',
    /the source refused its summarize call/,
  ],
  ['a refused summary (message.refusal)', 'openai', () => ({ refusal: 'No.' }), 'refusal', /source refused/],
  [
    'a content-filtered summary',
    'openai',
    () => ({ text: 'The merch', stop: 'content_filter' }),
    'content_filter',
    /source's summarize answer was stopped by a content filter/,
  ],
];

describe.each(unusable)('%s from %s', (_name, provider, reply, code, message) => {
  it(`is an error row (${code}) naming the source; nothing is judged`, async () => {
    source = reply;
    receiver = undefined;
    mock.resetStats();
    const rows = await run(provider);
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      expect(r).toMatchObject({ status: 'error', error_code: code });
      expect(r.error).toMatch(message);
      expect(r.scores).toEqual({});
    }
    expect(mock.captured.filter((c) => isJudge(c.body))).toHaveLength(0);
    expect(errorBudget(rows, 0.5).over).toBe(true);
  });
});

describe('answers cut at max_tokens', () => {
  const cut = (p: Protocol): MockReply => ({
    text: 'The merchants on 2023-10 must move to',
    stop: p === 'anthropic' ? 'max_tokens' : 'length',
  });

  it.each(['anthropic', 'openai'] as const)(
    'a cut summary (%s) is scored but flagged, and counts against the error budget',
    async (provider) => {
      source = cut;
      receiver = undefined;
      const rows = await run(provider);
      for (const r of rows) {
        expect(r.status).toBe('ok');
        expect(r.truncated).toEqual(['source']);
        expect(r.truncation_allowed).toBe(false);
      }
      const budget = errorBudget(rows, 0.5);
      expect(budget).toMatchObject({ errors: rows.length, truncated: rows.length, over: true });
      expect(budget.top[0]).toMatchObject({
        code: 'max_tokens',
        reason: expect.stringMatching(/^answer cut at max_tokens \(source\)/),
      });
    },
  );

  it('a cut receiver answer is flagged too; an arm that allows truncation keeps its rows out of the budget', async () => {
    source = undefined;
    receiver = cut;
    const flagged = await run('anthropic');
    expect(flagged.every((r) => r.status === 'ok' && r.truncated?.join() === 'receiver')).toBe(true);
    const allowed = await run('anthropic', true);
    for (const r of allowed) expect(r).toMatchObject({ truncated: ['receiver'], truncation_allowed: true });
    expect(errorBudget(allowed, 0)).toMatchObject({ errors: 0, truncated: 0, over: false });
  });

  it('an answer that ends normally carries no flag', async () => {
    source = undefined;
    receiver = undefined;
    const rows = await run('openai');
    expect(rows.every((r) => r.status === 'ok' && r.truncated === undefined)).toBe(true);
    expect(errorBudget(rows, 0).errors).toBe(0);
  });
});
