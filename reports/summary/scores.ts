import type { ResultRow } from '../../harness/types.ts';
import { clusteredMean } from '../stats/clustered.ts';
import { holm } from '../stats/holm.ts';
import { pairedDifference, scoredCells, verdictOf } from '../stats/paired.ts';
import type { CriterionSummary, PassRate } from './types.ts';

export const LEVEL = 0.95;
export const ALPHA = 0.05;
export const BOOTSTRAP_RESAMPLES = 2000;
export const PASS_THRESHOLD = 4;

/** Mean and clustered CI of one arm on one criterion (no comparison yet). */
export function criterionSummary(ok: readonly ResultRow[], criterion: string): CriterionSummary | null {
  const present = ok.filter((r) => criterion in r.scores);
  if (present.length === 0) return null;
  const obs = present.flatMap((r) =>
    typeof r.scores[criterion] === 'number' ? [{ cluster: r.case_id, value: r.scores[criterion]! }] : [],
  );
  const est = clusteredMean(obs, LEVEL);
  const unlabelled: Record<string, number> = {};
  for (const r of present) {
    const why = r.unscored?.[criterion];
    if (why) unlabelled[why] = (unlabelled[why] ?? 0) + 1;
  }
  return {
    n: obs.length,
    unscored: present.length - obs.length,
    unlabelled,
    mean: est?.mean ?? null,
    se: est?.se ?? null,
    ci: est?.ci ?? null,
    clusters: est?.clusters ?? 0,
    vsBaseline: null,
  };
}

/**
 * Paired comparisons of every other arm with the baseline on each criterion, Holm-adjusted within
 * (suite, criterion): the family is "which arms differ from the baseline on this criterion".
 * The verdict uses the adjusted p; the interval stays the per-comparison 95% interval.
 */
export function compareWithBaseline(
  arms: { arm: string; ok: readonly ResultRow[]; scores: Record<string, CriterionSummary> }[],
  baseline: { arm: string; ok: readonly ResultRow[] } | null,
  criteria: readonly string[],
  seed: string,
): void {
  if (!baseline) return;
  for (const criterion of criteria) {
    const others = arms.filter((a) => a.arm !== baseline.arm && a.scores[criterion]);
    const base = scoredCells(baseline.ok, criterion);
    if (base.length === 0) continue;
    const diffs = others.map((a) =>
      pairedDifference(scoredCells(a.ok, criterion), base, {
        level: LEVEL,
        alpha: ALPHA,
        bootstrap: BOOTSTRAP_RESAMPLES,
        seed: `${seed}/${a.arm}/${criterion}`,
      }),
    );
    const adjusted = holm(diffs.map((d) => d.p));
    const family = adjusted.filter((p) => p !== null).length;
    others.forEach((a, i) => {
      const d = diffs[i]!;
      a.scores[criterion]!.vsBaseline = {
        ...d,
        pHolm: adjusted[i]!,
        family,
        verdict: verdictOf(d.diff, adjusted[i]!, ALPHA),
      };
    });
  }
}

/** The criterion the pass-rate uses: correctness when present, else the suite's first criterion. */
export function primaryCriterion(criteria: readonly string[]): string | null {
  return criteria.includes('correctness') ? 'correctness' : (criteria[0] ?? null);
}

/** Cells scoring ≥ 4 on the primary criterion, out of its scored cells (the seed's "24/30"). */
export function passRate(ok: readonly ResultRow[], criterion: string | null): PassRate | null {
  if (!criterion) return null;
  const scored = ok.map((r) => r.scores[criterion]).filter((v): v is number => typeof v === 'number');
  if (scored.length === 0) return null;
  return {
    criterion,
    threshold: PASS_THRESHOLD,
    passed: scored.filter((v) => v >= PASS_THRESHOLD).length,
    n: scored.length,
  };
}
