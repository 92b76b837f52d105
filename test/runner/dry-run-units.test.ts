import { describe, expect, it } from 'vitest';
import type { ModelResponse, Strategy, StrategyContext } from '../../harness/core/index.ts';
import { resolveConfig } from '../../harness/config/resolve-config.ts';
import { dryRun } from '../../harness/runner/dry-run.ts';
import { getStrategy } from '../../strategies/index.ts';
import { fixtureCases, testModels } from '../support/mock-run.ts';

/**
 * The dry run's edges in process (issue 32 item 2): a call purpose the sim stand-in has no behaviour
 * for, a strategy that fails during the estimate, models without a price, a role served by the sim.
 */
const inline = getStrategy('inline', {}, 'test');

/** Asks the source twice for a purpose the sim does not know, then hands over like inline. */
const answered: ModelResponse[] = [];
const asking = (name: string, maxTokens: number): Strategy => ({
  name,
  description: 'test',
  seed: 'test',
  params: {},
  prepare: async (ctx: StrategyContext) => {
    for (let i = 0; i < 2; i++)
      answered.push(
        await ctx.call('source', {
          purpose: 'my-purpose' as 'summarize',
          messages: [{ role: 'user', text: 'Say something.' }],
          maxTokens,
        }),
      );
    return inline.prepare(ctx, { replay: 'full' });
  },
});
const asks = asking('asks', 77);
const asksMore = asking('asks-more', 1077);

/** Fails on rep 1. */
const fails: Strategy = {
  name: 'fails',
  description: 'test',
  seed: 'test',
  params: {},
  prepare: async (ctx: StrategyContext) => {
    if (ctx.rep === 1) throw new Error('fails on rep 1');
    return inline.prepare(ctx, { replay: 'full' });
  },
};

const config = (over: Record<string, unknown> = {}) =>
  resolveConfig(
    {
      casesDir: fixtureCases,
      reps: 2,
      provider: 'openai',
      models: testModels,
      cache: false,
      strategies: { asks, 'asks-more': asksMore, fails },
      suites: [
        {
          id: 'mini',
          arms: ['inline', 'asks', 'asks-more', 'fails'],
          extraArms: [
            { name: 'asks', strategy: 'asks', models: { source: 'large', receiver: 'large' } },
            { name: 'asks-more', strategy: 'asks-more', models: { source: 'large', receiver: 'large' } },
            { name: 'fails', strategy: 'fails', models: { source: 'large', receiver: 'large' } },
          ],
        },
      ],
      ...over,
    },
    { quiet: true },
  );

describe('dryRun at its edges', () => {
  it('one estimate per arm, each with its own cells', async () => {
    const r = await dryRun(config());
    expect(r.arms.map((a) => [a.suite, a.arm, a.strategy, a.cells])).toEqual([
      ['mini', 'inline', 'inline', 2],
      ['mini', 'asks', 'asks', 2],
      ['mini', 'asks-more', 'asks-more', 2],
      ['mini', 'fails', 'fails', 2],
    ]);
    expect(r.cells).toBe(8);
  });

  it('a purpose the stand-in cannot answer is counted at its max_tokens and named', async () => {
    const r = await dryRun(config());
    expect(r.unsimulated).toEqual(['my-purpose']);
    const asked = r.arms.find((a) => a.arm === 'asks')!;
    const more = r.arms.find((a) => a.arm === 'asks-more')!;
    const plain = r.arms.find((a) => a.arm === 'inline')!;
    // Two unsimulated source calls per cell, two cells: 4 calls at their whole max_tokens.
    expect(asked.calls.source).toBe(plain.calls.source + 4);
    expect(more.outputTokens - asked.outputTokens).toBe(4 * 1000);
    expect(more.maxOutputTokens - asked.maxOutputTokens).toBe(4 * 1000);
    // What the strategy was handed: a stand-in text, the stop reason `unsimulated`, the tokens counted.
    const one = answered.find((a) => a.usage.outputTokens === 77)!;
    expect(one.text).toBe('(dry run: no stand-in answer for call purpose "my-purpose")');
    expect(one.stopReason).toBe('unsimulated');
    expect(one.usage.inputTokens).toBeGreaterThan(0);
    expect(one.model).toBe('gpt-4o-mini');
    // The cell goes on past the unanswered calls: its receiver and judge calls are counted too.
    expect(asked.failedCells).toBe(0);
    expect(asked.calls.receiver).toBe(plain.calls.receiver);
    expect(asked.calls.judge).toBe(plain.calls.judge);
  });

  it('a strategy that fails counts the failed cells, and only the calls made before', async () => {
    const r = await dryRun(config());
    const failed = r.arms.find((a) => a.arm === 'fails')!;
    const plain = r.arms.find((a) => a.arm === 'inline')!;
    expect(failed.failedCells).toBe(1);
    expect(plain.failedCells).toBe(0);
    expect(failed.calls.receiver).toBe(plain.calls.receiver / 2);
    expect(failed.calls.judge).toBe(plain.calls.judge / 2);
  });

  it('unpriced models are named once each, sorted; a role served by the sim is never unpriced', async () => {
    const models = {
      large: { ...testModels!.large, openai: 'zeta-local' },
      small: { ...testModels!.small, openai: 'zeta-local' },
      judge: { ...testModels!.judge, openai: 'alpha-local' },
    };
    const r = await dryRun(config({ models }));
    expect(r.unpriced).toEqual(['alpha-local', 'zeta-local']);
    const simJudge = await dryRun(
      config({ models, provider: { source: 'openai', receiver: 'openai', judge: 'sim' } }),
    );
    expect(simJudge.unpriced).toEqual(['zeta-local']);
  });

  it('an alias with no sim model is stood in for by sim-large, and its calls are answered', async () => {
    const models = {
      large: { openai: 'gpt-4o-mini' },
      small: { openai: 'gpt-4o-mini' },
      judge: { openai: 'gpt-4o-mini' },
    };
    const r = await dryRun(config({ models, suites: [{ id: 'mini', arms: ['inline'] }] }));
    expect(r.unsimulated).toEqual([]);
    expect(r.arms[0]!.outputTokens).toBeLessThan(r.arms[0]!.maxOutputTokens);
    expect(r.arms[0]!.outputTokens).toBeGreaterThan(0);
  });

  it("the stand-in has no context window: a request past the sim's is still answered (the real provider has its own)", async () => {
    const tiny = { contextWindowTokens: 10 };
    const r = await dryRun(
      config({
        sim: { sizes: { large: tiny, small: tiny, judge: tiny } },
        suites: [{ id: 'mini', arms: ['inline'] }],
      }),
    );
    expect(r.unsimulated).toEqual([]);
    expect(r.arms[0]!.failedCells).toBe(0);
  });
});
