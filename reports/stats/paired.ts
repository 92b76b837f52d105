import type { ResultRow } from '../../harness/types.ts';
import { clusteredMean, type Observation } from './clustered.ts';
import { clusterBootstrapCi } from './bootstrap.ts';
import { minimumDetectableEffect } from './power.ts';
import { seededRandom } from './random.ts';
import { tTwoSidedP } from './t-dist.ts';

/** The per-cell score a paired comparison needs — what a baseline file keeps instead of transcripts. */
export interface ScoredCell {
  case_id: string;
  rep: number;
  /** The criterion's score, or null when unscored (judge error). */
  value: number | null;
}

export type Verdict = 'better' | 'worse' | 'within noise' | 'not enough data';

export interface PairedOptions {
  /** Pair cells on case × rep (the sim's common random numbers make reps comparable) or on case means. @default 'case-rep' */
  pairOn?: 'case-rep' | 'case';
  /** Confidence level of the interval. @default 0.95 */
  level?: number;
  /** Significance level of the verdict and of the MDE. @default 0.05 */
  alpha?: number;
  /** Cluster-bootstrap resamples for a second interval; 0 skips it. @default 0 */
  bootstrap?: number;
  /** Seeds the bootstrap (e.g. `${row.seed}/${suite}/${arm}/${criterion}`). @default 0 */
  seed?: string | number;
}

export interface PairedDifference {
  /** Mean of (treatment − baseline) over pairs; positive = treatment scores higher. Null without pairs. */
  diff: number | null;
  se: number | null;
  df: number;
  /** t interval, clustered by case. */
  ci: [number, number] | null;
  /** Two-sided p of diff = 0 (unadjusted). */
  p: number | null;
  /** Minimum detectable effect at 80% power, given this SE (at `alpha`). */
  mde80: number | null;
  pairs: number;
  clusters: number;
  /** Scored cells on either side that found no partner (errors, unscored, missing reps). */
  unpaired: number;
  bootstrap: { ci: [number, number] | null; resamples: number; seed: string } | null;
  /** From the unadjusted p; summarize re-derives it from the Holm-adjusted p. */
  verdict: Verdict;
  pairOn: 'case-rep' | 'case';
}

/** The scored cells of one criterion from result rows (ok rows only). */
export function scoredCells(rows: readonly ResultRow[], criterion: string): ScoredCell[] {
  return rows
    .filter((r) => r.status === 'ok' && criterion in r.scores)
    .map((r) => ({ case_id: r.case_id, rep: r.rep, value: r.scores[criterion] ?? null }));
}

/**
 * The paired difference treatment − baseline with a 95% interval clustered by case, its p-value,
 * the MDE and a verdict. Pairing removes case difficulty from the comparison, and clustering keeps
 * the reps of one case from counting as independent evidence. A cell listed twice counts once (the
 * last one).
 *
 *     pairedDifference(scoredCells(contractRows, 'correctness'), scoredCells(inlineRows, 'correctness'), { seed: 7 })
 */
export function pairedDifference(
  treatment: readonly ScoredCell[],
  baseline: readonly ScoredCell[],
  opts: PairedOptions = {},
): PairedDifference {
  const pairOn = opts.pairOn ?? 'case-rep';
  const alpha = opts.alpha ?? 0.05;
  const { obs, unpaired } =
    pairOn === 'case' ? pairCaseMeans(treatment, baseline) : pairCells(treatment, baseline);
  const est = clusteredMean(obs, opts.level ?? 0.95);
  const base = { pairs: obs.length, unpaired, pairOn, clusters: est?.clusters ?? 0 };
  if (!est || est.se === null) {
    return {
      ...base,
      diff: est?.mean ?? null,
      se: null,
      df: 0,
      ci: null,
      p: null,
      mde80: null,
      bootstrap: null,
      verdict: 'not enough data',
    };
  }
  const p = est.se > 0 ? tTwoSidedP(est.mean / est.se, est.df) : est.mean === 0 ? 1 : 0;
  const resamples = opts.bootstrap ?? 0;
  const seed = String(opts.seed ?? 0);
  const bootstrap =
    resamples > 0
      ? {
          ci: clusterBootstrapCi(obs, {
            resamples,
            level: opts.level,
            rand: seededRandom('paired-bootstrap', seed),
          }),
          resamples,
          seed,
        }
      : null;
  return {
    ...base,
    diff: est.mean,
    se: est.se,
    df: est.df,
    ci: est.ci,
    p,
    mde80: minimumDetectableEffect(est.se, est.df, { alpha }),
    bootstrap,
    verdict: verdictOf(est.mean, p, alpha),
  };
}

/** pairedDifference straight from result rows of two arms (ok rows; unscored cells are skipped). */
export function pairedDifferenceOfRows(
  treatment: readonly ResultRow[],
  baseline: readonly ResultRow[],
  criterion: string,
  opts: PairedOptions = {},
): PairedDifference {
  return pairedDifference(scoredCells(treatment, criterion), scoredCells(baseline, criterion), opts);
}

/** better / worse when p < alpha (pass a Holm-adjusted p for a family of arms), else within noise. */
export function verdictOf(diff: number | null, p: number | null, alpha = 0.05): Verdict {
  if (diff === null || p === null) return 'not enough data';
  if (p >= alpha || diff === 0) return 'within noise';
  return diff > 0 ? 'better' : 'worse';
}

const key = (c: ScoredCell) => `${c.case_id}\u0000${c.rep}`;

function scoredByKey(cells: readonly ScoredCell[]): Map<string, ScoredCell> {
  const m = new Map<string, ScoredCell>();
  for (const c of cells) if (c.value !== null && Number.isFinite(c.value)) m.set(key(c), c);
  return m;
}

function pairCells(
  treatment: readonly ScoredCell[],
  baseline: readonly ScoredCell[],
): { obs: Observation[]; unpaired: number } {
  const t = scoredByKey(treatment);
  const b = scoredByKey(baseline);
  const obs: Observation[] = [];
  for (const [k, c] of t) {
    const other = b.get(k);
    if (other) obs.push({ cluster: c.case_id, value: c.value! - other.value! });
  }
  return { obs, unpaired: t.size + b.size - 2 * obs.length };
}

function pairCaseMeans(
  treatment: readonly ScoredCell[],
  baseline: readonly ScoredCell[],
): { obs: Observation[]; unpaired: number } {
  const means = (cells: readonly ScoredCell[]) => {
    const acc = new Map<string, { s: number; n: number }>();
    for (const c of scoredByKey(cells).values()) {
      const a = acc.get(c.case_id) ?? { s: 0, n: 0 };
      a.s += c.value!;
      a.n++;
      acc.set(c.case_id, a);
    }
    return acc;
  };
  const t = means(treatment);
  const b = means(baseline);
  const obs: Observation[] = [];
  let unpaired = 0;
  for (const [caseId, a] of t) {
    const other = b.get(caseId);
    if (other) obs.push({ cluster: caseId, value: a.s / a.n - other.s / other.n });
    else unpaired += a.n;
  }
  for (const [caseId, a] of b) if (!t.has(caseId)) unpaired += a.n;
  return { obs, unpaired };
}
