import { describe, expect, it } from 'vitest';
import { renderGateMarkdown } from '../../harness/gate/markdown.ts';
import type { GateCheck, GateResult, RunIdentity } from '../../harness/gate/types.ts';

/**
 * The gate's Markdown (stdout and $GITHUB_STEP_SUMMARY) for a verdict with one check of every kind,
 * each row read and checked against the rules in harness/gate/markdown.ts: labels, values (a share as
 * %, tokens rounded, scores to 2 places), signed deltas (no sign when it rounds to 0, −∞/+∞ growth),
 * thresholds per kind, escaped pipes, the mismatch block, scoped thresholds and notes.
 */
const identity = (runId: string, simulated: boolean): RunIdentity => ({
  runId,
  seed: 7,
  harnessVersion: 'v',
  simulated,
  models: { source: [], receiver: [], judge: [] },
  suites: [],
});
const check = (over: Partial<GateCheck>): GateCheck => ({
  suite: 's',
  arm: 'a',
  kind: 'drop',
  criterion: null,
  baseline: null,
  current: null,
  delta: null,
  ci: null,
  limit: null,
  verdict: 'pass',
  reason: 'ok',
  ...over,
});

const result = (over: Partial<GateResult> = {}): GateResult => ({
  verdict: 'regression',
  checks: [
    check({
      kind: 'error-rate',
      baseline: 0.05,
      current: 0.2,
      delta: 0.15,
      limit: 0.1,
      verdict: 'regression',
      reason: 'above',
    }),
    check({
      kind: 'token-growth',
      baseline: 1000.4,
      current: 1500.6,
      delta: 50.04,
      limit: 25,
      reason: 'x|y',
    }),
    check({ kind: 'token-growth', baseline: 0, current: 10, delta: Infinity, limit: 25 }),
    check({
      kind: 'min-mean',
      criterion: 'correctness',
      baseline: 4.123,
      current: 3.5,
      limit: 3.75,
      verdict: 'regression',
    }),
    check({
      kind: 'drop',
      criterion: 'correctness',
      baseline: 4,
      current: 3.996,
      delta: -0.004,
      ci: [-0.3, 0.25],
      limit: 0.5,
    }),
    check({ kind: 'drop', criterion: 'caveats', delta: 0.5, limit: 0.5 }),
    check({
      kind: 'coverage',
      criterion: 'correctness',
      baseline: 12,
      current: 11.5,
      verdict: 'cannot evaluate',
      reason: 'few',
    }),
    check({ kind: 'coverage', baseline: 12.4, current: 11.6 }),
    check({ kind: 'config', verdict: 'cannot evaluate', reason: 'config: params differ: cap 3 → 4' }),
    check({ kind: 'scope', verdict: 'cannot evaluate', reason: 'no suite x' }),
  ],
  mismatch: [],
  notes: ['a note with | a pipe'],
  run: identity('run-1', true),
  baseline: identity('base-1', false),
  thresholds: {
    minMean: { correctness: 3.75 },
    maxDrop: 0.5,
    maxTokenGrowthPct: 25,
    maxErrorRate: 0.05,
    minCells: 6,
    arms: { inline: { maxDrop: 1 } },
  } as unknown as GateResult['thresholds'],
  ...over,
});

const EXPECTED = [
  '## handoff-eval gate: REGRESSION',
  '',
  'Run `run-1` vs baseline `base-1` (ci/baseline.json) · seed 7 · 10 checks: 5 pass, 2 regression, 3 cannot evaluate',
  '',
  '> Simulated — not a measurement of any model.',
  '',
  '| suite | arm | check | baseline | current | Δ [95% CI] | threshold | verdict |',
  '| --- | --- | --- | ---: | ---: | --- | --- | --- |',
  '| s | a | error rate | 5.0% | 20% | +15.0 pp | ≤ 10% | **regression** — above |',
  '| s | a | handoff tokens (mean) | 1000 | 1501 | +50.0% | ≤ +25% | pass — x\\|y |',
  '| s | a | handoff tokens (mean) | 0 | 10 | +∞% | ≤ +25% | pass — ok |',
  '| s | a | correctness (mean) | 4.12 | 3.50 | – | ≥ 3.75 | **regression** — ok |',
  '| s | a | correctness (drop) | 4.00 | 4.00 | 0.00 [−0.30, 0.25] | drop ≤ 0.5, beyond noise | pass — ok |',
  '| s | a | caveats (drop) | – | – | +0.50 | drop ≤ 0.5, beyond noise | pass — ok |',
  '| s | a | correctness (scored) | 12.00 | 11.50 | – | – | **cannot evaluate** — few |',
  '| s | a | cells | 12 | 12 | – | – | pass — ok |',
  '| s | a | strategy, params, models | – | – | – | – | **cannot evaluate** — config: params differ: cap 3 → 4 |',
  '| s | a | scoped threshold | – | – | – | – | **cannot evaluate** — no suite x |',
  '',
  'Not like-for-like with the baseline — configured differently, so not compared (--like-for-like; cannot evaluate):',
  '',
  '- s/a: params differ: cap 3 → 4',
  '',
  'Thresholds: min mean correctness ≥ 3.75 · max drop 0.5 (counted only when the paired 95% CI excludes 0) · max handoff-token growth 25% · max error rate 5.0% · min cells 6 · scoped: arms.inline {"maxDrop":1}',
  '',
  'Notes:',
  '',
  '- a note with \\| a pipe',
  '',
];

