import type { ResultRow } from '../core/index.ts';
import type { SuiteSummary } from '../../reports/summary/types.ts';
import type { GateCheck, Baseline } from './types.ts';
import type { ResolvedGateThresholds } from '../config/gate-thresholds.ts';

/** Baseline suites and arms the run lacks: nothing to compare them with. */
export function coverageChecks(baseline: Baseline, suites: readonly SuiteSummary[]): GateCheck[] {
  const out: GateCheck[] = [];
  for (const bs of baseline.suites) {
    const s = suites.find((x) => x.suite === bs.suite);
    for (const ba of bs.arms) {
      if (s?.arms.some((a) => a.arm === ba.arm)) continue;
      out.push({
        suite: bs.suite,
        arm: ba.arm,
        kind: 'coverage',
        criterion: null,
        baseline: ba.cells,
        current: 0,
        delta: null,
        ci: null,
        limit: null,
        verdict: 'cannot evaluate',
        reason: `${s ? 'arm' : 'suite'} in the baseline but not in the run`,
      });
    }
  }
  return out;
}

/** A minimum for a criterion no suite scores is a config mistake (a typo would otherwise gate nothing). */
export function unusedMinimums(t: ResolvedGateThresholds, suites: readonly SuiteSummary[]): GateCheck[] {
  return Object.entries(t.minMean)
    .filter(([c]) => !suites.some((s) => s.criteria.includes(c)))
    .map(([c, min]) => ({
      suite: '–',
      arm: '–',
      kind: 'min-mean' as const,
      criterion: c,
      baseline: null,
      current: null,
      delta: null,
      ci: null,
      limit: min,
      verdict: 'cannot evaluate' as const,
      reason: `no suite in the run scores ${c}`,
    }));
}

/** Scores that differ from the baseline's same cell (suite, arm, criterion, case, rep): what moved, noise or not. */
export function changedCells(
  rows: readonly ResultRow[],
  baseline: Baseline,
): { compared: number; changed: number } {
  const stored = new Map<string, number | null>();
  for (const s of baseline.suites) {
    for (const a of s.arms)
      for (const [c, bc] of Object.entries(a.scores))
        for (const x of bc.cells)
          stored.set(`${s.suite}\u0000${a.arm}\u0000${c}\u0000${x.case_id}\u0000${x.rep}`, x.value);
  }
  let compared = 0;
  let changed = 0;
  for (const r of rows) {
    if (r.status !== 'ok') continue;
    for (const [c, v] of Object.entries(r.scores)) {
      const b = stored.get(`${r.suite}\u0000${r.arm}\u0000${c}\u0000${r.case_id}\u0000${r.rep}`);
      if (b === undefined) continue;
      compared++;
      if (b !== v) changed++;
    }
  }
  return { compared, changed };
}
