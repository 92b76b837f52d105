import type { ResultRow } from '../../harness/core/index.ts';
import { clusteredMean, clusterTotals, type ClusteredEstimate, type Observation } from './clustered.ts';
import { clusterBootstrapCi } from './bootstrap.ts';
import { detectableEffect, type Mde } from './power.ts';
import { seededRandom } from './random.ts';
import { differenceBounds, SCORE_SCALE, withinBounds, type Bounds, type IntervalBound } from './scale.ts';
import { EXACT_MAX_CASES, signFlipTest } from './sign-flip.ts';
import { gridOf } from './sign-flip-lattice.ts';
import { tTwoSidedP } from './t-dist.ts';

/** The per-cell score a paired comparison needs — what a baseline file keeps instead of transcripts. */
export interface ScoredCell {
  case_id: string;
  rep: number;
  /** The criterion's score, or null when unscored (judge error). */
  value: number | null;
}

export type Verdict = 'better' | 'worse' | 'within noise' | 'not enough data';

/** Which test gave p and the interval (docs/results.md#statistics says when each is used). */
export type PairedTest = 'clustered-t' | 'sign-flip-exact' | 'sign-flip-monte-carlo';

/**
 * Which test a comparison uses. 'sign-flip' (the default): the exact sign-flip test at every size
 * (Monte Carlo only for differences on no small grid beyond EXACT_MAX_CASES cases). 'clustered-t': the rule before issue 21's
 * calibration — the clustered t beyond EXACT_MAX_CASES cases unless SE = 0 — kept as a reference
 * (`npm run calibrate` measures both on the same replications; docs/results.md#calibration).
 */
export type PairedTestRule = 'sign-flip' | 'clustered-t';

export interface PairedOptions {
  /** Pair cells on case × rep (the sim's common random numbers make reps comparable) or on case means. @default 'case-rep' */
  pairOn?: 'case-rep' | 'case';
  /** Confidence level of the interval. @default 0.95 */
  level?: number;
  /** Significance level of the verdict and of the MDE (pass α/m for a family of m). @default 0.05 */
  alpha?: number;
  /** Cluster-bootstrap resamples for a second interval; 0 skips it. @default 0 */
  bootstrap?: number;
  /** Seeds the bootstrap (e.g. `${row.seed}/${suite}/${arm}/${criterion}`); the test never depends on it. @default 0 */
  seed?: string | number;
  /** The scale the scores live on; intervals are reported within what a difference on it can be. null: no bounds. @default [1, 5] */
  scale?: Bounds | null;
  /** @default 'sign-flip' */
  test?: PairedTestRule;
}

export interface PairedDifference {
  /** Mean of (treatment − baseline) over pairs; positive = treatment scores higher. Null without pairs. */
  diff: number | null;
  /** Both sides' means over the same pairs: treatment − baseline = diff. */
  means: { treatment: number; baseline: number } | null;
  se: number | null;
  df: number;
  /** The interval at `level` by the test in `test`, within the scale's bounds (see ciBound). */
  ci: [number, number] | null;
  /** 'clipped': the interval ran past what a difference on the scale can be; 'unbounded': no finite end (too few cases). */
  ciBound: IntervalBound;
  /** Two-sided p of diff = 0 (unadjusted). */
  p: number | null;
  test: PairedTest | null;
  /** The smallest p the test can give here (the sign-flip test's 2/2^n); null for the t test. */
  minP: number | null;
  /** Minimum detectable effect at 80% power at `alpha`, never below the test's floor. */
  mde: Mde;
  /** The mean difference is a whole number of 1/resolution (pairs × the score grid); null off the grid. */
  resolution: number | null;
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
 * The paired difference treatment − baseline with its interval, p-value, MDE and a verdict. Pairing
 * removes case difficulty from the comparison, and the test works on whole cases so the reps of one
 * case never count as independent evidence: the sign-flip test, exact at every size for scores on a
 * grid (integers, case means of integers), Monte Carlo seeded from the data only for off-grid ones (`test: 'clustered-t'` keeps the old t rule as a reference). A
 * cell listed twice counts once (the last one).
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
  const level = opts.level ?? 0.95;
  const seed = String(opts.seed ?? 0);
  const paired = pairOn === 'case' ? pairCaseMeans(treatment, baseline) : pairCells(treatment, baseline);
  const { obs } = paired;
  const est = clusteredMean(obs, level);
  const base = {
    pairs: obs.length,
    unpaired: paired.unpaired,
    means: paired.means,
    pairOn,
    clusters: est?.clusters ?? 0,
  };
  if (!est || est.se === null) return notEnoughData(base, est?.mean ?? null, alpha);
  const tested = testOf(obs, est, level, opts.test ?? 'sign-flip');
  const scale = opts.scale === undefined ? SCORE_SCALE : opts.scale;
  const { ci, bound } = withinBounds(tested.ci, scale ? differenceBounds(scale) : null);
  const bootstrap = bootstrapOf(obs, opts.bootstrap ?? 0, level, seed);
  return {
    ...base,
    diff: est.mean,
    se: est.se,
    df: est.df,
    ci,
    ciBound: bound,
    p: tested.p,
    test: tested.test,
    minP: tested.minP,
    mde: detectableEffect(
      { se: est.se, df: est.df, minP: tested.minP, resolution: tested.resolution },
      alpha,
    ),
    resolution: tested.resolution,
    bootstrap,
    verdict: verdictOf(est.mean, tested.p, alpha),
  };
}

