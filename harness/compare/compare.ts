import type { ResultRow } from '../core/index.ts';
import { pairedDifference, scoredCells } from '../../reports/stats/paired.ts';
import { holmFamily } from '../../reports/stats/family.ts';
import { verdictOf } from '../../reports/stats/paired.ts';
import { ALPHA, LEVEL, PASS_THRESHOLD, primaryCriterion } from '../../reports/summary/scores.ts';
import { naturalOrder } from '../../reports/html/natural-order.ts';
import type { LoadedRun } from './load-run.ts';
import { claimMarks } from './marks.ts';
import { contextNotes, scopeOf, sideOf } from './scope.ts';
import type {
  Comparison,
  CriterionDiff,
  FlippedCell,
  SuiteComparison,
  SurvivalRow,
  UsageMeans,
  UsageRow,
} from './types.ts';

/** How the comparisons are grouped for multiplicity; every format states it. */
export const FAMILY_NOTE =
  'B − A paired on suite/case/arm/rep (ok, scored cells in both runs); one family per suite: every arm × criterion, Holm-adjusted together at α = 0.05; the verdict uses the adjusted p, the interval is the per-comparison 95% interval of the same paired sign-flip test as the vs-baseline comparisons';

/**
 * Run B against run A, cell by cell. Pure: reads rows only. Refuses (InputError) two runs with no cell
 * in common; otherwise compares what they share and lists, as sentences, everything it left out.
 */
export function compareRuns(a: LoadedRun, b: LoadedRun): Comparison {
  const { scope, paired } = scopeOf(a, b);
  const sideA = sideOf(a);
  const sideB = sideOf(b);
  scope.notes.push(...contextNotes(sideA, sideB));
  const rowsA = a.rows.filter((r) => paired.has(r.cell_id));
  const byIdB = new Map(b.rows.filter((r) => paired.has(r.cell_id)).map((r) => [r.cell_id, r]));
  const suites = naturalOrder(rowsA.map((r) => r.suite)).map((suite) =>
    suiteComparison(
      suite,
      rowsA.filter((r) => r.suite === suite),
      byIdB,
      `${sideA.seed}/${sideB.seed}/${suite}`,
    ),
  );
  return { a: sideA, b: sideB, scope, family: FAMILY_NOTE, suites };
}

function suiteComparison(
  suite: string,
  rowsA: ResultRow[],
  byIdB: Map<string, ResultRow>,
  seed: string,
): SuiteComparison {
  const rowsB = rowsA.map((r) => byIdB.get(r.cell_id)!);
  const criteria = naturalOrder(
    [...rowsA, ...rowsB].flatMap((r) => (r.status === 'ok' ? Object.keys(r.scores) : [])),
  );
  const primary = primaryCriterion([...rowsA, ...rowsB], criteria);
  const ordered = primary ? [primary, ...criteria.filter((c) => c !== primary)] : criteria;
  const arms = naturalOrder(
    rowsA.map((r) => r.arm),
    rowsA.find((r) => r.baseline_arm)?.baseline_arm,
  );
  const members: Omit<CriterionDiff, 'pHolm' | 'verdict'>[] = [];
  for (const arm of arms) {
    const aa = rowsA.filter((r) => r.arm === arm);
    const bb = aa.map((r) => byIdB.get(r.cell_id)!);
    for (const criterion of ordered) {
      const sa = scoredCells(aa, criterion);
      const sb = scoredCells(bb, criterion);
      if (sa.length === 0 && sb.length === 0) continue;
      const d = pairedDifference(sb, sa, { level: LEVEL, alpha: ALPHA, seed: `${seed}/${arm}/${criterion}` });
      members.push({ arm, criterion, d });
    }
  }
  const adj = holmFamily(
    members.map((m) => m.d.p),
    ALPHA,
  );
  const diffs = members.map((m, i) => {
    const pHolm = adj.adjusted[i] ?? null;
    return { ...m, pHolm, verdict: verdictOf(m.d.diff, pHolm, ALPHA) };
  });
  return {
    suite,
    primary,
    arms,
    criteria: ordered,
    family: { size: adj.size, alpha: ALPHA, testAlpha: adj.testAlpha },
    diffs,
    survival: survivalRows(arms, rowsA, byIdB),
    usage: arms.map((arm) => usageRow(arm, rowsA, byIdB)),
    flipped: flippedCells(rowsA, byIdB, primary),
  };
}

