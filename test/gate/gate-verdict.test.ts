import { describe, expect, it } from 'vitest';
import type { ResultRow } from '../../harness/core/index.ts';
import { ConfigError } from '../../harness/core/errors.ts';
import {
  createBaseline,
  evaluateGate,
  resolveGateThresholds,
  type GateCheck,
} from '../../harness/gate/index.ts';
import { syntheticRows } from '../reports/synthetic.ts';
import { thresholds } from './thresholds.ts';

const spec = {
  seed: 5,
  cases: 8,
  reps: 2,
  arms: ['inline', 'summary'],
  suite: 'ledgerline',
  criteria: ['correctness', 'caveat_carrying'],
};
const before = syntheticRows(spec);
const baseline = createBaseline(before);

/** The same cells with a change applied to one arm's rows. */
function edited(arm: string, f: (r: ResultRow, i: number) => ResultRow): ResultRow[] {
  let i = 0;
  return before.map((r) => (r.arm === arm ? f(structuredClone(r), i++) : structuredClone(r)));
}

const find = (checks: GateCheck[], arm: string, kind: GateCheck['kind'], criterion: string | null = null) =>
  checks.find((c) => c.arm === arm && c.kind === kind && c.criterion === criterion)!;

describe('evaluateGate', () => {
  it('passes a run against its own baseline, with every check present', () => {
    const r = evaluateGate(before, baseline, { ...thresholds, minMean: { correctness: 1 } });
    expect(r.verdict).toBe('pass');
    expect(r.mismatch).toEqual([]);
    // per arm: error rate, tokens, 2 × drop, 1 × min mean
    expect(r.checks).toHaveLength(2 * 5);
    expect(find(r.checks, 'summary', 'drop', 'correctness')).toMatchObject({ delta: 0, verdict: 'pass' });
    expect(r.notes.some((n) => n.includes('differ from the baseline'))).toBe(false);
  });

  it('fails a criterion whose mean is under its minimum', () => {
    const r = evaluateGate(before, baseline, { ...thresholds, minMean: { correctness: 4.5 } });
    expect(r.verdict).toBe('regression');
    const c = find(r.checks, 'inline', 'min-mean', 'correctness');
    expect(c.verdict).toBe('regression');
    expect(c.current).toBeLessThan(4.5);
  });

  it('counts a drop beyond maxDrop when the paired interval excludes zero', () => {
    const run = edited('summary', (r) => ({
      ...r,
      scores: { ...r.scores, correctness: r.scores.correctness! - 1 },
    }));
    const r = evaluateGate(run, baseline, thresholds);
    const c = find(r.checks, 'summary', 'drop', 'correctness');
    expect(c.delta).toBeCloseTo(-1, 10);
    expect(c.ci![1]).toBeLessThan(0);
    expect(c.verdict).toBe('regression');
    expect(find(r.checks, 'summary', 'drop', 'caveat_carrying').verdict).toBe('pass');
    expect(r.verdict).toBe('regression');
    expect(r.notes).toContain(
      "16 of 64 scores differ from the baseline's same cell (a sim run of an unchanged harness reproduces every score exactly)",
    );
  });

  it('does not count a larger mean drop whose interval includes zero (within noise)', () => {
    // Per case, the differences alternate −3 and +2: mean −0.5 (twice maxDrop) but no consistent direction.
    const run = edited('summary', (r, i) => ({
      ...r,
      scores: { ...r.scores, correctness: r.scores.correctness! + (Math.floor(i / 2) % 2 === 0 ? -3 : 2) },
    }));
    const r = evaluateGate(run, baseline, thresholds);
    const c = find(r.checks, 'summary', 'drop', 'correctness');
    expect(c.delta).toBeCloseTo(-0.5, 10);
    expect(c.ci![0]).toBeLessThan(0);
    expect(c.ci![1]).toBeGreaterThan(0);
    expect(c.verdict).toBe('pass');
    expect(c.reason).toContain('within noise');
    expect(r.verdict).toBe('pass');
  });

  it('does not count a consistent drop no larger than maxDrop', () => {
    const run = edited('summary', (r) => ({
      ...r,
      scores: { ...r.scores, correctness: r.scores.correctness! - 0.2 },
    }));
    const c = find(evaluateGate(run, baseline, thresholds).checks, 'summary', 'drop', 'correctness');
    expect(c.ci![1]).toBeLessThan(0);
    expect(c.verdict).toBe('pass');
  });

  it('fails handoff-token growth beyond maxTokenGrowthPct, not below it', () => {
    const grow = (f: number) => edited('inline', (r) => ({ ...r, handoff_tokens: r.handoff_tokens * f }));
    const big = find(evaluateGate(grow(1.2), baseline, thresholds).checks, 'inline', 'token-growth');
    expect(big.delta).toBeCloseTo(20, 1);
    expect(big.verdict).toBe('regression');
    const small = find(evaluateGate(grow(1.05), baseline, thresholds).checks, 'inline', 'token-growth');
    expect(small.verdict).toBe('pass');
  });

  it('fails an error rate above maxErrorRate', () => {
    const run = edited('inline', (r, i) =>
      i === 0 ? { ...r, status: 'error', error: 'boom', error_code: 'internal', scores: {} } : r,
    );
    const strict = evaluateGate(run, baseline, thresholds);
    expect(find(strict.checks, 'inline', 'error-rate')).toMatchObject({
      current: 1 / 16,
      verdict: 'regression',
    });
    expect(strict.verdict).toBe('regression');
    expect(evaluateGate(run, baseline, { ...thresholds, maxErrorRate: 0.1 }).verdict).toBe('pass');
  });

  it('cannot evaluate with fewer paired cells than minCells', () => {
    const r = evaluateGate(before, baseline, { ...thresholds, minCells: 17, minMean: { correctness: 1 } });
    expect(r.verdict).toBe('cannot evaluate');
    expect(find(r.checks, 'inline', 'drop', 'correctness')).toMatchObject({
      verdict: 'cannot evaluate',
      reason: '16 paired cells < minCells 17',
    });
    expect(find(r.checks, 'inline', 'min-mean', 'correctness').verdict).toBe('cannot evaluate');
  });

  it('reports a regression over checks it cannot evaluate', () => {
    const run = edited('summary', (r, i) =>
      i < 4 ? { ...r, status: 'error', error: 'boom', error_code: 'internal', scores: {} } : r,
    );
    const r = evaluateGate(run, baseline, { ...thresholds, minCells: 17 });
    expect(find(r.checks, 'summary', 'error-rate').verdict).toBe('regression');
    expect(r.checks.some((c) => c.verdict === 'cannot evaluate')).toBe(true);
    expect(r.verdict).toBe('regression');
  });

  it('refuses a run of another seed or other models, comparing nothing', () => {
    const run = before.map((r) => ({ ...r, seed: 6, receiver_model: 'anthropic:claude-sonnet-4-5' }));
    const r = evaluateGate(run, baseline, thresholds);
    expect(r.verdict).toBe('cannot evaluate');
    expect(r.checks).toEqual([]);
    expect(r.mismatch.join('\n')).toMatch(/seed: run 6 vs baseline 5[\s\S]*models\.receiver/);
  });

  it('cannot evaluate a baseline arm the run lacks, or a minimum for a criterion nobody scores', () => {
    const run = before.filter((r) => r.arm === 'inline');
    const r = evaluateGate(run, baseline, { ...thresholds, minMean: { corectness: 3 } });
    expect(r.verdict).toBe('cannot evaluate');
    expect(find(r.checks, 'summary', 'coverage')).toMatchObject({
      verdict: 'cannot evaluate',
      reason: 'arm in the baseline but not in the run',
    });
    expect(r.checks.find((c) => c.criterion === 'corectness')).toMatchObject({
      verdict: 'cannot evaluate',
      reason: 'no suite in the run scores corectness',
    });
  });

  it('pairs on case × rep: a run with the baseline cells reordered and re-journalled is the same run', () => {
    const run = [...before].reverse().concat(before.slice(0, 5));
    expect(evaluateGate(run, baseline, thresholds).checks).toEqual(
      evaluateGate(before, baseline, thresholds).checks,
    );
  });
});

describe('resolveGateThresholds', () => {
  const ok = {
    minMean: { correctness: 3 },
    maxDrop: 0.25,
    maxTokenGrowthPct: 10,
    maxErrorRate: 0.02,
    minCells: 6,
  };
  it('accepts the defaults and names the field of a bad value', () => {
    expect(resolveGateThresholds(ok, 'eval.config.ts')).toEqual(ok);
    expect(() => resolveGateThresholds({ ...ok, maxDrop: -1 }, 'eval.config.ts')).toThrow(
      /eval\.config\.ts: gate\.maxDrop: must be a number/,
    );
    expect(() => resolveGateThresholds({ ...ok, minMean: { correctness: 7 } }, 'x.ts')).toThrow(
      /gate\.minMean\.correctness/,
    );
    expect(() => resolveGateThresholds({ ...ok, minCells: 0 }, 'x.ts')).toThrow(ConfigError);
    expect(() => resolveGateThresholds({ ...ok, maxErrorRate: 2 }, 'x.ts')).toThrow(/gate\.maxErrorRate/);
    expect(() => resolveGateThresholds({ ...ok, maxdrop: 1 } as never, 'x.ts')).toThrow(
      /gate\.maxdrop: unknown field/,
    );
  });
});
