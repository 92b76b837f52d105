import { describe, expect, it } from 'vitest';
import type { ResultRow, SurvivalResult } from '../../harness/core/index.ts';
import { liveSimNote, liveSummary } from '../../reports/summary/live.ts';
import { sweepSummaries } from '../../reports/summary/sweeps.ts';
import { defaultLiveRates } from '../../harness/providers/sim/live-rates.ts';
import { syntheticRows } from './synthetic.ts';

/**
 * The live and sweep parts of a summary on rows built here, each figure worked out by hand (the
 * mutation run found these sections reached only through whole live and sweep runs that check little
 * of them).
 */
const base = syntheticRows({ seed: 1, cases: 1, reps: 1, arms: ['a'], criteria: ['correctness'] })[0]!;
const row = (over: Partial<ResultRow>): ResultRow => ({ ...base, ...over });
const live = (over: Partial<ResultRow>): ResultRow =>
  row({
    source_mode: 'live',
    source_tool_calls: 0,
    source_tool_budget: 8,
    budget_exhausted: false,
    source_loop_latency_ms: 0,
    source_assertions: 0,
    source_assertions_labelled: 0,
    receiver_span_fetches: 0,
    orchestration_tool_calls: null,
    ...over,
  });

describe('liveSummary', () => {
  it('is null without live cells', () => {
    expect(liveSummary([row({})], null)).toBeNull();
  });

  it('source effort over the source cells, latency over all, span fetches and orchestration apart', () => {
    const rows = [
      live({
        source_tool_calls: 9,
        source_tool_budget: 8,
        budget_exhausted: true,
        latency_ms: 4000,
        source_loop_latency_ms: 3000,
        source_output_tokens: 300,
        receiver_span_fetches: 2,
        source_assertions: 5,
        source_assertions_labelled: 4,
      }),
      live({
        source_tool_calls: 3,
        source_tool_budget: 4,
        latency_ms: 1000,
        source_loop_latency_ms: 500,
        source_output_tokens: 100,
        source_assertions: 2,
        source_assertions_labelled: 1,
      }),
      live({
        source_tool_calls: 3,
        source_tool_budget: 8,
        latency_ms: 2000,
        source_loop_latency_ms: 1000,
        source_output_tokens: 200,
        receiver_span_fetches: 1,
      }),
      // A spawned child: no source effort of its own (its parent is recorded).
      live({
        source_tool_calls: 50,
        latency_ms: 9000,
        orchestration_tool_calls: 2,
        source_output_tokens: 999,
      }),
      live({ source_tool_calls: 50, latency_ms: 3000, orchestration_tool_calls: 0 }),
    ];
    const inline = {
      arm: 'inline',
      rows: [500, 1500, 2500].map((ms) => live({ latency_ms: ms })).concat(row({ latency_ms: 99_999 })),
    };
    const s = liveSummary([...rows, row({ latency_ms: 77_777 })], inline)!;
    expect(s.cells).toBe(5);
    expect(s.sourceCells).toBe(3);
    expect(s.budgets).toEqual([4, 8]);
    expect(s.toolCalls).toEqual({ median: 3, mean: 5, min: 3, max: 9, distribution: { 3: 2, 9: 1 } });
    expect(s.budgetExhausted).toEqual({ cells: 1, n: 3, rate: 1 / 3 });
    expect(s.sourceOutputTokens).toEqual({ median: 200, mean: 200 });
    // All five live cells: 1000 2000 3000 4000 9000; inline's live cells: 500 1500 2500.
    expect(s.latency).toEqual({ p50: 3000, sourceLoopP50: 1000, deltaVsInlineMs: 1500, inlineArm: 'inline' });
    expect(s.spanFetch).toEqual({ cells: 2, n: 5, rate: 0.4, calls: 3 });
    expect(s.orchestration).toEqual({ cells: 1, n: 2, rate: 0.5 });
    expect(s.assertions).toEqual({ made: 7, labelled: 5 });
  });

  it('without spawned cells there is no orchestration share; without an inline live arm, no latency delta', () => {
    const s = liveSummary([live({ latency_ms: 100 })], { arm: 'inline', rows: [row({})] })!;
    expect(s.orchestration).toBeNull();
    expect(s.latency.deltaVsInlineMs).toBeNull();
    expect(s.latency.inlineArm).toBeNull();
    expect(liveSummary([live({})], null)!.latency.inlineArm).toBeNull();
  });
});

