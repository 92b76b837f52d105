import type { ResultRow, SurvivalMark, SurvivalResult } from '../harness/core/index.ts';

/**
 * Judge reliability, as pure functions over result rows (no I/O, no randomness).
 *
 * Data shape: a *unit* is one thing judged several times — here one (cell, criterion), whose values
 * are the k criterion-judge samples in `row.detail.judge[i].samples` (null = a sample the judge could
 * not produce). Units with fewer than two non-null values are not pairable and are ignored.
 *
 * - `testRetest(units)`: over every pair of samples within a unit, the share that are equal (exact)
 *   and the share within one point; pooled over pairs.
 * - `krippendorffAlpha(units, level)`: Krippendorff's α via the coincidence matrix (Krippendorff 2011,
 *   "Computing Krippendorff's Alpha-Reliability"), any number of samples per unit, missing values
 *   allowed; `ordinal` by default (judge scores are ranks). α = 1 − D_o / D_e; null when undefined
 *   (no pairable unit, or every value identical so D_e = 0).
 * - `judgeReliability(rows)`: both, per criterion, read from the rows.
 * - `survivalAgreement(rows)`: where the LLM survival classification ran, its agreement with the
 *   deterministic matcher pooled over (row, assertion, stage): raw share, Cohen's κ and the confusion.
 */
export type Level = 'nominal' | 'ordinal' | 'interval' | 'ratio';
export type Unit = readonly (number | null | undefined)[];

export interface TestRetest {
  /** Units with at least two non-null samples. */
  units: number;
  /** Sample pairs compared. */
  pairs: number;
  /** Share of pairs with equal scores; null with no pairs. */
  exact: number | null;
  /** Share of pairs within one point. */
  withinOne: number | null;
}

export function testRetest(units: readonly Unit[]): TestRetest {
  let pairable = 0;
  let pairs = 0;
  let exact = 0;
  let withinOne = 0;
  for (const unit of units) {
    const v = values(unit);
    if (v.length < 2) continue;
    pairable++;
    for (let i = 0; i < v.length; i++) {
      for (let j = i + 1; j < v.length; j++) {
        pairs++;
        const d = Math.abs(v[i]! - v[j]!);
        if (d === 0) exact++;
        if (d <= 1) withinOne++;
      }
    }
  }
  return {
    units: pairable,
    pairs,
    exact: pairs ? exact / pairs : null,
    withinOne: pairs ? withinOne / pairs : null,
  };
}

export function krippendorffAlpha(units: readonly Unit[], level: Level = 'ordinal'): number | null {
  const pairable = units.map(values).filter((v) => v.length >= 2);
  if (pairable.length === 0) return null;
  const domain = [...new Set(pairable.flat())].sort((a, b) => a - b);
  const index = new Map(domain.map((v, i) => [v, i]));
  const V = domain.length;
  const o = Array.from({ length: V }, () => new Array<number>(V).fill(0));
  for (const v of pairable) {
    const m = v.length;
    for (let i = 0; i < m; i++)
      for (let j = 0; j < m; j++) if (i !== j) o[index.get(v[i]!)!]![index.get(v[j]!)!]! += 1 / (m - 1);
  }
  const nc = o.map((row) => row.reduce((s, x) => s + x, 0));
  const n = nc.reduce((s, x) => s + x, 0);
  const delta = distance(level, domain, nc);
  let observed = 0;
  let expected = 0;
  for (let c = 0; c < V; c++) {
    for (let k = 0; k < V; k++) {
      const d = delta(c, k);
      observed += o[c]![k]! * d;
      expected += nc[c]! * nc[k]! * d;
    }
  }
  const Do = observed / n;
  const De = expected / (n * (n - 1));
  return De === 0 ? null : 1 - Do / De;
}

/** The squared difference function δ²(c, k) of a level of measurement, over value indices. */
function distance(level: Level, domain: number[], nc: number[]): (c: number, k: number) => number {
  switch (level) {
    case 'nominal':
      return (c, k) => (c === k ? 0 : 1);
    case 'interval':
      return (c, k) => (domain[c]! - domain[k]!) ** 2;
    case 'ratio':
      return (c, k) => {
        const s = domain[c]! + domain[k]!;
        return s === 0 ? 0 : ((domain[c]! - domain[k]!) / s) ** 2;
      };
    case 'ordinal': {
      // (Σ_{g=c..k} n_g − (n_c + n_k)/2)²: distance between ranks weighted by how many values lie between.
      const cum = [0];
      for (const x of nc) cum.push(cum[cum.length - 1]! + x);
      return (c, k) => {
        const lo = Math.min(c, k);
        const hi = Math.max(c, k);
        return (cum[hi + 1]! - cum[lo]! - (nc[lo]! + nc[hi]!) / 2) ** 2;
      };
    }
  }
}

