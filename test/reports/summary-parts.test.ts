import { describe, expect, it } from 'vitest';
import type { ResultRow, SurvivalResult } from '../../harness/core/index.ts';
import {
  callSummary,
  costSummary,
  latencySummary,
  meanOf,
  pctChange,
  tokenSummary,
  withBaseline,
} from '../../reports/summary/usage.ts';
import {
  compareWithBaseline,
  criterionSummary,
  orderCriteria,
  passRate,
  primaryCriterion,
  type ArmPart,
} from '../../reports/summary/scores.ts';
import {
  locationSurvivalSummary,
  overstatedSummary,
  survivalSummary,
} from '../../reports/summary/survival.ts';
import { judgeReliability } from '../../reports/summary/reliability.ts';
import { syntheticRows } from './synthetic.ts';

/**
 * The parts of a summary, each against figures worked out by hand here: what the mutation run
 * (docs/testing.md) showed summarize's own tests left unpinned — costs and call counts, unsorted
 * latencies, the baseline deltas when a side is missing, unlabelled and unscored counts, the primary
 * criterion by majority, the flagged count of a family, survival from rates and by location.
 */
const base = syntheticRows({ seed: 1, cases: 1, reps: 1, arms: ['a'], criteria: ['correctness'] })[0]!;
const row = (over: Partial<ResultRow>): ResultRow => ({ ...base, detail: undefined, ...over });

describe('usage', () => {
  it('meanOf and pctChange, with their nulls', () => {
    expect(meanOf([])).toBeNull();
    expect(meanOf([1, 2, 6])).toBe(3);
    expect(pctChange(150, 100)).toBe(50);
    expect(pctChange(50, 100)).toBe(-50);
    expect(pctChange(null, 100)).toBeNull();
    expect(pctChange(100, null)).toBeNull();
    expect(pctChange(100, 0)).toBeNull();
    expect(pctChange(0, 100)).toBe(-100);
  });

  it('tokenSummary averages each field of its own', () => {
    const t = tokenSummary([
      row({
        handoff_tokens: 10,
        receiver_window_tokens_before: 100,
        receiver_window_tokens_after: 150,
        source_output_tokens: 7,
        input_tokens: 1000,
        output_tokens: 40,
      }),
      row({
        handoff_tokens: 30,
        receiver_window_tokens_before: 100,
        receiver_window_tokens_after: 250,
        source_output_tokens: 9,
        input_tokens: 3000,
        output_tokens: 60,
      }),
    ]);
    expect(t).toEqual({
      handoff: 20,
      windowBefore: 100,
      windowAfter: 200,
      windowGrowthPct: 100,
      windowAfterVsBaselinePct: null,
      handoffVsBaselinePct: null,
      sourceOutput: 8,
      input: 2000,
      output: 50,
    });
  });

  it('latencySummary sorts before taking quantiles; no rows, all nulls', () => {
    const l = latencySummary([900, 100, 500, 300, 700].map((ms) => row({ latency_ms: ms })));
    expect(l.p50).toBe(500);
    expect(l.p95).toBeCloseTo(700 + 0.8 * 200, 9);
    expect(l.mean).toBe(500);
    expect(latencySummary([])).toEqual({ p50: null, p95: null, mean: null, p50DeltaVsBaselineMs: null });
  });

  it('withBaseline fills the deltas, and leaves null where either side has no figure', () => {
    const t = tokenSummary([row({ handoff_tokens: 30, receiver_window_tokens_after: 300 })]);
    const bt = tokenSummary([row({ handoff_tokens: 20, receiver_window_tokens_after: 200 })]);
    const l = latencySummary([row({ latency_ms: 1500 })]);
    const bl = latencySummary([row({ latency_ms: 1000 })]);
    const filled = withBaseline(t, l, { tokens: bt, latency: bl });
    expect(filled.tokens.windowAfterVsBaselinePct).toBe(50);
    expect(filled.tokens.handoffVsBaselinePct).toBe(50);
    expect(filled.latency.p50DeltaVsBaselineMs).toBe(500);
    const none = latencySummary([]);
    expect(withBaseline(t, none, { tokens: bt, latency: bl }).latency.p50DeltaVsBaselineMs).toBeNull();
    expect(withBaseline(t, l, { tokens: bt, latency: none }).latency.p50DeltaVsBaselineMs).toBeNull();
    expect(withBaseline(t, l, null)).toEqual({ tokens: t, latency: l });
  });

  it('costSummary and callSummary add up every row, error rows included', () => {
    const rows = [
      row({ cost_usd: 0.25, judge_cost_usd: 0.5, model_calls: 3, cached_calls: 1 }),
      row({ status: 'error', cost_usd: 0.75, judge_cost_usd: 0, model_calls: 2, cached_calls: 2 }),
    ];
    expect(costSummary(rows)).toEqual({ usd: 1, perCellUsd: 0.5, judgeUsd: 0.5 });
    expect(costSummary([])).toEqual({ usd: 0, perCellUsd: null, judgeUsd: 0 });
    expect(callSummary(rows)).toEqual({ model: 5, cached: 3 });
  });
});

