import { describe, expect, it } from 'vitest';
import type { ResultRow } from '../../harness/core/index.ts';
import { createBaseline, evaluateGate } from '../../harness/gate/index.ts';
import { changedCells } from '../../harness/gate/coverage.ts';
import { validateBaselineShape } from '../../harness/gate/baseline-schema.ts';
import { syntheticRows } from '../reports/synthetic.ts';
import { thresholds } from './thresholds.ts';

/**
 * What the run lacks against its baseline (a suite, an arm, a criterion's minimum), the count of
 * scores that moved, and a baseline file's shape problems named by field (issue 32: the gate's
 * surviving mutants sat in these messages and counts).
 */
const suiteRows = (suite: string, seed: number) =>
  syntheticRows({ seed, cases: 6, reps: 2, arms: ['inline', 'summary'], suite, criteria: ['correctness'] });
const ledger = suiteRows('ledgerline', 3);
const milk = suiteRows('milk', 4);
const both = createBaseline([...ledger, ...milk]);

describe('what the run lacks', () => {
  it('a whole suite of the baseline: one coverage check per arm, saying suite, with its baseline cells', () => {
    const r = evaluateGate(ledger, both, thresholds);
    const missing = r.checks.filter((c) => c.kind === 'coverage');
    expect(missing).toEqual(
      ['inline', 'summary'].map((arm) => ({
        suite: 'milk',
        arm,
        kind: 'coverage',
        criterion: null,
        baseline: 12,
        current: 0,
        delta: null,
        ci: null,
        limit: null,
        verdict: 'cannot evaluate',
        reason: 'suite in the baseline but not in the run',
      })),
    );
    expect(r.verdict).toBe('cannot evaluate');
  });

  it('one arm of a suite it ran: saying arm; the arms it ran are not listed', () => {
    const r = evaluateGate([...ledger, ...milk.filter((x) => x.arm === 'inline')], both, thresholds);
    expect(r.checks.filter((c) => c.kind === 'coverage').map((c) => [c.suite, c.arm, c.reason])).toEqual([
      ['milk', 'summary', 'arm in the baseline but not in the run'],
    ]);
  });

  it('a minimum for a criterion no suite scores: one row for the whole run, with the limit', () => {
    const r = evaluateGate(ledger, createBaseline(ledger), {
      ...thresholds,
      minMean: { correctness: 1, relevance: 3.5 },
    });
    expect(r.checks.filter((c) => c.suite === '–')).toEqual([
      {
        suite: '–',
        arm: '–',
        kind: 'min-mean',
        criterion: 'relevance',
        baseline: null,
        current: null,
        delta: null,
        ci: null,
        limit: 3.5,
        verdict: 'cannot evaluate',
        reason: 'no suite in the run scores relevance',
      },
    ]);
  });
});

describe('changedCells: scores that differ from the same cell of the baseline', () => {
  const baseline = createBaseline(ledger);
  const edit = (f: (r: ResultRow) => ResultRow | null) =>
    ledger.map((r) => f(structuredClone(r))).filter((r): r is ResultRow => r !== null);

  it('compares each ok cell by suite, arm, criterion, case and rep', () => {
    expect(changedCells(ledger, baseline)).toEqual({ compared: 24, changed: 0 });
    // One rep of one case moved: only that cell counts.
    const one = edit((r) =>
      r.arm === 'summary' && r.case_id === 'case-02' && r.rep === 1
        ? { ...r, scores: { correctness: r.scores.correctness === 5 ? 4 : 5 } }
        : r,
    );
    expect(changedCells(one, baseline)).toEqual({ compared: 24, changed: 1 });
    // The two reps of a case swapped: the same scores, other cells.
    const swapped = edit((r) =>
      r.case_id === 'case-00' && r.arm === 'inline' ? { ...r, rep: 1 - r.rep } : r,
    );
    const [a, b] = ledger.filter((r) => r.case_id === 'case-00' && r.arm === 'inline');
    expect(changedCells(swapped, baseline).changed).toBe(
      a!.scores.correctness === b!.scores.correctness ? 0 : 2,
    );
  });

  it('skips failed cells, criteria and suites the baseline lacks', () => {
    const failed = edit((r) =>
      r.case_id === 'case-01' ? { ...r, status: 'error', scores: { correctness: 0 } } : r,
    );
    expect(changedCells(failed, baseline)).toEqual({ compared: 20, changed: 0 });
    const extra = edit((r) => ({ ...r, scores: { ...r.scores, relevance: 1 } }));
    expect(changedCells(extra, baseline)).toEqual({ compared: 24, changed: 0 });
    expect(changedCells(milk, baseline)).toEqual({ compared: 0, changed: 0 });
  });

  it("the verdict's note: the count, and the sim's promise only for a sim run", () => {
    const moved = edit((r) => (r.arm === 'inline' && r.rep === 0 ? { ...r, scores: { correctness: 0 } } : r));
    expect(evaluateGate(moved, baseline, thresholds).notes).toContain(
      "6 of 24 scores differ from the baseline's same cell (a sim run of an unchanged harness reproduces every score exactly)",
    );
    const real = (rows: ResultRow[]) =>
      rows.map((r) => ({
        ...r,
        provider: 'openai',
        source_model: 'openai:gpt-4o',
        receiver_model: 'openai:gpt-4o',
        judge_model: 'openai:gpt-4o',
      }));
    const realBaseline = createBaseline(real(ledger));
    expect(evaluateGate(real(moved), realBaseline, thresholds).notes).toContain(
      "6 of 24 scores differ from the baseline's same cell",
    );
  });
});

describe("validateBaselineShape: a baseline file's first problem, by field", () => {
  const sound = () => structuredClone(both) as unknown as Record<string, any>;

  it('a sound baseline has none; an arm name may recur in another suite', () => {
    expect(validateBaselineShape(sound())).toBeNull();
  });

  it('names the path with indices in brackets and keys joined by dots', () => {
    expect(validateBaselineShape(5)).toBe('(root): must be object');
    const notObject = sound();
    notObject.suites[1] = 'milk';
    expect(validateBaselineShape(notObject)).toBe('suites[1]: must be object');
    const badRate = sound();
    badRate.suites[0].arms[1].errorRate = 1.5;
    expect(validateBaselineShape(badRate)).toBe('suites[0].arms[1].errorRate: must be <= 1');
    const badCi = sound();
    badCi.suites[1].arms[0].scores.correctness.ci = [1];
    expect(validateBaselineShape(badCi)).toMatch(/^suites\[1\]\.arms\[0\]\.scores\.correctness\.ci: must /);
  });

  it('a suite twice, or an arm twice in one suite, names the second', () => {
    const suiteTwice = sound();
    suiteTwice.suites[1].suite = 'ledgerline';
    expect(validateBaselineShape(suiteTwice)).toBe('suites[1].suite: "ledgerline" appears twice');
    const armTwice = sound();
    armTwice.suites[1].arms[1].arm = 'inline';
    expect(validateBaselineShape(armTwice)).toBe('suites[1].arms[1].arm: "inline" appears twice');
  });
});
