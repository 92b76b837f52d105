import type { ResultRow } from '../../harness/core/index.ts';
import { clusteredMean } from '../stats/clustered.ts';
import { holmFamily } from '../stats/family.ts';
import {
  pairedDifference,
  scoredCells,
  verdictOf,
  type PairedDifference,
  type PairedTestRule,
} from '../stats/paired.ts';
import { detectableEffect } from '../stats/power.ts';
import { SCORE_SCALE, withinBounds } from '../stats/scale.ts';
import { pairAccount } from './pairs.ts';
import type { ComparisonFamily, CriterionSummary, FamilySummary, PassRate, SuiteSummary } from './types.ts';

export const LEVEL = 0.95;
export const ALPHA = 0.05;
export const BOOTSTRAP_RESAMPLES = 2000;
export const PASS_THRESHOLD = 4;

/** Mean and clustered CI of one arm on one criterion (no comparison yet), the CI within 1–5. */
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
  const bounded = est?.ci ? withinBounds(est.ci, SCORE_SCALE) : null;
  return {
    n: obs.length,
    unscored: present.length - obs.length,
    unlabelled,
    mean: est?.mean ?? null,
    se: est?.se ?? null,
    ci: bounded?.ci ?? null,
    ciBound: bounded?.bound ?? null,
    clusters: est?.clusters ?? 0,
    vsBaseline: null,
  };
}

function emptySummary(): CriterionSummary {
  const none = { n: 0, unscored: 0, unlabelled: {}, mean: null, se: null, ci: null, ciBound: null };
  return { ...none, clusters: 0, vsBaseline: null };
}

/** What compareWithBaseline needs of an arm: all its rows, its ok rows, and its criterion summaries to fill. */
export interface ArmPart {
  arm: string;
  rows: readonly ResultRow[];
  ok: readonly ResultRow[];
  scores: Record<string, CriterionSummary>;
}

interface Member {
  arm: ArmPart;
  criterion: string;
  d: PairedDifference;
}

/**
 * Paired comparisons of every other arm with the baseline on each criterion, in two Holm families:
 * the primary criterion across arms, and every other criterion across arms × criteria. The verdict
 * uses the family-adjusted p and the MDE is stated at the family's α/m; the interval stays the
 * per-comparison 95% interval.
 */
export function compareWithBaseline(
  arms: readonly ArmPart[],
  baseline: ArmPart | null,
  criteria: readonly string[],
  primary: string | null,
  seed: string,
  test: PairedTestRule = 'sign-flip',
): SuiteSummary['families'] {
  if (!baseline) return { primary: null, secondary: null };
  const members: Member[] = [];
  for (const criterion of criteria) {
    const base = scoredCells(baseline.ok, criterion);
    if (base.length === 0) continue;
    for (const a of arms) {
      if (a.arm === baseline.arm) continue;
      // An arm whose every cell errored has no score summary, but it still owes the table a row: its
      // comparison is "not enough data" with every cell dropped as an error.
      if (!a.scores[criterion] && a.ok.length === 0 && a.rows.length > 0)
        a.scores[criterion] = emptySummary();
      if (!a.scores[criterion]) continue;
      const d = pairedDifference(scoredCells(a.ok, criterion), base, {
        level: LEVEL,
        alpha: ALPHA,
        bootstrap: BOOTSTRAP_RESAMPLES,
        seed: `${seed}/${a.arm}/${criterion}`,
        test,
      });
      members.push({ arm: a, criterion, d });
    }
  }
  const fill = (name: ComparisonFamily['name'], group: Member[]) =>
    group.length ? assignFamily(name, group, baseline) : null;
  return {
    primary: fill(
      'primary',
      members.filter((m) => m.criterion === primary),
    ),
    secondary: fill(
      'secondary',
      members.filter((m) => m.criterion !== primary),
    ),
  };
}

function assignFamily(name: ComparisonFamily['name'], group: Member[], baseline: ArmPart): FamilySummary {
  const adj = holmFamily(
    group.map((m) => m.d.p),
    ALPHA,
  );
  const family: ComparisonFamily = { name, size: adj.size, testAlpha: adj.testAlpha };
  let flagged = 0;
  group.forEach((m, i) => {
    const pHolm = adj.adjusted[i]!;
    const verdict = verdictOf(m.d.diff, pHolm, ALPHA);
    if (verdict === 'better' || verdict === 'worse') flagged++;
    m.arm.scores[m.criterion]!.vsBaseline = {
      ...m.d,
      pHolm,
      family,
      verdict,
      mde: detectableEffect(m.d, adj.testAlpha),
      cells: pairAccount(m.arm.rows, baseline.rows, m.criterion),
    };
  });
  return { ...family, criteria: [...new Set(group.map((m) => m.criterion))], flagged };
}

/**
 * The suite's primary criterion: the one its rows name (suite.json / config, recorded per cell), if
 * it is scored; else the suite's first criterion (journals from before rows carried it).
 */
export function primaryCriterion(rows: readonly ResultRow[], criteria: readonly string[]): string | null {
  const named = mostCommonNamed(rows.map((r) => r.primary_criterion ?? null));
  if (named !== null && criteria.includes(named)) return named;
  return criteria[0] ?? null;
}

function mostCommonNamed(xs: readonly (string | null)[]): string | null {
  const counts = new Map<string, number>();
  for (const x of xs) if (x) counts.set(x, (counts.get(x) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0] ?? null;
}

/** Primary first, then the others in the order the suite scores them. */
export function orderCriteria(criteria: readonly string[], primary: string | null): string[] {
  return primary ? [primary, ...criteria.filter((c) => c !== primary)] : [...criteria];
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
