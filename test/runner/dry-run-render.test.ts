import { describe, expect, it } from 'vitest';
import { renderDryRun, type ArmEstimate, type DryRunReport } from '../../harness/runner/dry-run.ts';
import { resolveConfig } from '../../harness/config/resolve-config.ts';
import { dryRun } from '../../harness/runner/dry-run.ts';
import { fixtureCases, testModels } from '../support/mock-run.ts';

/**
 * The `run --dry-run` table in-process (issue 32 item 2): the CLI test (dry-run.test.ts) reads it
 * from a second process; here every line is checked against figures written by hand.
 */
const arm = (over: Partial<ArmEstimate>): ArmEstimate => ({
  suite: 's',
  arm: 'a',
  strategy: 'st',
  cells: 2,
  calls: { source: 1, receiver: 2, judge: 3 },
  inputTokens: 1234.4,
  outputTokens: 10,
  maxOutputTokens: 2000,
  costUsd: 0,
  maxCostUsd: 0.004,
  failedCells: 0,
  ...over,
});
const base: DryRunReport = {
  cells: 5,
  provider: { source: 'openai', receiver: 'anthropic', judge: 'sim' },
  arms: [
    arm({}),
    arm({
      suite: 't',
      arm: 'b',
      strategy: 'su',
      cells: 3,
      calls: { source: 10, receiver: 20, judge: 30 },
      inputTokens: 1_000_000,
      outputTokens: 5.6,
      maxOutputTokens: 3000,
      costUsd: 0.5,
      maxCostUsd: 12.345,
    }),
  ],
  unpriced: [],
  unsimulated: [],
};

describe('renderDryRun', () => {
  it('one line per arm, the totals, and what the estimate assumes', () => {
    const lines = renderDryRun(base).split('\n');
    expect(lines[0]).toBe(
      'handoff-eval run --dry-run: 5 cells; nothing was called. Providers: source=openai, receiver=anthropic, judge=sim.',
    );
    expect(lines[1]).toBe('');
    expect(lines[2]).toBe(
      '| suite | arm | strategy | cells | source calls | receiver calls | judge calls | input tokens | output tokens (est / max) | cost (est / max) |',
    );
    expect(lines[3]).toBe('|---|---|---|---:|---:|---:|---:|---:|---:|---:|');
    expect(lines[4]).toBe('| s | a | st | 2 | 1 | 2 | 3 | 1,234 | 10 / 2,000 | $0 / $0.0040 |');
    expect(lines[5]).toBe('| t | b | su | 3 | 10 | 20 | 30 | 1,000,000 | 6 / 3,000 | $0.50 / $12.35 |');
    expect(lines[6]).toBe('| **total** | | | 5 | 11 | 22 | 33 | 1,001,234 | 16 / 5,000 | $0.50 / $12.35 |');
    expect(lines[7]).toBe('');
    expect(lines.slice(8)).toEqual([
      'Input tokens: the tokenizer (o200k) on each rendered request; a vendor tokenizer may count ±15% differently.',
      'Output tokens: "est" is what the sim stand-in wrote for each call, "max" is every call using its max_tokens. Cost is at list input price (prompt-cache discounts not applied) and does not subtract responses already in the response cache.',
      'Calls that depend on a model (contract retries, receiver tool rounds) are counted as the sim made them; a real model may make more or fewer.',
    ]);
  });

  it('names batch pricing, unpriced models, unsimulated purposes and failed cells when there are any', () => {
    const text = renderDryRun({
      ...base,
      batch: true,
      unpriced: ['m1', 'm2'],
      unsimulated: ['p1', 'p2'],
      arms: [arm({ failedCells: 2 }), arm({ failedCells: 1 })],
    });
    const tail = text.split('\n').slice(11);
    expect(tail).toEqual([
      '--batch: the calls to anthropic and openai are priced at the batch price (50% of list, as both vendors document); results arrive within 24 h per dependency phase (docs/scale.md).',
      'No price for: m1, m2 (counted as $0; add them under `prices` in eval.config.ts).',
      'No stand-in behaviour for call purpose(s) p1, p2: their output is estimated at max_tokens.',
      '3 cell(s) failed during the estimate; only the calls made before the failure are counted.',
    ]);
    expect(renderDryRun(base).split('\n')).toHaveLength(11);
  });

  it('a cost of exactly one cent shows two decimals; below it, four', () => {
    const text = renderDryRun({ ...base, arms: [arm({ costUsd: 0.01, maxCostUsd: 0.00999 })] });
    expect(text).toContain('| $0.01 / $0.0100 |');
  });
});

describe('dryRun', () => {
  const config = (over: Record<string, unknown> = {}) =>
    resolveConfig(
      { casesDir: fixtureCases, reps: 2, provider: 'openai', models: testModels, cache: false, ...over },
      { quiet: true },
    );

  it('counts every planned cell once per arm, calls per role, and skips the cells it is told to', async () => {
    const r = await dryRun(config());
    expect(r.cells).toBe(r.arms.reduce((n, a) => n + a.cells, 0));
    expect(r.provider).toEqual({ source: 'openai', receiver: 'openai', judge: 'openai' });
    expect(r.batch).toBeUndefined();
    expect(new Set(r.arms.map((a) => `${a.suite}/${a.arm}`)).size).toBe(r.arms.length);
    for (const a of r.arms) {
      expect(a.calls.receiver, a.arm).toBeGreaterThanOrEqual(a.cells);
      expect(a.calls.judge, a.arm).toBeGreaterThanOrEqual(a.cells);
      expect(a.failedCells).toBe(0);
      expect(a.outputTokens).toBeLessThanOrEqual(a.maxOutputTokens);
    }
    const { planCells } = await import('../../harness/runner/plan.ts');
    const { loadExperiment } = await import('../../harness/runner/experiment.ts');
    const ids = planCells(await loadExperiment(config()), config()).map((c) => c.id);
    const fewer = await dryRun(config(), { skip: new Set(ids.slice(0, 3)) });
    expect(fewer.cells).toBe(r.cells - 3);
  });

  it('--batch prices the batchable providers at half', async () => {
    const full = await dryRun(config());
    const batch = await dryRun({ ...config(), batch: true });
    expect(batch.batch).toBe(true);
    batch.arms.forEach((a, i) => {
      expect(a.inputTokens).toBe(full.arms[i]!.inputTokens);
      expect(a.costUsd).toBeCloseTo(full.arms[i]!.costUsd / 2, 12);
      expect(a.maxCostUsd).toBeCloseTo(full.arms[i]!.maxCostUsd / 2, 12);
    });
    expect(full.arms.some((a) => a.costUsd > 0)).toBe(true);
  });
});
