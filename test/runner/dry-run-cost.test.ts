import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../harness/config/resolve-config.ts';
import { dryRun } from '../../harness/runner/dry-run.ts';
import { fixtureCases, testModels } from '../support/mock-run.ts';

/** The dry run's cost figures, at prices unlike any built-in one so the arithmetic shows. */
const config = (prices: Record<string, { input: number; output: number }>, models = testModels) =>
  resolveConfig(
    { casesDir: fixtureCases, reps: 3, provider: 'openai', models, cache: false, prices },
    { quiet: true },
  );

describe('the dry-run estimate', () => {
  it('prices input and output tokens at the configured price per million, typical and at max_tokens', async () => {
    const r = await dryRun(config({ 'gpt-4o-mini': { input: 2, output: 7 } }));
    expect(r.unpriced).toEqual([]);
    expect(r.arms.length).toBeGreaterThan(0);
    for (const a of r.arms) {
      expect(a.inputTokens, a.arm).toBeGreaterThan(0);
      expect(a.maxOutputTokens).toBeGreaterThan(a.outputTokens);
      expect(a.costUsd, a.arm).toBeCloseTo((2 * a.inputTokens + 7 * a.outputTokens) / 1e6, 12);
      expect(a.maxCostUsd, a.arm).toBeCloseTo((2 * a.inputTokens + 7 * a.maxOutputTokens) / 1e6, 12);
    }
    // Twice the prices, twice the cost; the tokens do not depend on the price.
    const twice = await dryRun(config({ 'gpt-4o-mini': { input: 4, output: 14 } }));
    twice.arms.forEach((a, i) => {
      expect(a.inputTokens).toBe(r.arms[i]!.inputTokens);
      expect(a.costUsd).toBeCloseTo(2 * r.arms[i]!.costUsd, 12);
    });
  });

  it('a model without a price costs 0 and is named as unpriced', async () => {
    const models = {
      large: { ...testModels!.large, openai: 'my-local-model' },
      small: { ...testModels!.small, openai: 'my-local-model' },
      judge: { ...testModels!.judge, openai: 'my-local-model' },
    };
    const r = await dryRun(config({}, models));
    expect(r.unpriced).toEqual(['my-local-model']);
    for (const a of r.arms) expect(a.costUsd + a.maxCostUsd).toBe(0);
  });
});
