import { describe, expect, it } from 'vitest';
import type { ResultRow } from '../../harness/core/index.ts';
import { createBaseline, evaluateGate, type GateCheck } from '../../harness/gate/index.ts';
import { compareIdentity, overall } from '../../harness/gate/gate.ts';
import type { Baseline, RunIdentity } from '../../harness/gate/types.ts';
import { syntheticRows } from '../reports/synthetic.ts';
import { thresholds } from './thresholds.ts';

/**
 * Each check of a gate verdict at its edges, with the exact reason a CI log shows (issue 32: the
 * verdict's edge cases were where the gate's surviving mutants sat): a limit met exactly, no interval,
 * no ok cells, a baseline of zero tokens, a criterion on one side only, an empty model list.
 */
const spec = {
  seed: 9,
  cases: 8,
  reps: 2,
  arms: ['inline', 'summary'],
  suite: 'ledgerline',
  criteria: ['correctness'],
  continuous: true,
};
const before = syntheticRows(spec);
const baseline = createBaseline(before);

function edited(arm: string, f: (r: ResultRow, i: number) => ResultRow): ResultRow[] {
  let i = 0;
  return before.map((r) => (r.arm === arm ? f(structuredClone(r), i++) : structuredClone(r)));
}
const shifted = (arm: string, by: number) =>
  edited(arm, (r) => ({ ...r, scores: { ...r.scores, correctness: r.scores.correctness! + by } }));
const find = (checks: GateCheck[], arm: string, kind: GateCheck['kind'], criterion: string | null = null) =>
  checks.find((c) => c.arm === arm && c.kind === kind && c.criterion === criterion)!;
/** The baseline with one arm edited. */
function baselineWith(arm: string, f: (a: Baseline['suites'][number]['arms'][number]) => void): Baseline {
  const b = structuredClone(baseline);
  f(b.suites[0]!.arms.find((a) => a.arm === arm)!);
  return b;
}

