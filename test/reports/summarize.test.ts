import { describe, expect, it } from 'vitest';
import type { ResultRow } from '../../harness/core/index.ts';
import { summarize } from '../../reports/summarize.ts';
import { seededRandom } from '../../reports/stats/random.ts';
import { syntheticRows } from './synthetic.ts';

const ledger = () =>
  syntheticRows({
    seed: 11,
    cases: 6,
    reps: 2,
    arms: ['inline', 'full-transcript', 'summary'],
    suite: 'ledgerline',
    criteria: ['correctness', 'caveat_carrying'],
  });
const arm = (rows: ResultRow[], name: string, suite = 0) =>
  summarize(rows).suites[suite]!.arms.find((a) => a.arm === name)!;

function shuffled<T>(xs: T[], seed: number): T[] {
  const rand = seededRandom('shuffle', seed);
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

describe('summarize', () => {
  it('is a function of the rows as a set: any journal order gives the same summary', () => {
    const rows = ledger();
    const a = JSON.stringify(summarize(rows));
    expect(JSON.stringify(summarize(shuffled(rows, 1)))).toBe(a);
    expect(JSON.stringify(summarize(shuffled(rows, 2)))).toBe(a);
  });

  it('reproduces the seed table: window before → after, +%, latency Δ vs baseline, score, overstated runs', () => {
    // full-transcript's 12 cells take 10 000 + 100·i² ms (i = 2·case + rep): skewed, so p50 ≠ mean.
    const caseNo = (r: ResultRow) => Number(r.case_id.slice(-2));
    const rows = ledger().map((r) => ({
      ...r,
      receiver_window_tokens_before: 22_400,
      receiver_window_tokens_after: r.arm === 'full-transcript' ? 51_300 : 23_900,
      latency_ms: r.arm === 'full-transcript' ? 10_000 + 100 * (2 * caseNo(r) + r.rep) ** 2 : 11_000,
      // 3, 4 and 5: "passes at ≥ 4" counts the 4s, "> 4" would not.
      scores: { ...r.scores, correctness: r.case_id === 'case-00' ? 3 : r.case_id === 'case-01' ? 4 : 5 },
      overstated_count: r.arm === 'summary' && r.rep === 0 ? 2 : 0,
    }));
    const ft = arm(rows, 'full-transcript');
    expect(ft.tokens.windowGrowthPct).toBeCloseTo(129.0, 0);
    expect(ft.tokens.windowAfterVsBaselinePct).toBeCloseTo(((51_300 - 23_900) / 23_900) * 100, 6);
    // sorted: 10000 10100 10400 10900 11600 12500 | 13600 14900 16400 18100 20000 22100
    expect(ft.latency.p50).toBe((12_500 + 13_600) / 2);
    // p95 interpolates between the 11th and 12th values (position 0.95 × 11 = 10.45).
    expect(ft.latency.p95).toBeCloseTo(20_000 + 0.45 * (22_100 - 20_000), 9);
    expect(ft.latency.mean).toBeCloseTo((12 * 10_000 + 100 * 506) / 12, 9);
    expect(ft.latency.p50DeltaVsBaselineMs).toBe(13_050 - 11_000);
    expect(ft.pass).toEqual({ criterion: 'correctness', threshold: 4, passed: 10, n: 12 });
    expect(arm(rows, 'summary').overstated).toEqual({ runs: 6, n: 12, assertions: 12 });
    expect(arm(rows, 'inline').latency.p50DeltaVsBaselineMs).toBeNull();
  });

  it('counts survival per kind from the marks at both stages', () => {
    const rows = ledger().map((r) => ({
      ...r,
      detail: {
        ...r.detail!,
        survival: [
          {
            assertionId: 'a1',
            kind: 'confident' as const,
            payload: 'kept' as const,
            answer: 'kept' as const,
          },
          {
            assertionId: 'a2',
            kind: 'hedged' as const,
            payload: 'kept' as const,
            answer: r.rep === 0 ? ('overstated' as const) : ('kept' as const),
          },
          {
            assertionId: 'a3',
            kind: 'assumption' as const,
            payload: r.rep === 0 ? ('absent' as const) : ('kept' as const),
            answer: 'absent' as const,
          },
        ],
      },
    }));
    const s = arm(rows, 'summary').survival;
    expect(s.source).toBe('marks');
    expect(s.answer.hedged).toEqual({ kept: 6, overstated: 6, absent: 0, total: 12, rate: 0.5 });
    expect(s.payload.assumption).toEqual({ kept: 6, overstated: 0, absent: 6, total: 12, rate: 0.5 });
    expect(s.answer.confident!.rate).toBe(1);
    expect(s.answer.unresolved).toBeUndefined();
  });

  it('falls back to per-cell rates when rows carry no detail, and says so', () => {
    const rows = ledger().map(({ detail: _d, ...r }) => ({
      ...r,
      survival: { payload: { hedged: r.rep === 0 ? 1 : 0 }, answer: { hedged: 0.5, unresolved: null } },
    }));
    const s = arm(rows, 'inline').survival;
    expect(s.source).toBe('rates');
    expect(s.payload.hedged!.rate).toBe(0.5);
    expect(s.answer.hedged!.rate).toBe(0.5);
    expect(s.answer.unresolved).toBeUndefined();
  });

  it('keeps error rows out of the statistics but counts them by code, and unscored is never 0', () => {
    const rows = ledger().map((r, i) => {
      if (r.arm === 'summary' && r.case_id === 'case-01')
        return {
          ...r,
          status: 'error' as const,
          error: 'contract failed',
          error_code: 'subagent_contract' as const,
          scores: {},
        };
      if (r.arm === 'inline' && i % 5 === 0) return { ...r, scores: { ...r.scores, correctness: null } };
      return r;
    });
    const summary = summarize(rows);
    const sm = summary.suites[0]!.arms.find((a) => a.arm === 'summary')!;
    expect(sm.errors).toBe(2);
    expect(sm.errorCodes).toEqual({ subagent_contract: 2 });
    expect(sm.scores.correctness!.n).toBe(10);
    const inline = summary.suites[0]!.arms.find((a) => a.arm === 'inline')!;
    const scored = rows
      .filter((r) => r.arm === 'inline' && typeof r.scores.correctness === 'number')
      .map((r) => r.scores.correctness as number);
    expect(inline.scores.correctness!.unscored).toBe(12 - scored.length);
    expect(inline.scores.correctness!.mean).toBeCloseTo(scored.reduce((a, b) => a + b) / scored.length, 12);
    expect(summary.suites[0]!.judge.unscored.correctness).toBe(12 - scored.length);
    expect(summary.errors).toBe(2);
  });

  it('orders the baseline first and compares only the others, Holm across them', () => {
    const s = summarize(ledger()).suites[0]!;
    expect(s.arms.map((a) => a.arm)).toEqual(['inline', 'full-transcript', 'summary']);
    expect(s.arms[0]!.scores.correctness!.vsBaseline).toBeNull();
    for (const a of s.arms.slice(1)) {
      const v = a.scores.correctness!.vsBaseline!;
      expect(v.family).toEqual({ name: 'primary', size: 2, testAlpha: 0.025 });
      expect(v.pairs).toBe(12);
      expect(v.bootstrap!.resamples).toBe(2000);
    }
    // Holm over a family of two, by hand: the smaller p is doubled; the larger is kept, but never below
    // the smaller's adjusted value; both capped at 1. Once per family (primary, then secondary).
    for (const criterion of ['correctness', 'caveat_carrying']) {
      const [x, y] = s.arms.slice(1).map((a) => a.scores[criterion]!.vsBaseline!);
      const [lo, hi] = x!.p! <= y!.p! ? [x!, y!] : [y!, x!];
      const first = Math.min(1, 2 * lo.p!);
      expect(lo.pHolm, criterion).toBeCloseTo(first, 12);
      expect(hi.pHolm, criterion).toBeCloseTo(Math.max(first, Math.min(1, hi.p!)), 12);
      expect(lo.p!, criterion).toBeGreaterThan(0);
    }
    // In the primary family the doubling is visible (2p < 1): an adjustment that skipped it would show.
    const ps = s.arms.slice(1).map((a) => a.scores.correctness!.vsBaseline!.p!);
    expect(Math.min(...ps)).toBeLessThan(0.5);
    expect(s.arms[1]!.scores.caveat_carrying!.vsBaseline!.family.name).toBe('secondary');
  });

  it('says so when the baseline arm is not in the run', () => {
    const s = summarize(ledger().filter((r) => r.arm !== 'inline')).suites[0]!;
    expect(s.baselinePresent).toBe(false);
    expect(
      s.arms.every(
        (a) => a.scores.correctness!.vsBaseline === null && a.tokens.windowAfterVsBaselinePct === null,
      ),
    ).toBe(true);
  });

  it('uses the last row of a cell journalled twice and counts the duplicate', () => {
    const rows = ledger();
    const first = rows[0]!;
    const again = { ...first, scores: { correctness: 1, caveat_carrying: 1 } };
    const s = summarize([...rows, again]);
    expect(s.duplicates).toBe(1);
    expect(s.cells).toBe(rows.length);
    // By value: the arm's mean is the one with the later row in place of the first, not the first's.
    const mine = rows.filter((r) => r.arm === first.arm && r !== first).map((r) => r.scores.correctness!);
    const got = s.suites[0]!.arms.find((a) => a.arm === first.arm)!.scores.correctness!.mean!;
    expect(got).toBeCloseTo([...mine, 1].reduce((a, b) => a + b) / 12, 12);
    expect(first.scores.correctness).not.toBe(1);
  });

  it('marks a sim run as simulated and a real-provider run as not', () => {
    expect(summarize(ledger()).notice).toMatch(/simulated — not a measurement of any model/i);
    const real = ledger().map((r) => ({
      ...r,
      provider: 'anthropic',
      source_model: 'anthropic:claude-haiku-4-5',
      receiver_model: 'anthropic:claude-sonnet-4-5',
      judge_model: 'anthropic:claude-sonnet-4-5',
    }));
    expect(summarize(real).simulated).toBe(false);
    expect(summarize(real).notice).toBeNull();
  });

  it('labels the agreement gap with one judge sample, and reports test-retest and α with k ≥ 2', () => {
    expect(summarize(ledger()).suites[0]!.judge.gap).toMatch(/k ≥ 2/);
    // rep 0: both samples agree; rep 1: the second sample is 3 → exact agreement on half the cells whose score ≠ 3.
    const twice = ledger().map((r) => ({
      ...r,
      detail: {
        ...r.detail!,
        judge: r.detail!.judge.map((j) => ({ ...j, samples: [j.score, r.rep === 0 ? j.score : 3] })),
      },
    }));
    const j = summarize(twice).suites[0]!.judge;
    expect(j.samples).toBe(2);
    expect(j.gap).toBeNull();
    const cells = twice.map((r) => r.scores.correctness);
    const agree = twice.filter((r) => r.rep === 0 || r.scores.correctness === 3).length;
    expect(j.agreement!.correctness!.pairs).toBe(cells.length);
    expect(j.agreement!.correctness!.exact).toBeCloseTo(agree / cells.length, 12);
    expect(j.agreement!.correctness!.alpha).not.toBeNull();
    expect(j.agreement!.correctness!.alpha!).toBeLessThan(1);
  });
});