function values(unit: Unit): number[] {
  return unit.filter((x): x is number => typeof x === 'number' && Number.isFinite(x));
}

export interface CriterionReliability {
  criterion: string;
  /** Units (ok cells scoring this criterion) seen, pairable or not. */
  cells: number;
  /** Largest number of samples on one unit (k). */
  samples: number;
  testRetest: TestRetest;
  /** Krippendorff's α (ordinal) across the k samples; null when undefined. */
  alpha: number | null;
}

/** Per criterion, test-retest agreement and ordinal α of the k judge samples of every ok row. */
export function judgeReliability(
  rows: readonly ResultRow[],
  level: Level = 'ordinal',
): CriterionReliability[] {
  const byCriterion = new Map<string, Unit[]>();
  for (const row of rows) {
    if (row.status !== 'ok') continue;
    for (const s of row.detail?.judge ?? []) {
      const list = byCriterion.get(s.criterion) ?? [];
      list.push(s.samples);
      byCriterion.set(s.criterion, list);
    }
  }
  return [...byCriterion].map(([criterion, units]) => ({
    criterion,
    cells: units.length,
    samples: Math.max(0, ...units.map((u) => u.length)),
    testRetest: testRetest(units),
    alpha: krippendorffAlpha(units, level),
  }));
}

export interface SurvivalAgreement {
  /** (row, assertion, stage) marks where both readings exist. */
  compared: number;
  agreement: number | null;
  /** Cohen's κ between matcher and LLM over the three marks; null when undefined. */
  kappa: number | null;
  /** confusion[matcher][llm] = count. */
  confusion: Record<SurvivalMark, Record<SurvivalMark, number>>;
  disagreements: {
    cellId: string;
    assertionId: string;
    stage: 'payload' | 'answer';
    matcher: SurvivalMark;
    llm: SurvivalMark;
  }[];
}

const surv: readonly SurvivalMark[] = ['kept', 'overstated', 'absent'];

export function survivalAgreement(rows: readonly ResultRow[]): SurvivalAgreement {
  const confusion = Object.fromEntries(
    surv.map((a) => [a, Object.fromEntries(surv.map((b) => [b, 0]))]),
  ) as SurvivalAgreement['confusion'];
  const disagreements: SurvivalAgreement['disagreements'] = [];
  let compared = 0;
  for (const row of rows) {
    for (const r of row.detail?.survival ?? []) {
      for (const stage of ['payload', 'answer'] as const) {
        const pair = readingsOf(r, stage);
        if (!pair) continue;
        const [matcher, llm] = pair;
        compared++;
        confusion[matcher][llm]++;
        if (llm !== matcher)
          disagreements.push({ cellId: row.cell_id, assertionId: r.assertionId, stage, matcher, llm });
      }
    }
  }
  if (compared === 0) return { compared, agreement: null, kappa: null, confusion, disagreements };
  const po = surv.reduce((s, m) => s + confusion[m][m], 0) / compared;
  const pe = surv.reduce(
    (s, m) =>
      s + (rowSum(confusion[m]) / compared) * (surv.reduce((t, a) => t + confusion[a][m], 0) / compared),
    0,
  );
  return { compared, agreement: po, kappa: pe === 1 ? null : (po - pe) / (1 - pe), confusion, disagreements };
}

/**
 * The cue matcher's and the classifier's marks for one stage, when both exist: since issue 26 the
 * classifier's is the decided mark and the cues' the recorded first opinion; older journals hold the
 * matcher's as the mark and the LLM's beside it.
 */
function readingsOf(
  r: SurvivalResult,
  stage: 'payload' | 'answer',
): [SurvivalMark, SurvivalMark] | undefined {
  const decided = r[stage];
  if (decided === null) return undefined;
  if (r.cues) return r.decidedBy === 'cues' ? undefined : [r.cues[stage], decided];
  const llm = r.llm?.[stage];
  return llm ? [decided, llm] : undefined;
}

function rowSum(r: Record<SurvivalMark, number>): number {
  return surv.reduce((s, m) => s + r[m], 0);
}