/** Survival by kind × location per stage, over the cells ok in both runs. */
function survivalRows(arms: string[], rowsA: ResultRow[], byIdB: Map<string, ResultRow>): SurvivalRow[] {
  const out = new Map<string, SurvivalRow>();
  for (const ra of rowsA) {
    const rb = byIdB.get(ra.cell_id)!;
    if (ra.status !== 'ok' || rb.status !== 'ok') continue;
    for (const [side, row] of [
      ['a', ra],
      ['b', rb],
    ] as const)
      for (const c of claimMarks(row))
        for (const [stage, mark] of Object.entries(c.stages)) {
          const key = [ra.arm, c.kind, c.location, stage].join('\u0000');
          let s = out.get(key);
          if (!s) {
            s = {
              arm: ra.arm,
              kind: c.kind,
              location: c.location,
              stage,
              a: { kept: 0, total: 0 },
              b: { kept: 0, total: 0 },
            };
            out.set(key, s);
          }
          s[side].total++;
          if (mark === 'kept') s[side].kept++;
        }
  }
  const armIndex = new Map(arms.map((a, i) => [a, i]));
  return [...out.values()].sort(
    (x, y) =>
      armIndex.get(x.arm)! - armIndex.get(y.arm)! ||
      x.kind.localeCompare(y.kind) ||
      x.location.localeCompare(y.location) ||
      0,
  );
}

function usageRow(arm: string, rowsA: ResultRow[], byIdB: Map<string, ResultRow>): UsageRow {
  const pairs = rowsA
    .filter((r) => r.arm === arm)
    .map((r) => [r, byIdB.get(r.cell_id)!] as const)
    .filter(([x, y]) => x.status === 'ok' && y.status === 'ok');
  const mean = (rows: ResultRow[]): UsageMeans | null => {
    if (rows.length === 0) return null;
    const m = (f: (r: ResultRow) => number) => rows.reduce((s, r) => s + (f(r) ?? 0), 0) / rows.length;
    return {
      handoffTokens: m((r) => r.handoff_tokens),
      inputTokens: m((r) => r.input_tokens),
      outputTokens: m((r) => r.output_tokens),
      latencyMs: m((r) => r.latency_ms),
      costUsd: m((r) => (r.cost_usd ?? 0) + (r.judge_cost_usd ?? 0)),
    };
  };
  return {
    arm,
    pairs: pairs.length,
    meanA: mean(pairs.map((p) => p[0])),
    meanB: mean(pairs.map((p) => p[1])),
  };
}

/** A cell passes when it is ok and its primary criterion scores ≥ PASS_THRESHOLD (the reports' "score"). */
function outcome(r: ResultRow, primary: string | null): { pass: boolean; text: string } {
  if (r.status === 'error') return { pass: false, text: `error (${r.error_code ?? 'unknown'})` };
  const s = primary ? r.scores[primary] : null;
  if (s === null || s === undefined) return { pass: false, text: 'unscored' };
  return { pass: s >= PASS_THRESHOLD, text: String(s) };
}

function flippedCells(
  rowsA: ResultRow[],
  byIdB: Map<string, ResultRow>,
  primary: string | null,
): FlippedCell[] {
  const out: FlippedCell[] = [];
  for (const ra of rowsA) {
    const x = outcome(ra, primary);
    const y = outcome(byIdB.get(ra.cell_id)!, primary);
    if (x.pass === y.pass) continue;
    out.push({
      cellId: ra.cell_id,
      caseId: ra.case_id,
      arm: ra.arm,
      rep: ra.rep,
      a: x.text,
      b: y.text,
      direction: x.pass ? 'pass→fail' : 'fail→pass',
    });
  }
  return out;
}
