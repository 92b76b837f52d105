import { describe, expect, it } from 'vitest';
import type { ResultRow, SurvivalResult } from '../../harness/core/index.ts';
import {
  judgeReliability,
  krippendorffAlpha,
  survivalAgreement,
  testRetest,
} from '../../judges/reliability.ts';

const N = null;
/** Coders (rows) × units (columns) → units of values. */
const unitsOf = (coders: (number | null)[][]) => coders[0]!.map((_, j) => coders.map((c) => c[j] ?? null));

describe("Krippendorff's alpha", () => {
  // Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", §C: 4 observers, 12 units, missing data.
  const k2011 = unitsOf([
    [1, 2, 3, 3, 2, 1, 4, 1, 2, N, N, N],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, N, 3],
    [N, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, N],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, N],
  ]);

  it('reproduces the published worked example at every level', () => {
    expect(krippendorffAlpha(k2011, 'nominal')!.toFixed(3)).toBe('0.743');
    expect(krippendorffAlpha(k2011, 'ordinal')!.toFixed(3)).toBe('0.815');
    expect(krippendorffAlpha(k2011, 'interval')!.toFixed(3)).toBe('0.849');
    expect(krippendorffAlpha(k2011, 'ratio')!.toFixed(3)).toBe('0.797');
    expect(krippendorffAlpha(k2011)).toBe(krippendorffAlpha(k2011, 'ordinal'));
  });

  it('reproduces the Wikipedia computational example (3 coders, 15 units)', () => {
    const wiki = unitsOf([
      [N, N, N, N, N, 3, 4, 1, 2, 1, 1, 3, 3, N, 3],
      [1, N, 2, 1, 3, 3, 4, 3, N, N, N, N, N, N, N],
      [N, N, 2, 1, 3, 4, 4, N, 2, 1, 1, 3, 3, N, 4],
    ]);
    expect(krippendorffAlpha(wiki, 'nominal')).toBeCloseTo(0.691358, 6);
    expect(krippendorffAlpha(wiki, 'interval')).toBeCloseTo(0.810845, 6);
  });

  it('matches a hand computation (3 units, 2 samples each)', () => {
    // Units (1,1), (2,3), (3,3). Coincidences: o11 = 2, o23 = o32 = 1, o33 = 2; n1 = 2, n2 = 1, n3 = 3, n = 6.
    // Nominal: Do = 2/6, De = 2·(2·1 + 2·3 + 1·3)/(6·5) = 22/30 → α = 1 − (1/3)/(22/30) = 12/22.
    // Ordinal: δ²12 = (3/2)² = 2.25, δ²23 = (4/2)² = 4, δ²13 = (6 − 5/2)² = 12.25;
    //   Do = (4 + 4)/6 = 4/3, De = 2·(2·2.25 + 3·4 + 6·12.25)/30 = 6 → α = 1 − (4/3)/6 = 7/9.
    const units = [
      [1, 1],
      [2, 3],
      [3, 3],
    ];
    expect(krippendorffAlpha(units, 'nominal')).toBeCloseTo(12 / 22, 12);
    expect(krippendorffAlpha(units, 'ordinal')).toBeCloseTo(7 / 9, 12);
  });

  it('is 1 for perfect agreement, null when undefined', () => {
    expect(
      krippendorffAlpha([
        [1, 1],
        [4, 4],
        [5, 5, 5],
      ]),
    ).toBe(1);
    expect(
      krippendorffAlpha([
        [5, 5],
        [5, 5],
      ]),
    ).toBeNull();
    expect(krippendorffAlpha([[3], [4, null]])).toBeNull();
  });
});

describe('test-retest agreement', () => {
  it('pools exact and within-one agreement over sample pairs, skipping unpairable units', () => {
    // pairs: (4,4) exact; (3,5) neither; (2,3),(2,2),(3,2) → 1 exact, 3 within one.
    expect(testRetest([[4, 4], [3, 5], [2, 3, 2], [5], [null, 4]])).toEqual({
      units: 3,
      pairs: 5,
      exact: 2 / 5,
      withinOne: 4 / 5,
    });
    expect(testRetest([[5]])).toEqual({ units: 0, pairs: 0, exact: null, withinOne: null });
  });
});

function row(
  cellId: string,
  judge: [string, (number | null)[]][],
  survival: SurvivalResult[] = [],
  status: 'ok' | 'error' = 'ok',
): ResultRow {
  return {
    cell_id: cellId,
    status,
    detail: {
      system: '',
      seen: '',
      answer: '',
      survival,
      judge: judge.map(([criterion, samples]) => ({
        criterion,
        samples,
        score: null,
        rationale: '',
        evidence: [],
      })),
    },
  } as unknown as ResultRow;
}

describe('judgeReliability over rows', () => {
  it('per criterion, from detail.judge[].samples of ok rows', () => {
    const rows = [
      row('a', [
        ['correctness', [1, 1]],
        ['restraint', [4, 5, 4]],
      ]),
      row('b', [
        ['correctness', [2, 3]],
        ['restraint', [5, 5, 5]],
      ]),
      row('c', [
        ['correctness', [3, 3]],
        ['restraint', [null, 4, 4]],
      ]),
      row('d', [['correctness', [1, 5]]], [], 'error'),
    ];
    const out = judgeReliability(rows);
    expect(out.map((r) => r.criterion)).toEqual(['correctness', 'restraint']);
    expect(out[0]).toMatchObject({
      cells: 3,
      samples: 2,
      testRetest: { units: 3, pairs: 3, exact: 2 / 3, withinOne: 1 },
    });
    expect(out[0]!.alpha).toBeCloseTo(7 / 9, 12);
    expect(out[1]).toMatchObject({
      cells: 3,
      samples: 3,
      testRetest: { units: 3, pairs: 7, exact: 5 / 7, withinOne: 1 },
    });
  });
});

describe('survivalAgreement (LLM vs matcher)', () => {
  const s = (
    id: string,
    p: 'kept' | 'overstated' | 'absent',
    a: typeof p,
    llm?: SurvivalResult['llm'],
  ): SurvivalResult => ({ assertionId: id, kind: 'hedged', payload: p, answer: a, ...(llm ? { llm } : {}) });

  it("pools agreement, Cohen's kappa and the confusion over rows where the LLM ran", () => {
    const rows = [
      row(
        'r1',
        [],
        [
          s('h', 'kept', 'overstated', { payload: 'kept', answer: 'overstated' }),
          s('a', 'kept', 'absent', { payload: 'kept', answer: 'kept' }),
        ],
      ),
      row('r2', [], [s('h', 'overstated', 'absent', { payload: null, answer: 'absent' })]),
      row('r3', [], [s('h', 'kept', 'kept')]),
    ];
    const out = survivalAgreement(rows);
    // 5 compared: kept/kept ×2, overstated/overstated, absent/kept, absent/absent.
    expect(out.compared).toBe(5);
    expect(out.agreement).toBeCloseTo(4 / 5);
    // po = 0.8; matcher marginals kept 2, overstated 1, absent 2; llm kept 3, overstated 1, absent 1;
    // pe = (2·3 + 1·1 + 2·1)/25 = 9/25 → κ = (0.8 − 0.36)/(0.64) = 0.6875.
    expect(out.kappa).toBeCloseTo(0.6875, 12);
    expect(out.confusion.absent.kept).toBe(1);
    expect(out.disagreements).toEqual([
      { cellId: 'r1', assertionId: 'a', stage: 'answer', matcher: 'absent', llm: 'kept' },
    ]);
    expect(survivalAgreement([row('x', [], [s('h', 'kept', 'kept')])]).agreement).toBeNull();
  });
});