describe('the gate as Markdown', () => {
  it('renders a row per check, by the rules of its kind', () => {
    const md = renderGateMarkdown(result(), { baselineFile: 'ci/baseline.json' });
    expect(md.split('\n')).toEqual(EXPECTED);
  });

  it('a run of another experiment: the mismatch, nothing compared, and how to fix it', () => {
    const md = renderGateMarkdown(
      result({
        verdict: 'cannot evaluate',
        checks: [],
        notes: [],
        mismatch: ['seed: 7 vs 8'],
        run: null,
        baseline: { ...identity('base-2', false), seed: null },
        thresholds: { ...result().thresholds, minMean: {}, arms: {} } as GateResult['thresholds'],
      }),
    );
    expect(md.split('\n')).toEqual([
      '## handoff-eval gate: cannot evaluate',
      '',
      'Run `?` vs baseline `base-2` · seed – · 0 checks: 0 pass, 0 regression, 0 cannot evaluate',
      '',
      'The run and the baseline are not the same experiment; nothing was compared:',
      '',
      '- seed: 7 vs 8',
      '',
      "Rebuild the baseline from a run of this experiment (docs/ci.md) or run with the baseline's seed, models and source mode.",
      '',
      'Thresholds: min mean – · max drop 0.5 (counted only when the paired 95% CI excludes 0) · max handoff-token growth 25% · max error rate 5.0% · min cells 6',
      '',
    ]);
    expect(renderGateMarkdown(result({ verdict: 'pass', checks: [] })).split('\n')[0]).toBe(
      '## handoff-eval gate: pass',
    );
  });
  it('falls and gains signed, a delta that rounds to zero unsigned, arms compared by name listed, scoped suites, where the thresholds came from', () => {
    const md = renderGateMarkdown(
      result({
        verdict: 'pass',
        checks: [
          check({ kind: 'error-rate', baseline: 0.2, current: 0.1, delta: -0.1, limit: 0.1 }),
          check({ kind: 'token-growth', baseline: 1000, current: 900, delta: -10, limit: 10 }),
          check({
            kind: 'drop',
            criterion: 'c',
            baseline: 3,
            current: 3.4,
            delta: 0.4,
            ci: [0.1, 0.7],
            limit: 0.25,
            reason: 'better\nthan before',
          }),
          check({ kind: 'drop', criterion: 'c', delta: -0.001, ci: [-0.004, 0.002], limit: 0.25 }),
          check({ kind: 'config', reason: 'config: strategy differs: a → b' }),
        ],
        notes: [],
        run: identity('run-3', false),
        baseline: identity('base-3', true),
        thresholds: {
          minMean: { a: 3, b: 4 },
          maxDrop: 0.25,
          maxTokenGrowthPct: 10,
          maxErrorRate: 0.1,
          minCells: 6,
          suites: { milk: { minCells: 2 } },
          arms: { x: { maxDrop: 1 } },
        } as unknown as GateResult['thresholds'],
      }),
      { thresholdsFrom: 'eval.config.ts' },
    );
    expect(md.split('\n')).toEqual([
      '## handoff-eval gate: pass',
      '',
      'Run `run-3` vs baseline `base-3` · seed 7 · 5 checks: 5 pass, 0 regression, 0 cannot evaluate',
      '',
      '> Simulated — not a measurement of any model.',
      '',
      '| suite | arm | check | baseline | current | Δ [95% CI] | threshold | verdict |',
      '| --- | --- | --- | ---: | ---: | --- | --- | --- |',
      '| s | a | error rate | 20% | 10% | −10.0 pp | ≤ 10% | pass — ok |',
      '| s | a | handoff tokens (mean) | 1000 | 900 | −10.0% | ≤ +10% | pass — ok |',
      '| s | a | c (drop) | 3.00 | 3.40 | +0.40 [0.10, 0.70] | drop ≤ 0.25, beyond noise | pass — better than before |',
      '| s | a | c (drop) | – | – | 0.00 [0.00, 0.00] | drop ≤ 0.25, beyond noise | pass — ok |',
      '| s | a | strategy, params, models | – | – | – | – | pass — config: strategy differs: a → b |',
      '',
      'Changed since the baseline — configured differently, compared with the baseline arm of the same name (a drop beyond noise is a regression; `gate --like-for-like` refuses to compare them instead):',
      '',
      '- s/a: strategy differs: a → b',
      '',
      'Thresholds (from eval.config.ts): min mean a ≥ 3, b ≥ 4 · max drop 0.25 (counted only when the paired 95% CI excludes 0) · max handoff-token growth 10% · max error rate 10% · min cells 6 · scoped: suites.milk {"minCells":2} · arms.x {"maxDrop":1}',
      '',
    ]);
  });
});
