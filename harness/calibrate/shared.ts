import type { ResultRow } from '../core/index.ts';
import { summarize } from '../../reports/summarize.ts';
import { seededRandom } from '../../reports/stats/random.ts';
import type { Comparison } from '../../reports/summary/types.ts';
import type { PairedTest } from '../../reports/stats/paired.ts';
import { plantEffect } from './measure.ts';

/**
 * The shared-seed regime: the suite's own, DIFFERENT arms run at one run seed, as a report runs them
 * (common random numbers: the receiver's and the judge's draws are shared across arms, cell by cell).
 * Two questions, each with a truth known by construction:
 *
 * - family-wise error: the arms' labels are permuted at random within each case (seeded), so every
 *   arm is exchangeable with the baseline — a true null between different strategies, with the
 *   correlation CRN gives and the case-by-case effect heterogeneity real arms have;
 * - coverage: each arm's scores get +1 with probability `effect` (the planted effect) and the interval
 *   of arm − baseline must cover the arm's true difference plus the effect. The true difference of
 *   two different strategies is the pooled mean difference over every replication's pairs (its
 *   standard error, replications fewer times smaller than one replication's, is reported beside it).
 */

/** One comparison of one replication, kept until the pooled truth is known. */
export interface SharedComparison {
  key: string;
  family: 'primary' | 'secondary';
  /** Unplanted: the difference and its pairs (for the pooled truth). */
  diff: number | null;
  pairs: number;
  /** Planted: the interval and the verdict. */
  ci: [number, number] | null;
  verdict: Comparison['verdict'];
  test: PairedTest | null;
}

export interface SharedOutcome {
  primaryFlagged: boolean;
  secondaryFlagged: boolean;
  nullComparisons: number;
  comparisons: SharedComparison[];
}

const keyed = (rows: readonly ResultRow[]): Map<string, Comparison> => {
  const out = new Map<string, Comparison>();
  for (const a of summarize(rows).suites[0]!.arms)
    for (const [criterion, s] of Object.entries(a.scores))
      if (s.vsBaseline) out.set(`${a.arm}/${criterion}`, s.vsBaseline);
  return out;
};

/** One replication of the shared-seed regime, from the rows of every arm at one run seed. */
export function measureShared(
  rows: readonly ResultRow[],
  opts: { effect: number; seed: string },
): SharedOutcome {
  const nulls = [...keyed(relabel(rows, opts.seed)).values()];
  const flagged = (name: string) =>
    nulls.some((c) => c.family.name === name && (c.verdict === 'better' || c.verdict === 'worse'));
  const raw = keyed(rows);
  const planted = keyed(plantEffect(rows, opts));
  const comparisons: SharedComparison[] = [];
  for (const [key, p] of planted) {
    const r = raw.get(key);
    comparisons.push({
      key,
      family: p.family.name,
      diff: r?.diff ?? null,
      pairs: r?.pairs ?? 0,
      ci: p.ci,
      verdict: p.verdict,
      test: p.test,
    });
  }
  return {
    primaryFlagged: flagged('primary'),
    secondaryFlagged: flagged('secondary'),
    nullComparisons: nulls.length,
    comparisons,
  };
}

/**
 * The rows with the arms' labels permuted within each case (one seeded permutation per case, the
 * same for every rep): under it no arm differs from the baseline in distribution, whatever the arms.
 */
export function relabel(rows: readonly ResultRow[], seed: string): ResultRow[] {
  const arms = [...new Set(rows.map((r) => r.arm))].sort();
  const perms = new Map<string, Map<string, string>>();
  return rows.map((r) => {
    let perm = perms.get(r.case_id);
    if (!perm) {
      const rand = seededRandom('calibrate-relabel', seed, r.case_id);
      const shuffled = [...arms];
      for (let i = shuffled.length - 1; i > 0; i--) {
        const j = Math.floor(rand() * (i + 1));
        [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
      }
      perm = new Map(arms.map((a, i) => [a, shuffled[i]!]));
      perms.set(r.case_id, perm);
    }
    const arm = perm.get(r.arm)!;
    return { ...r, arm, cell_id: `${r.suite}/${r.case_id}/${arm}/${r.rep}` };
  });
}

/** What the shared-seed regime found over every replication. */
export interface SharedCalibration {
  replications: number;
  primaryFlagged: number;
  secondaryFlagged: number;
  nullComparisons: number;
  planted: number;
  covered: number;
  /** Planted comparisons flagged in the direction of their truth (after Holm). */
  detected: number;
  /** Per arm/criterion: the pooled true difference (unplanted) and its standard error over replications. */
  truth: Record<string, { diff: number; se: number }>;
  tests: Partial<Record<PairedTest, number>>;
}

/** Totals, once every replication is in: the pooled truths first, then coverage against them. */
export function sharedTotals(outcomes: readonly SharedOutcome[], effect: number): SharedCalibration {
  const byKey = new Map<string, SharedComparison[]>();
  for (const o of outcomes) for (const c of o.comparisons) byKey.set(c.key, [...(byKey.get(c.key) ?? []), c]);
  const truth: SharedCalibration['truth'] = {};
  for (const [key, cs] of byKey) {
    const withDiff = cs.filter((c) => c.diff !== null && c.pairs > 0);
    const pairs = withDiff.reduce((n, c) => n + c.pairs, 0);
    if (!pairs) continue;
    const diff = withDiff.reduce((s, c) => s + c.diff! * c.pairs, 0) / pairs;
    const m = withDiff.length;
    const mean = withDiff.reduce((s, c) => s + c.diff!, 0) / m;
    const sd = Math.sqrt(withDiff.reduce((s, c) => s + (c.diff! - mean) ** 2, 0) / Math.max(1, m - 1));
    truth[key] = { diff, se: sd / Math.sqrt(m) };
  }
  const t: SharedCalibration = {
    replications: outcomes.length,
    primaryFlagged: outcomes.filter((o) => o.primaryFlagged).length,
    secondaryFlagged: outcomes.filter((o) => o.secondaryFlagged).length,
    nullComparisons: outcomes.reduce((n, o) => n + o.nullComparisons, 0),
    planted: 0,
    covered: 0,
    detected: 0,
    truth,
    tests: {},
  };
  for (const [key, cs] of byKey) {
    const target = truth[key] ? truth[key].diff + effect : null;
    if (target === null) continue;
    for (const c of cs) {
      if (!c.ci) continue;
      t.planted++;
      if (c.ci[0] <= target && target <= c.ci[1]) t.covered++;
      if ((c.verdict === 'better' && target > 0) || (c.verdict === 'worse' && target < 0)) t.detected++;
      if (c.test) t.tests[c.test] = (t.tests[c.test] ?? 0) + 1;
    }
  }
  return t;
}
