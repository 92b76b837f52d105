import type { ResultRow } from '../core/index.ts';
import { canonicalRows, summarize } from '../../reports/summarize.ts';
import { pairedDifference, scoredCells } from '../../reports/stats/paired.ts';
import type { ArmSummary, SuiteSummary } from '../../reports/summary/types.ts';
import { identityOf } from './baseline.ts';
import type { Baseline, BaselineArm, GateCheck, GateResult, GateVerdict, RunIdentity } from './types.ts';
import type { ResolvedGateThresholds } from '../config/gate-thresholds.ts';
import { limitsFor, scopeChecks, type ArmLimits } from './scopes.ts';
import { armDifferences, configCheck, modeMismatch } from './like-for-like.ts';
import { changedCells, coverageChecks, unusedMinimums } from './coverage.ts';

export type { GateVerdict, GateCheckKind, GateCheck, GateResult } from './types.ts';

export interface GateOptions {
  /**
   * An arm whose strategy, params or models differ from the baseline's arm of its name is not compared
   * with it (cannot evaluate) — the strict reading. Default: compared by name, the change listed.
   */
  likeForLike?: boolean;
}

const EPS = 1e-9;

/**
 * Compares a run with a baseline under the config's thresholds, per suite × arm: the error rate,
 * the growth of mean handoff tokens, each criterion's mean against its minimum, and each criterion's
 * paired difference from the baseline's cells — a drop counts only when the interval excludes zero.
 * Pure: it returns the verdict; the CLI turns it into an exit code.
 */
export function evaluateGate(
  input: readonly ResultRow[],
  baseline: Baseline,
  thresholds: ResolvedGateThresholds,
  opts: GateOptions = {},
): GateResult {
  const { rows } = canonicalRows(input);
  const base = { baseline: baseline.identity, thresholds };
  if (rows.length === 0)
    return {
      ...base,
      verdict: 'cannot evaluate',
      checks: [],
      mismatch: [],
      notes: ['the run has no result rows'],
      run: null,
    };
  const summary = summarize(rows);
  const run = identityOf(summary);
  const arms = summary.suites.flatMap((s) =>
    s.arms.map((a) => ({
      suite: s.suite,
      arm: a.arm,
      rows: rows.filter((r) => r.suite === s.suite && r.arm === a.arm),
    })),
  );
  const mismatch = [...compareIdentity(run, baseline.identity), ...modeMismatch(arms, baseline)];
  const notes: string[] = [];
  if (run.harnessVersion !== baseline.identity.harnessVersion)
    notes.push(`harness version ${run.harnessVersion} vs the baseline's ${baseline.identity.harnessVersion}`);
  if (mismatch.length > 0) return { ...base, verdict: 'cannot evaluate', checks: [], mismatch, notes, run };
  const checks: GateCheck[] = [];
  for (const s of summary.suites) {
    const bs = baseline.suites.find((x) => x.suite === s.suite);
    if (!bs) notes.push(`suite ${s.suite} is not in the baseline: absolute checks only`);
    for (const a of s.arms) {
      const ba = bs?.arms.find((x) => x.arm === a.arm);
      if (bs && !ba) notes.push(`${s.suite}/${a.arm} is not in the baseline: absolute checks only`);
      if (ba && a.cells < ba.cells)
        notes.push(`${s.suite}/${a.arm}: ${a.cells} cells vs ${ba.cells} in the baseline`);
      const armRows = rows.filter((r) => r.suite === s.suite && r.arm === a.arm);
      checks.push(...armChecks(s, a, armRows, ba, thresholds, notes, opts.likeForLike ?? false));
    }
  }
  const scopes = scopeChecks(thresholds, summary.suites, baseline);
  checks.push(
    ...coverageChecks(baseline, summary.suites),
    ...unusedMinimums(thresholds, summary.suites),
    ...scopes.checks,
  );
  notes.push(...scopes.notes);
  const moved = changedCells(rows, baseline);
  if (moved.changed > 0)
    notes.push(
      `${moved.changed} of ${moved.compared} scores differ from the baseline's same cell${summary.simulated ? ' (a sim run of an unchanged harness reproduces every score exactly)' : ''}`,
    );
  return { ...base, verdict: overall(checks), checks, mismatch, notes, run };
}