describe('liveSimNote', () => {
  it('names every set live rate with its default in a sim run with live cells; nothing otherwise', () => {
    const note = liveSimNote([live({})], true)!;
    expect(note.rates.map((r) => r.name).sort()).toEqual(Object.keys(defaultLiveRates).sort());
    for (const r of note.rates)
      expect(r.default).toBe(defaultLiveRates[r.name as keyof typeof defaultLiveRates]);
    expect(note.emerges).toMatch(/tool policy/);
    expect(liveSimNote([live({})], false)).toBeNull();
    expect(liveSimNote([row({})], true)).toBeNull();
  });
});

describe('sweepSummaries', () => {
  const marks = (kept: number, of: number): SurvivalResult[] =>
    Array.from({ length: of }, (_, i) => ({
      assertionId: `a${i}`,
      kind: 'hedged',
      payload: i < kept ? 'kept' : 'absent',
      answer: i < kept - 1 ? 'kept' : 'absent',
    }));
  const cell = (arm: string, caseId: string, score: number, tokens: number, kept: number) =>
    row({
      arm,
      strategy: 'brick',
      case_id: caseId,
      scores: { correctness: score },
      handoff_tokens: tokens,
      detail: { ...base.detail!, survival: marks(kept, 4) },
    });

  it('groups arms named <base>[k=v] of one strategy, orders numeric values, and pools the other params', () => {
    const rows = [
      cell('brick[cap=10,tail=a]', 'c1', 2, 100, 1),
      cell('brick[cap=10,tail=b]', 'c2', 4, 300, 3),
      cell('brick[cap=2,tail=a]', 'c1', 5, 50, 4),
      cell('brick[cap=2,tail=a]', 'c2', 3, 70, 2),
      cell('inline', 'c1', 1, 1, 0),
      { ...cell('brick[cap=2,tail=b]', 'c1', 1, 1, 0), status: 'error' as const },
    ];
    const [s, ...rest] = sweepSummaries(rows, 'correctness');
    expect(rest).toEqual([]);
    expect(s!.base).toBe('brick');
    expect(s!.strategy).toBe('brick');
    expect(s!.arms).toEqual([
      'brick[cap=10,tail=a]',
      'brick[cap=10,tail=b]',
      'brick[cap=2,tail=a]',
      'brick[cap=2,tail=b]',
    ]);
    const cap = s!.params.find((p) => p.param === 'cap')!;
    expect(cap.points.map((p) => p.value)).toEqual(['2', '10']);
    const [two, ten] = cap.points;
    expect(two!.arms).toEqual(['brick[cap=2,tail=a]', 'brick[cap=2,tail=b]']);
    expect(two!.cells).toBe(2);
    expect(two!.score!.mean).toBe(4);
    expect(two!.score!.n).toBe(2);
    expect(ten!.handoffTokens!.mean).toBe(200);
    expect(two!.payloadSurvival!.mean).toBe((1 + 0.5) / 2);
    expect(two!.answerSurvival!.mean).toBe((0.75 + 0.25) / 2);
    // Intervals clipped to what the quantity can be.
    expect(two!.score!.ci![0]).toBeGreaterThanOrEqual(1);
    expect(two!.score!.ci![1]).toBeLessThanOrEqual(5);
    expect(two!.payloadSurvival!.ci![1]).toBeLessThanOrEqual(1);
    expect(ten!.handoffTokens!.ci![0]).toBeGreaterThanOrEqual(0);
    const tail = s!.params.find((p) => p.param === 'tail')!;
    expect(tail.points.map((p) => [p.value, p.cells])).toEqual([
      ['a', 3],
      ['b', 1],
    ]);
  });

  it('a lone swept arm, or arms of two strategies, make no group; no criterion, no score', () => {
    expect(sweepSummaries([cell('brick[cap=1]', 'c1', 3, 1, 1)], 'correctness')).toEqual([]);
    const mixed = [
      cell('brick[cap=1]', 'c1', 3, 1, 1),
      { ...cell('brick[cap=2]', 'c1', 3, 1, 1), strategy: 'x' },
    ];
    expect(sweepSummaries(mixed, 'correctness')).toEqual([]);
    const pair = [cell('brick[cap=1]', 'c1', 3, 1, 1), cell('brick[cap=2]', 'c1', 3, 1, 1)];
    expect(sweepSummaries(pair, null)[0]!.params[0]!.points[0]!.score).toBeNull();
  });
});