describe('the reason each check gives', () => {
  it('against its own baseline: no errors, no growth, no difference (within noise), the scored cells', () => {
    const r = evaluateGate(before, baseline, { ...thresholds, minMean: { correctness: 1 } });
    expect(find(r.checks, 'inline', 'error-rate')).toEqual({
      suite: 'ledgerline',
      arm: 'inline',
      kind: 'error-rate',
      criterion: null,
      baseline: 0,
      current: 0,
      delta: 0,
      ci: null,
      limit: 0.02,
      verdict: 'pass',
      reason: '0/16 cells failed',
    });
    expect(find(r.checks, 'inline', 'token-growth')).toMatchObject({
      delta: 0,
      limit: 10,
      ci: null,
      verdict: 'pass',
      reason: 'within the limit',
    });
    expect(find(r.checks, 'inline', 'min-mean', 'correctness')).toMatchObject({
      limit: 1,
      delta: null,
      verdict: 'pass',
      reason: '16 scored cells',
    });
    const drop = find(r.checks, 'summary', 'drop', 'correctness');
    expect(drop).toMatchObject({ delta: 0, limit: 0.25, verdict: 'pass', reason: 'within noise (16 pairs)' });
    // The baseline keeps means to four decimals.
    expect(drop.baseline).toBe(Math.round(drop.current! * 1e4) / 1e4);
    expect(r.notes).toEqual([]);
  });

  it('a consistent drop within maxDrop, a drop beyond it, and a gain (with its note)', () => {
    const small = find(
      evaluateGate(shifted('summary', -0.2), baseline, thresholds).checks,
      'summary',
      'drop',
      'correctness',
    );
    expect(small).toMatchObject({ verdict: 'pass', reason: 'drop 0.20 ≤ 0.25 (16 pairs)' });
    const big = find(
      evaluateGate(shifted('summary', -0.5), baseline, thresholds).checks,
      'summary',
      'drop',
      'correctness',
    );
    expect(big).toMatchObject({ verdict: 'regression', reason: 'drop 0.50 > 0.25, CI excludes 0' });
    expect(big.delta).toBeCloseTo(-0.5, 10);
    expect(big.current! - big.baseline!).toBeCloseTo(-0.5, 3);
    const gain = evaluateGate(shifted('summary', 0.5), baseline, thresholds);
    expect(find(gain.checks, 'summary', 'drop', 'correctness')).toMatchObject({
      verdict: 'pass',
      reason: 'better (16 pairs)',
    });
    expect(gain.verdict).toBe('pass');
    expect(gain.notes).toContain(
      'ledgerline/summary correctness: better than the baseline beyond noise (0.50); refresh the baseline to hold the gain',
    );
  });

  it('a drop of exactly maxDrop passes; a hair more fails', () => {
    const at = (by: number) =>
      find(
        evaluateGate(shifted('summary', by), baseline, thresholds).checks,
        'summary',
        'drop',
        'correctness',
      );
    expect(at(-0.25).verdict).toBe('pass');
    expect(at(-0.2501).verdict).toBe('regression');
  });

  it('a drop over one case has no interval: cannot evaluate, saying how many cases paired', () => {
    const one = before.filter((r) => r.case_id === 'case-00');
    const r = evaluateGate(one, baseline, { ...thresholds, minCells: 2 });
    expect(find(r.checks, 'summary', 'drop', 'correctness')).toMatchObject({
      verdict: 'cannot evaluate',
      reason: '1 case(s) paired: no interval',
      ci: null,
    });
  });

  it('error rate: exactly the limit passes, above it fails; the delta is against the baseline rate', () => {
    const failing = (n: number) =>
      edited('inline', (r, i) =>
        i < n ? { ...r, status: 'error', error: 'boom', error_code: 'internal', scores: {} } : r,
      );
    const atLimit = evaluateGate(failing(1), baseline, { ...thresholds, maxErrorRate: 1 / 16 });
    expect(find(atLimit.checks, 'inline', 'error-rate')).toMatchObject({
      current: 1 / 16,
      delta: 1 / 16,
      verdict: 'pass',
      reason: '1/16 cells failed',
    });
    const b = baselineWith('inline', (a) => (a.errorRate = 0.5));
    const over = find(evaluateGate(failing(2), b, thresholds).checks, 'inline', 'error-rate');
    expect(over).toMatchObject({
      baseline: 0.5,
      current: 2 / 16,
      delta: 2 / 16 - 0.5,
      verdict: 'regression',
    });
  });

  it('token growth: exactly the limit passes; from a baseline of zero tokens any growth is infinite', () => {
    const grown = (f: number) => edited('inline', (r) => ({ ...r, handoff_tokens: r.handoff_tokens * f }));
    const at = find(evaluateGate(grown(1.1), baseline, thresholds).checks, 'inline', 'token-growth');
    expect(at.delta).toBeCloseTo(10, 9);
    expect(at.verdict).toBe('pass');
    const zero = baselineWith('inline', (a) => (a.tokens.handoff = 0));
    const inf = find(evaluateGate(before, zero, thresholds).checks, 'inline', 'token-growth');
    expect(inf).toMatchObject({
      delta: Infinity,
      verdict: 'regression',
      reason: 'handoff grew beyond the limit',
    });
    const none = find(evaluateGate(grown(0), zero, thresholds).checks, 'inline', 'token-growth');
    expect(none).toMatchObject({ baseline: 0, current: 0, delta: 0, verdict: 'pass' });
  });

  it('token growth cannot be evaluated without ok cells on either side, or with fewer than minCells', () => {
    const noBase = baselineWith('inline', (a) => (a.tokens.handoff = null));
    expect(find(evaluateGate(before, noBase, thresholds).checks, 'inline', 'token-growth')).toMatchObject({
      delta: null,
      verdict: 'cannot evaluate',
      reason: 'no ok cells in the baseline',
    });
    const allFailed = edited('inline', (r) => ({
      ...r,
      status: 'error',
      error: 'x',
      error_code: 'internal',
      scores: {},
    }));
    expect(
      find(evaluateGate(allFailed, baseline, thresholds).checks, 'inline', 'token-growth'),
    ).toMatchObject({
      current: null,
      verdict: 'cannot evaluate',
      reason: 'no ok cells in the run',
    });
    const few = evaluateGate(before, baseline, { ...thresholds, minCells: 17 });
    expect(find(few.checks, 'inline', 'token-growth')).toMatchObject({
      delta: null,
      verdict: 'cannot evaluate',
      reason: '16 ok cells < minCells 17',
    });
    expect(
      find(evaluateGate(before, baseline, { ...thresholds, minCells: 16 }).checks, 'inline', 'token-growth')
        .verdict,
    ).toBe('pass');
  });

  it('min mean: exactly the minimum passes, below fails; too few scored cells cannot evaluate', () => {
    const mean = find(
      evaluateGate(before, baseline, thresholds).checks,
      'inline',
      'drop',
      'correctness',
    ).current!;
    const at = (min: number, minCells = 6) =>
      find(
        evaluateGate(before, baseline, { ...thresholds, minCells, minMean: { correctness: min } }).checks,
        'inline',
        'min-mean',
        'correctness',
      );
    expect(at(mean)).toMatchObject({
      current: mean,
      baseline: Math.round(mean * 1e4) / 1e4,
      verdict: 'pass',
    });
    expect(at(mean + 0.001)).toMatchObject({ verdict: 'regression', reason: 'mean below the minimum' });
    expect(at(1, 17)).toMatchObject({ verdict: 'cannot evaluate', reason: '16 scored cells < minCells 17' });
    expect(at(1, 16).verdict).toBe('pass');
  });
});