/** The result when no test can be made (no pairs, or a single cluster): the mean alone, verdict 'not enough data'. */
function notEnoughData(
  base: Pick<PairedDifference, 'pairs' | 'unpaired' | 'means' | 'pairOn' | 'clusters'>,
  diff: number | null,
  alpha: number,
): PairedDifference {
  return {
    ...base,
    diff,
    se: null,
    df: 0,
    ci: null,
    ciBound: null,
    p: null,
    test: null,
    minP: null,
    mde: detectableEffect({ se: null, df: 0, minP: null }, alpha),
    resolution: null,
    bootstrap: null,
    verdict: 'not enough data',
  };
}

/** The cluster bootstrap CI, when resamples are asked for (a cross-check; the reported CI is the test's). */
function bootstrapOf(
  obs: Observation[],
  resamples: number,
  level: number,
  seed: string,
): PairedDifference['bootstrap'] {
  if (resamples <= 0) return null;
  return {
    ci: clusterBootstrapCi(obs, { resamples, level, rand: seededRandom('paired-bootstrap', seed) }),
    resamples,
    seed,
  };
}

/**
 * Sign flips at every size: valid whatever the shape of the differences, where the t reference ran
 * liberal on the sim's discrete, mostly-zero differences (docs/decisions.md, "Statistics for many
 * comparisons"). Under the 'clustered-t' reference rule, sign flips only when cases are few or the
 * differences never vary (SE 0 would make a t test certain).
 */
function testOf(
  obs: Observation[],
  est: ClusteredEstimate,
  level: number,
  rule: PairedTestRule,
): {
  p: number;
  ci: [number, number];
  test: PairedTest;
  minP: number | null;
  resolution: number | null;
} {
  const { sums, counts } = clusterTotals(obs);
  const grid = gridOf(sums);
  const resolution = grid === null ? null : grid * counts.reduce((a, b) => a + b, 0);
  if (rule === 'sign-flip' || est.clusters <= EXACT_MAX_CASES || est.se === 0) {
    // Off-grid differences beyond the enumeration limit are the only Monte Carlo case: its stream is
    // seeded from the data, never from the arm's name, so identical data give identical figures.
    const r = signFlipTest(sums, counts, {
      level,
      rand: seededRandom('sign-flip', sums.join(','), counts.join(',')),
    });
    return {
      p: r.p,
      ci: r.ci,
      test: r.method === 'exact' ? 'sign-flip-exact' : 'sign-flip-monte-carlo',
      minP: r.minP,
      resolution,
    };
  }
  return {
    p: tTwoSidedP(est.mean / est.se!, est.df),
    ci: est.ci!,
    test: 'clustered-t',
    minP: null,
    resolution: null,
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
  for (const c of cells) m.set(key(c), c);
  for (const [k, c] of m) if (c.value === null || !Number.isFinite(c.value)) m.delete(k);
  return m;
}

interface Paired {
  obs: Observation[];
  unpaired: number;
  means: PairedDifference['means'];
}

function pairCells(treatment: readonly ScoredCell[], baseline: readonly ScoredCell[]): Paired {
  const t = scoredByKey(treatment);
  const b = scoredByKey(baseline);
  const obs: Observation[] = [];
  let st = 0;
  let sb = 0;
  for (const [k, c] of t) {
    const other = b.get(k);
    if (!other) continue;
    obs.push({ cluster: c.case_id, value: c.value! - other.value! });
    st += c.value!;
    sb += other.value!;
  }
  const n = obs.length;
  return {
    obs,
    unpaired: t.size + b.size - 2 * n,
    means: n ? { treatment: st / n, baseline: sb / n } : null,
  };
}

function pairCaseMeans(treatment: readonly ScoredCell[], baseline: readonly ScoredCell[]): Paired {
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
  let st = 0;
  let sb = 0;
  for (const [caseId, a] of t) {
    const other = b.get(caseId);
    if (!other) {
      unpaired += a.n;
      continue;
    }
    obs.push({ cluster: caseId, value: a.s / a.n - other.s / other.n });
    st += a.s / a.n;
    sb += other.s / other.n;
  }
  for (const [caseId, a] of b) if (!t.has(caseId)) unpaired += a.n;
  const n = obs.length;
  return { obs, unpaired, means: n ? { treatment: st / n, baseline: sb / n } : null };
}
