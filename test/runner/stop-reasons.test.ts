import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveConfig } from '../../harness/config/resolve-config.ts';
import { runExperiment } from '../../harness/runner/run.ts';
import type { MockReply, Protocol } from '../support/mock-llm-wire.ts';
import { startMockLlmServer, type MockServer } from '../support/mock-llm-server.ts';
import { callsOf, fixtureCases, mockEnv, rowsOf, tempDir, testModels } from '../support/mock-run.ts';

/**
 * Every call records its stop reason (calls.jsonl `stopReason`), every row the stop reason of the
 * receiver's final call (`stop_reason`, also in results.csv). A receiver answer that is empty, a
 * refusal or stopped by a content filter makes the cell an error row with its own error_code; its
 * criteria are not judged, and the answer is not cached.
 */
let mock: MockServer;
let receiver: ((protocol: Protocol) => MockReply) | undefined;
const isJudge = (body: any) => body.tool_choice?.type === 'tool' || body.tool_choice?.type === 'function';
beforeAll(async () => {
  mock = await startMockLlmServer({
    capture: true,
    responder: (body, protocol) => (isJudge(body) ? undefined : receiver?.(protocol)),
  });
});
afterAll(() => mock.close());

async function run(provider: 'anthropic' | 'openai', dir: string) {
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
        cache: { dir: join(dir, 'cache') },
        outDir: join(dir, 'runs'),
      },
      { quiet: true },
    );
    return (await runExperiment({ config })).dir;
  } finally {
    process.env = old;
  }
}

const unusable: [string, 'anthropic' | 'openai', (p: Protocol) => MockReply, string][] = [
  ['an empty answer', 'anthropic', () => ({ text: '' }), 'empty_answer'],
  ['an empty answer', 'openai', () => ({ text: '   ' }), 'empty_answer'],
  [
    'a refusal (stop_reason "refusal")',
    'anthropic',
    () => ({ text: 'I can’t help with that.', stop: 'refusal' }),
    'refusal',
  ],
  ['a refusal (message.refusal)', 'openai', () => ({ refusal: 'I can’t help with that.' }), 'refusal'],
  [
    'a content-filter stop',
    'openai',
    () => ({ text: 'The merchants', stop: 'content_filter' }),
    'content_filter',
  ],
];

describe.each(unusable)('%s from %s', (_name, provider, reply, code) => {
  it(`is an error row (${code}), unjudged and uncached; the next run asks again`, async () => {
    const dir = tempDir('stop');
    receiver = reply;
    mock.resetStats();
    const first = await run(provider, dir);
    const judged = mock.captured.filter((c) => isJudge(c.body)).length;
    expect(judged).toBe(0);
    const rows = rowsOf(first);
    expect(rows).toHaveLength(3);
    for (const r of rows) {
      expect(r).toMatchObject({
        status: 'error',
        error_code: code,
        stop_reason: code === 'empty_answer' ? expect.any(String) : code,
      });
      expect(r.scores).toEqual({});
      expect(r.judge_errors).toBe(0);
    }
    expect(rows[0]!.error).toMatch(
      code === 'empty_answer' ? /answer is empty/ : code === 'refusal' ? /refused/ : /content filter/,
    );
    const calls = callsOf(first).filter((c) => c.role === 'receiver');
    expect(calls.every((c) => typeof c.stopReason === 'string')).toBe(true);
    const csv = readFileSync(join(first, 'results.csv'), 'utf8').split('\n');
    expect(csv[0]!.split(',')).toContain('stop_reason');

    receiver = undefined;
    mock.resetStats();
    const second = await run(provider, dir);
    const answered = mock.captured.filter((c) => !isJudge(c.body)).length;
    expect(answered).toBeGreaterThanOrEqual(1);
    for (const r of rowsOf(second)) {
      expect(r.status).toBe('ok');
      expect(r.stop_reason).toBe(provider === 'anthropic' ? 'end_turn' : 'stop');
    }
  });
});