describe('a criterion on one side only', () => {
  it('scored in the run, not in the baseline: a note, no drop check', () => {
    const b = baselineWith('summary', (a) => delete a.scores.correctness);
    const r = evaluateGate(before, b, thresholds);
    expect(r.checks.filter((c) => c.arm === 'summary' && c.kind === 'drop')).toEqual([]);
    expect(r.notes).toEqual(['ledgerline/summary correctness: not in the baseline, no drop check']);
    expect(r.verdict).toBe('pass');
  });

  it('scored in the baseline, not in the run: cannot evaluate, with the baseline mean', () => {
    const b = baselineWith('summary', (a) => (a.scores.relevance = { ...a.scores.correctness!, mean: 4.25 }));
    const r = evaluateGate(before, b, thresholds);
    expect(r.checks.filter((c) => c.criterion === 'relevance')).toEqual([
      {
        suite: 'ledgerline',
        arm: 'summary',
        kind: 'coverage',
        criterion: 'relevance',
        baseline: 4.25,
        current: null,
        delta: null,
        ci: null,
        limit: null,
        verdict: 'cannot evaluate',
        reason: 'scored in the baseline, not in the run',
      },
    ]);
    expect(r.verdict).toBe('cannot evaluate');
  });

  it('an arm the baseline lacks gets the absolute checks only, with no baseline figures', () => {
    const b = structuredClone(baseline);
    b.suites[0]!.arms = b.suites[0]!.arms.filter((a) => a.arm !== 'summary');
    const r = evaluateGate(before, b, { ...thresholds, minMean: { correctness: 1 } });
    const checks = r.checks.filter((c) => c.arm === 'summary');
    expect(checks.map((c) => c.kind).sort()).toEqual(['error-rate', 'min-mean']);
    expect(checks.every((c) => c.baseline === null)).toBe(true);
    expect(find(r.checks, 'summary', 'error-rate').delta).toBeNull();
    expect(r.notes).toContain('ledgerline/summary is not in the baseline: absolute checks only');
  });
});

describe('overall and compareIdentity', () => {
  const check = (verdict: GateCheck['verdict']) => ({ verdict }) as GateCheck;
  it('regression over cannot evaluate over pass; no checks pass', () => {
    expect(overall([])).toBe('pass');
    expect(overall([check('pass'), check('pass')])).toBe('pass');
    expect(overall([check('pass'), check('cannot evaluate')])).toBe('cannot evaluate');
    expect(overall([check('cannot evaluate'), check('regression'), check('pass')])).toBe('regression');
  });

  it('names each differing role with both sides, a dash for none', () => {
    const id = (models: Partial<RunIdentity['models']>, seed: number | null = 1): RunIdentity => ({
      runId: 'r',
      seed,
      harnessVersion: 'v',
      simulated: true,
      models: { source: ['sim:a'], receiver: ['sim:a'], judge: ['sim:j'], ...models },
      suites: [],
    });
    expect(compareIdentity(id({}), id({}))).toEqual([]);
    expect(compareIdentity(id({ source: [] }, null), id({ judge: ['sim:j', 'sim:k'] }))).toEqual([
      'seed: run null vs baseline 1',
      'models.source: run – vs baseline sim:a',
      'models.judge: run sim:j vs baseline sim:j, sim:k',
    ]);
    expect(compareIdentity(id({ receiver: ['x:1', 'x:2'] }), id({ receiver: [] }))).toEqual([
      'models.receiver: run x:1, x:2 vs baseline –',
    ]);
  });
});