export function overall(checks: readonly GateCheck[]): GateVerdict {
  if (checks.some((c) => c.verdict === 'regression')) return 'regression';
  if (checks.some((c) => c.verdict === 'cannot evaluate')) return 'cannot evaluate';
  return 'pass';
}

/** Seed and models must match: scores from another seed or model are not the same experiment. */
export function compareIdentity(run: RunIdentity, baseline: RunIdentity): string[] {
  const out: string[] = [];
  if (run.seed !== baseline.seed) out.push(`seed: run ${run.seed} vs baseline ${baseline.seed}`);
  for (const role of ['source', 'receiver', 'judge'] as const) {
    const r = run.models[role].join(', ');
    const b = baseline.models[role].join(', ');
    if (r !== b) out.push(`models.${role}: run ${r || '–'} vs baseline ${b || '–'}`);
  }
  return out;
}

/**
 * One suite × arm under its own thresholds (global, or scoped: scopes.ts). An arm configured
 * differently from the baseline's (strategy, params, models) gets one 'config' row saying what
 * differs; it is compared with the baseline's arm of its name all the same, unless `likeForLike`,
 * where only the absolute checks (error rate, minimum means) run for it.
 */
function armChecks(
  s: SuiteSummary,
  a: ArmSummary,
  armRows: ResultRow[],
  found: BaselineArm | undefined,
  thresholds: ResolvedGateThresholds,
  notes: string[],
  likeForLike: boolean,
): GateCheck[] {
  const at = { suite: s.suite, arm: a.arm };
  const t = limitsFor(thresholds, s.suite, a.arm);
  if (t.exempt) notes.push(`${s.suite}/${a.arm}: exempt from minMean (${t.exempt})`);
  const diff = found ? armDifferences(a, armRows, found) : null;
  for (const d of diff?.oneSided ?? []) notes.push(`${s.suite}/${a.arm}: ${d}`);
  const ba = diff?.differs.length && likeForLike ? undefined : found;
  const checks: GateCheck[] = [errorRateCheck(at, a, found, t)];
  if (diff?.differs.length) checks.push(configCheck(at, diff.differs, likeForLike));
  if (ba) checks.push(tokenCheck(at, a, ba, t));
  for (const c of s.criteria) {
    const min = t.minMean[c];
    if (min !== undefined) checks.push(minMeanCheck(at, c, a, found, min, t.minCells));
    const bc = ba?.scores[c];
    if (bc) {
      const d = pairedDifference(scoredCells(armRows, c), bc.cells);
      checks.push(
        dropCheck({ ...at, criterion: c, baseline: bc.mean, current: a.scores[c]?.mean ?? null }, d, t),
      );
      if (d.ci && d.diff !== null && d.ci[0] > 0)
        notes.push(
          `${s.suite}/${a.arm} ${c}: better than the baseline beyond noise (${d.diff.toFixed(2)}); refresh the baseline to hold the gain`,
        );
    } else if (ba) notes.push(`${s.suite}/${a.arm} ${c}: not in the baseline, no drop check`);
  }
  for (const c of Object.keys(ba?.scores ?? {})) {
    if (s.criteria.includes(c)) continue;
    checks.push({
      ...at,
      kind: 'coverage',
      criterion: c,
      baseline: ba!.scores[c]!.mean,
      current: null,
      delta: null,
      ci: null,
      limit: null,
      verdict: 'cannot evaluate',
      reason: 'scored in the baseline, not in the run',
    });
  }
  return checks;
}

type At = { suite: string; arm: string };

