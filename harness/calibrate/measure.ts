import type { ResultRow } from '../core/index.ts';
import { summarize } from '../../reports/summarize.ts';
import { seededRandom } from '../../reports/stats/random.ts';
import type { Comparison, SuiteSummary } from '../../reports/summary/types.ts';
import type { PairedTest } from '../../reports/stats/paired.ts';

/** What one replication (one suite, freshly resampled cases, arms that are copies of the baseline) shows. */
export interface ReplicationOutcome {
  /** Null comparisons made, per family. */
  primary: number;
  secondary: number;
  /** Any verdict better / worse in the family — a false positive, since every arm is the baseline's copy. */
  primaryFlagged: boolean;
  secondaryFlagged: boolean;
  /** Null comparisons whose two arms differed in at least one pair (independent seeds, not identical arms). */
  nonIdentical: number;
  /** Planted comparisons, those whose 95% interval covers the planted effect, those found (after Holm). */
  planted: number;
  covered: number;
  detected: number;
  /** Which test each planted comparison used. */
  tests: Partial<Record<PairedTest, number>>;
  /** The same null under the old rule (clustered t beyond 16 cases): what the switch to sign flips changed. */
  reference: { primaryFlagged: boolean; secondaryFlagged: boolean };
}

const comparisons = (s: SuiteSummary): Comparison[] =>
  s.arms.flatMap((a) => Object.values(a.scores).flatMap((c) => (c.vsBaseline ? [c.vsBaseline] : [])));

/**
 * The rows of one replication: the baseline arm and its copies, each run at its own seed. The null is
 * read from them as they are; the planted effect adds +1 to each score of every copy with probability
 * `effect` (seeded per cell and criterion), so each copy's true paired difference is exactly `effect`
 * while its scores stay integers. Scores may reach 6 that way: the statistics assume nothing about it
 * (a difference interval is only cut at ±4, far outside anything this effect produces).
 */
export function measureReplication(
  rows: readonly ResultRow[],
  opts: { effect: number; seed: string },
): ReplicationOutcome {
  const nulls = comparisons(summarize(rows).suites[0]!);
  const family = (name: 'primary' | 'secondary', cs = nulls) => cs.filter((c) => c.family.name === name);
  const flagged = (cs: Comparison[]) => cs.some((c) => c.verdict === 'better' || c.verdict === 'worse');
  const ref = comparisons(summarize(rows, { pairedTest: 'clustered-t' }).suites[0]!);
  const plantedSuite = summarize(plantEffect(rows, opts)).suites[0]!;
  const cs = comparisons(plantedSuite).filter((c) => c.ci !== null);
  const tests: ReplicationOutcome['tests'] = {};
  for (const c of cs) if (c.test) tests[c.test] = (tests[c.test] ?? 0) + 1;
  return {
    primary: family('primary').length,
    secondary: family('secondary').length,
    primaryFlagged: flagged(family('primary')),
    secondaryFlagged: flagged(family('secondary')),
    nonIdentical: nulls.filter((c) => c.se !== null && (c.se > 0 || c.diff !== 0)).length,
    planted: cs.length,
    covered: cs.filter((c) => c.ci![0] <= opts.effect && opts.effect <= c.ci![1]).length,
    detected: cs.filter((c) => c.verdict === 'better').length,
    tests,
    reference: {
      primaryFlagged: flagged(family('primary', ref)),
      secondaryFlagged: flagged(family('secondary', ref)),
    },
  };
}

/** +1 on each score of every non-baseline ok row with probability `effect`, seeded per cell and criterion. */
export function plantEffect(rows: readonly ResultRow[], opts: { effect: number; seed: string }): ResultRow[] {
  return rows.map((r) => {
    if (r.arm === r.baseline_arm || r.status !== 'ok') return r;
    const scores: Record<string, number | null> = {};
    for (const [c, v] of Object.entries(r.scores)) {
      const bump = seededRandom('planted', opts.seed, r.cell_id, c)() < opts.effect ? 1 : 0;
      scores[c] = v === null ? null : v + bump;
    }
    return { ...r, scores };
  });
}

/** Totals over replications, and the rates the targets are stated in. */
export interface CalibrationTotals {
  replications: number;
  primaryFlagged: number;
  secondaryFlagged: number;
  eitherFlagged: number;
  planted: number;
  covered: number;
  detected: number;
  nullComparisons: number;
  nonIdentical: number;
  tests: Partial<Record<PairedTest, number>>;
  /** Family-wise false positives under the old clustered-t rule, same replications. */
  reference: { primaryFlagged: number; secondaryFlagged: number };
}

export function totalsOf(outcomes: readonly ReplicationOutcome[]): CalibrationTotals {
  const t: CalibrationTotals = {
    replications: outcomes.length,
    primaryFlagged: 0,
    secondaryFlagged: 0,
    eitherFlagged: 0,
    planted: 0,
    covered: 0,
    detected: 0,
    nullComparisons: 0,
    nonIdentical: 0,
    tests: {},
    reference: { primaryFlagged: 0, secondaryFlagged: 0 },
  };
  for (const o of outcomes) {
    if (o.primaryFlagged) t.primaryFlagged++;
    if (o.secondaryFlagged) t.secondaryFlagged++;
    if (o.primaryFlagged || o.secondaryFlagged) t.eitherFlagged++;
    t.planted += o.planted;
    t.covered += o.covered;
    t.detected += o.detected;
    t.nullComparisons += o.primary + o.secondary;
    t.nonIdentical += o.nonIdentical;
    if (o.reference.primaryFlagged) t.reference.primaryFlagged++;
    if (o.reference.secondaryFlagged) t.reference.secondaryFlagged++;
    for (const [k, n] of Object.entries(o.tests))
      t.tests[k as PairedTest] = (t.tests[k as PairedTest] ?? 0) + n;
  }
  return t;
}