describe('scores', () => {
  it('criterionSummary counts scored, unscored and unlabelled rows; a criterion no row has is null', () => {
    const rows = [
      row({ case_id: 'c1', scores: { correctness: 4 } }),
      row({ case_id: 'c2', scores: { correctness: 2 } }),
      row({ case_id: 'c3', scores: { correctness: null }, unscored: { correctness: 'no labels' } }),
      row({ case_id: 'c4', scores: { correctness: null }, unscored: { correctness: 'no labels' } }),
      row({ case_id: 'c5', scores: { correctness: null } }),
      row({ case_id: 'c6', scores: { other: 5 } }),
    ];
    const s = criterionSummary(rows, 'correctness')!;
    expect(s.n).toBe(2);
    expect(s.unscored).toBe(3);
    expect(s.unlabelled).toEqual({ 'no labels': 2 });
    expect(s.mean).toBe(3);
    expect(s.se).toBeCloseTo(1, 9);
    expect(s.clusters).toBe(2);
    expect(criterionSummary(rows, 'missing')).toBeNull();
    const unscoredOnly = criterionSummary([rows[4]!], 'correctness')!;
    expect(unscoredOnly).toMatchObject({ n: 0, unscored: 1, mean: null, se: null, ci: null, clusters: 0 });
  });

  it('primaryCriterion: the criterion most rows name, if scored; ties by name; else the first', () => {
    const named = (xs: (string | undefined)[]) => xs.map((p) => row({ primary_criterion: p }));
    expect(primaryCriterion(named(['b', 'b', 'a']), ['a', 'b'])).toBe('b');
    expect(primaryCriterion(named(['b', 'a']), ['a', 'b', 'c'])).toBe('a');
    expect(primaryCriterion(named(['c', 'a', 'c']), ['a', 'b', 'c'])).toBe('c');
    expect(primaryCriterion(named(['z', 'z']), ['a', 'b'])).toBe('a');
    expect(primaryCriterion(named([undefined]), ['b', 'a'])).toBe('b');
    expect(primaryCriterion([], [])).toBeNull();
  });

  it('orderCriteria puts the primary first and keeps the rest in order', () => {
    expect(orderCriteria(['a', 'b', 'c'], 'b')).toEqual(['b', 'a', 'c']);
    expect(orderCriteria(['a', 'b'], null)).toEqual(['a', 'b']);
  });

  it('passRate counts scores of at least 4 among the scored', () => {
    const rows = [3, 4, 5, null].map((v) => row({ scores: { correctness: v } }));
    expect(passRate(rows, 'correctness')).toEqual({
      criterion: 'correctness',
      threshold: 4,
      passed: 2,
      n: 3,
    });
    expect(passRate(rows, null)).toBeNull();
    expect(passRate([row({ scores: { correctness: null } })], 'correctness')).toBeNull();
  });

  it('a family counts its flagged comparisons: one arm clearly worse, one the same', () => {
    const rows = syntheticRows({
      seed: 4,
      cases: 12,
      reps: 2,
      arms: ['base', 'worse', 'same'],
      effects: { worse: -2 },
      noiseSd: 0.3,
      caseSd: 0.3,
      continuous: true,
    });
    const part = (arm: string): ArmPart => {
      const mine = rows.filter((r) => r.arm === arm);
      return { arm, rows: mine, ok: mine, scores: { correctness: criterionSummary(mine, 'correctness')! } };
    };
    const arms = ['base', 'worse', 'same'].map(part);
    const families = compareWithBaseline(arms, arms[0]!, ['correctness'], 'correctness', 's');
    expect(families.primary).toMatchObject({
      name: 'primary',
      size: 2,
      flagged: 1,
      criteria: ['correctness'],
    });
    expect(families.secondary).toBeNull();
    expect(arms[1]!.scores.correctness!.vsBaseline?.verdict).toBe('worse');
    expect(arms[2]!.scores.correctness!.vsBaseline?.verdict).toBe('within noise');
    expect(compareWithBaseline(arms, null, ['correctness'], 'correctness', 's')).toEqual({
      primary: null,
      secondary: null,
    });
  });
});