function errorRateCheck(at: At, a: ArmSummary, ba: BaselineArm | undefined, t: ArmLimits): GateCheck {
  const rate = a.cells ? a.errors / a.cells : 0;
  const over = rate > t.maxErrorRate + EPS;
  return {
    ...at,
    kind: 'error-rate',
    criterion: null,
    baseline: ba?.errorRate ?? null,
    current: rate,
    delta: ba ? rate - ba.errorRate : null,
    ci: null,
    limit: t.maxErrorRate,
    verdict: over ? 'regression' : 'pass',
    reason: `${a.errors}/${a.cells} cells failed`,
  };
}

function tokenCheck(at: At, a: ArmSummary, ba: BaselineArm, t: ArmLimits): GateCheck {
  const current = a.tokens.handoff;
  const baseline = ba.tokens.handoff;
  const row = {
    ...at,
    kind: 'token-growth' as const,
    criterion: null,
    baseline,
    current,
    ci: null,
    limit: t.maxTokenGrowthPct,
  };
  if (current === null || baseline === null)
    return {
      ...row,
      delta: null,
      verdict: 'cannot evaluate',
      reason: `no ok cells in the ${current === null ? 'run' : 'baseline'}`,
    };
  if (a.ok < t.minCells)
    return {
      ...row,
      delta: null,
      verdict: 'cannot evaluate',
      reason: `${a.ok} ok cells < minCells ${t.minCells}`,
    };
  const growth = baseline === 0 ? (current === 0 ? 0 : Infinity) : ((current - baseline) / baseline) * 100;
  const over = growth > t.maxTokenGrowthPct + EPS;
  return {
    ...row,
    delta: growth,
    verdict: over ? 'regression' : 'pass',
    reason: over ? 'handoff grew beyond the limit' : 'within the limit',
  };
}

function minMeanCheck(
  at: At,
  criterion: string,
  a: ArmSummary,
  ba: BaselineArm | undefined,
  min: number,
  minCells: number,
): GateCheck {
  const cs = a.scores[criterion];
  const row = {
    ...at,
    kind: 'min-mean' as const,
    criterion,
    baseline: ba?.scores[criterion]?.mean ?? null,
    current: cs?.mean ?? null,
    delta: null,
    ci: cs?.ci ?? null,
    limit: min,
  };
  const n = cs?.n ?? 0;
  if (n < minCells || row.current === null)
    return { ...row, verdict: 'cannot evaluate', reason: `${n} scored cells < minCells ${minCells}` };
  const below = row.current < min - EPS;
  return {
    ...row,
    verdict: below ? 'regression' : 'pass',
    reason: below ? 'mean below the minimum' : `${n} scored cells`,
  };
}

function dropCheck(
  row: At & { criterion: string; baseline: number | null; current: number | null },
  d: ReturnType<typeof pairedDifference>,
  t: ArmLimits,
): GateCheck {
  const base = { ...row, kind: 'drop' as const, delta: d.diff, ci: d.ci, limit: t.maxDrop };
  if (d.pairs < t.minCells)
    return {
      ...base,
      verdict: 'cannot evaluate',
      reason: `${d.pairs} paired cells < minCells ${t.minCells}`,
    };
  if (!d.ci || d.diff === null)
    return { ...base, verdict: 'cannot evaluate', reason: `${d.clusters} case(s) paired: no interval` };
  const excludesZero = d.ci[1] < 0 || d.ci[0] > 0;
  const drop = -d.diff;
  if (d.ci[1] < 0 && drop > t.maxDrop + EPS)
    return {
      ...base,
      verdict: 'regression',
      reason: `drop ${drop.toFixed(2)} > ${t.maxDrop}, CI excludes 0`,
    };
  const why = !excludesZero
    ? 'within noise'
    : d.diff < 0
      ? `drop ${drop.toFixed(2)} ≤ ${t.maxDrop}`
      : 'better';
  return { ...base, verdict: 'pass', reason: `${why} (${d.pairs} pairs)` };
}