describe('survival', () => {
  const mark = (over: Partial<SurvivalResult>): SurvivalResult => ({
    assertionId: 'a',
    kind: 'hedged',
    payload: 'kept',
    answer: 'kept',
    ...over,
  });

  it('from rates when rows carry no marks: the mean over cells, counted in cells', () => {
    const rows = [
      row({ survival: { payload: { hedged: 1 }, answer: { hedged: 0.5 } } }),
      row({ survival: { payload: { hedged: 0 }, answer: {} } }),
    ];
    const s = survivalSummary(rows);
    expect(s.source).toBe('rates');
    expect(s.payload.hedged).toEqual({ kept: 0, overstated: 0, absent: 0, total: 2, rate: 0.5 });
    expect(s.answer.hedged).toEqual({ kept: 0, overstated: 0, absent: 0, total: 1, rate: 0.5 });
    expect(survivalSummary([row({ survival: { payload: {}, answer: {} } })])).toEqual({
      source: 'none',
      payload: {},
      answer: {},
    });
    expect(survivalSummary([row({ survival: { payload: { confident: 1 }, answer: {} } })]).source).toBe(
      'rates',
    );
  });

  it('by location from the marks: marks without a location are left out; from rates otherwise', () => {
    const withMarks = (marks: SurvivalResult[]) =>
      row({
        detail: {
          ...syntheticRows({ seed: 2, cases: 1, reps: 1, arms: ['a'] })[0]!.detail!,
          survival: marks,
        },
      });
    const s = locationSurvivalSummary([
      withMarks([
        mark({ location: 'final_message', answer: 'overstated' }),
        mark({ location: 'final_message' }),
        mark({}),
      ]),
    ]);
    expect(s.source).toBe('marks');
    expect(s.answer.hedged).toEqual({
      final_message: { kept: 1, overstated: 1, absent: 0, total: 2, rate: 0.5 },
    });
    const rates = locationSurvivalSummary([
      row({
        survival_location: {
          payload: { 'hedged:final_message': 1 },
          answer: { 'hedged:final_message': 0.25 },
        },
      }),
      row({
        survival_location: {
          payload: { 'hedged:final_message': 0 },
          answer: { 'hedged:final_message': 0.75 },
        },
      }),
    ]);
    expect(rates.source).toBe('rates');
    expect(rates.payload.hedged).toEqual({
      final_message: { kept: 0, overstated: 0, absent: 0, total: 2, rate: 0.5 },
    });
    expect(rates.answer.hedged!.final_message!.rate).toBe(0.5);
    expect(locationSurvivalSummary([]).source).toBe('none');
  });

  it('overstatedSummary counts runs with any overstated assertion, and the assertions', () => {
    const rows = [0, 2, 1].map((n) => row({ overstated_count: n }));
    expect(overstatedSummary(rows)).toEqual({ runs: 2, n: 3, assertions: 3 });
  });
});

describe('judge reliability', () => {
  it('counts judge errors (null without a reason) apart from unlabelled criteria, over ok rows only', () => {
    const rows = [
      row({ scores: { correctness: null } }),
      row({ scores: { correctness: null }, unscored: { correctness: 'no labels' } }),
      row({ scores: { correctness: null }, unscored: { correctness: 'no labels' } }),
      row({ scores: { correctness: 3 } }),
      row({ status: 'error', scores: { correctness: null } }),
    ];
    const r = judgeReliability(rows, ['correctness']);
    expect(r.errors).toBe(1);
    expect(r.unscored).toEqual({ correctness: 1 });
    expect(r.unlabelled).toEqual({ correctness: { 'no labels': 2 } });
    expect(r.samples).toBe(0);
    expect(r.gap).toBe('rows carry no judge samples (detail.judge missing)');
    expect(r.survival).toBeNull();
  });
});
