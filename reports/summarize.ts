import type { ResultRow } from '../harness/core/index.ts';
import { latestRows } from './latest-rows.ts';
import type { ArmSummary, MethodNote, Summary, SuiteSummary, SweepSummary } from './summary/types.ts';
import { sweepSummaries } from './summary/sweeps.ts';
import { callSummary, costSummary, latencySummary, tokenSummary, withBaseline } from './summary/usage.ts';
import { locationSurvivalSummary, overstatedSummary, survivalSummary } from './summary/survival.ts';
import {
  ALPHA,
  BOOTSTRAP_RESAMPLES,
  LEVEL,
  PASS_THRESHOLD,
  compareWithBaseline,
  criterionSummary,
  orderCriteria,
  passRate,
  primaryCriterion,
} from './summary/scores.ts';
import { EXACT_MAX_CASES, MONTE_CARLO_DRAWS } from './stats/sign-flip.ts';
import type { PairedTestRule } from './stats/paired.ts';
import { sourceConfound, type SourceConfound } from './summary/confound.ts';
import { judgeReliability } from './summary/reliability.ts';
import { liveSimNote, liveSummary } from './summary/live.ts';

export type * from './summary/types.ts';

/** The sentence every format of a simulated run carries. */
export const SIM_NOTICE = 'Simulated — not a measurement of any model.';

export const method: MethodNote = {
  level: LEVEL,
  alpha: ALPHA,
  interval:
    'mean with a cluster-robust (CR1) standard error, clusters = cases (reps nested in cases), t interval on cases − 1 df, within the 1–5 scale (clipped and marked when the t interval runs past it)',
  pairing:
    'difference arm − baseline arm paired on case × rep, ok and scored cells only; each comparison shows its pairs, the cells dropped by reason (error; unscored; notJudged — the criterion is not one of the case’s own criteria; missing — no cell on one side) and both means over the same pairs',
  test: `paired sign-flip test on case-level differences, exact at every size: the 2^n flips counted by convolution over the integer grid the scores lie on (off-grid, continuous scores: all flips enumerated up to ${EXACT_MAX_CASES} cases, Monte Carlo (${MONTE_CARLO_DRAWS} draws, seeded from the data) beyond). The interval is the test inverted, within ±4 (the range of a difference of 1–5 scores): clipped and marked when it runs past it, marked unbounded when too few cases bound it at all`,
  multiplicity:
    'two families per suite: the primary criterion, Holm across the arms compared with the baseline; the secondary criteria, Holm across arms × criteria. The verdict uses the family-adjusted p (better / worse when < alpha, else within noise); intervals are per-comparison',
  mde: 'minimum detectable effect at 80% power and two-sided α/m, m the size of the comparison\'s family (the level of Holm\'s first step): (t(1−α/2m) + t(0.8)) · SE on cases − 1 df, never below the smallest difference the sign-flip test can flag at α/m (k/N: k grid steps with 2/2^k < α/m over N pairs; shown as "none below k/N" when it binds); none when the test cannot reach α/m with this many cases, or when SE = 0',
  scale:
    "scores are 1–5 (the rubrics' scale): a mean interval is reported within [1, 5], a difference interval within [−4, 4]",
  bootstrap: `cluster bootstrap (whole cases resampled), ${BOOTSTRAP_RESAMPLES} resamples, percentile interval, seeded from run seed/suite/arm/criterion — a cross-check, not used for the verdict`,
  checks:
    "deterministic checks per ok cell: no_recap_signature (the ADR 0093 recap), no_handoff_language (owned sessions), markers_present, tool_pairing_intact, no_second_assignment (spawn: the child acted on the parent's orchestration request), contradictions_surfaced and not_searched_named (multi-child merges); shown as failed / n; those marked (cue-based) read the answer by literal phrases (docs/judges.md)",
  pass: `score = ok cells with the suite's primary criterion ≥ ${PASS_THRESHOLD}, out of scored cells`,
  survival:
    "kept / total over labelled assertions of each kind, from the per-assertion marks the survival classifier decided (the cue matcher's only with judge.classify 'off', which the judge section then says); a cell is an overstated run when its answer states at least one hedge, assumption or open question as fact; by location: the same marks grouped by where the source put each claim (final_message, mid_transcript, tool_result_only, primary_tool_evidence) — in live mode the place the classifier read in the live transcript",
};

export interface SummarizeOptions {
  /** The paired test's rule; 'clustered-t' is the pre-calibration reference (npm run calibrate). @default 'sign-flip' */
  pairedTest?: PairedTestRule;
}

/**
 * Every statistic of a run, computed once from its rows; every formatter renders the result.
 * Pure: the same rows (in any order) give the same summary.
 */
export function summarize(input: readonly ResultRow[], opts: SummarizeOptions = {}): Summary {
  const { rows, duplicates } = canonicalRows(input);
  const bySuite = groupBy(rows, (r) => r.suite);
  const suites = [...bySuite.entries()].map(([suite, g]) => suiteSummary(suite, g, opts.pairedTest));
  const first = rows[0];
  const simulated = rows.some(isSimulated);
  const distinct = (f: (r: ResultRow) => string) => [...new Set(rows.map(f))].sort();
  return {
    schema: 'handoff-eval/summary@2',
    runId: first?.run_id ?? '',
    simulated,
    notice: simulated ? SIM_NOTICE : null,
    harnessVersion: first?.harness_version ?? '',
    seed: first?.seed ?? null,
    models: {
      source: distinct((r) => r.source_model),
      receiver: distinct((r) => r.receiver_model),
      judge: distinct((r) => r.judge_model),
    },
    cells: rows.length,
    ok: rows.filter((r) => r.status === 'ok').length,
    errors: rows.filter((r) => r.status === 'error').length,
    duplicates,
    method,
    suites,
    ...optional('liveSim', liveSimNote(rows, simulated)),
  };
}

/** `{[key]: value}` when there is a value: recorded runs' summaries keep their shape. */
function optional<K extends string, V>(key: K, value: V | null): { [P in K]?: V } {
  return (value === null ? {} : { [key]: value }) as { [P in K]?: V };
}

export function isSimulated(r: ResultRow): boolean {
  return (
    r.provider === 'sim' ||
    [r.source_model, r.receiver_model, r.judge_model].some((m) => m.startsWith('sim:'))
  );
}

function suiteSummary(suite: string, rows: ResultRow[], test?: PairedTestRule): SuiteSummary {
  const baselineArm = mostCommon(rows.map((r) => r.baseline_arm));
  const scored = [...new Set(rows.flatMap((r) => Object.keys(r.scores)))];
  const primary = primaryCriterion(rows, scored);
  const criteria = orderCriteria(scored, primary);
  const parts = armParts(rows, baselineArm, criteria);
  const base = parts.find((p) => p.arm === baselineArm) ?? null;
  const families = compareWithBaseline(parts, base, criteria, primary, `${rows[0]!.seed}/${suite}`, test);
  const inline = parts.find((p) => p.g[0]!.strategy === 'inline');
  const arms = parts.map((p) => armSummary(p, { baselineArm, base, primary, inline }));
  return {
    suite,
    baselineArm,
    baselinePresent: base !== null,
    cases: new Set(rows.map((r) => r.case_id)).size,
    labels: labelCounts(rows),
    reps: new Set(rows.map((r) => r.rep)).size,
    criteria,
    primaryCriterion: primary,
    families,
    arms,
    judge: judgeReliability(rows, criteria),
    ...withSweeps(sweepSummaries(rows, primary)),
  };
}

type ArmPart = ReturnType<typeof armParts>[number];

/** Each arm's rows, ok rows, scores, tokens and latency; the baseline arm first, the rest by name. */
function armParts(rows: ResultRow[], baselineArm: string, criteria: string[]) {
  const byArm = groupBy(rows, (r) => r.arm);
  const names = [...byArm.keys()].sort((a, b) =>
    a === baselineArm ? -1 : b === baselineArm ? 1 : a < b ? -1 : a > b ? 1 : 0,
  );
  return names.map((arm) => {
    const g = byArm.get(arm)!;
    const ok = g.filter((r) => r.status === 'ok');
    const scores: ArmSummary['scores'] = {};
    for (const c of criteria) {
      const s = criterionSummary(ok, c);
      if (s) scores[c] = s;
    }
    return { arm, g, rows: g, ok, scores, tokens: tokenSummary(ok), latency: latencySummary(ok) };
  });
}

function armSummary(
  p: ArmPart,
  ctx: { baselineArm: string; base: ArmPart | null; primary: string | null; inline: ArmPart | undefined },
): ArmSummary {
  const { baselineArm, base, primary, inline } = ctx;
  const first = p.g[0]!;
  // Live: whether this arm changed the source's own work vs the baseline arm (a declared confound).
  const confound = base && base !== p ? sourceConfound(p.ok, base.ok, baselineArm) : null;
  const live = liveSummary(p.ok, inline ? { arm: inline.arm, rows: inline.ok } : null);
  const errorCodes: Record<string, number> = {};
  for (const r of p.g)
    if (r.status === 'error')
      errorCodes[r.error_code ?? 'unknown'] = (errorCodes[r.error_code ?? 'unknown'] ?? 0) + 1;
  return {
    arm: p.arm,
    strategy: first.strategy,
    params: first.params,
    baseline: p.arm === baselineArm,
    cells: p.g.length,
    ok: p.ok.length,
    errors: p.g.length - p.ok.length,
    errorCodes,
    ...withBaseline(p.tokens, p.latency, base && base !== p ? base : null),
    scores: confound?.declared ? withConfound(p.scores, confound) : p.scores,
    pass: passRate(p.ok, primary),
    survival: survivalSummary(p.ok),
    survivalByLocation: locationSurvivalSummary(p.ok),
    overstated: overstatedSummary(p.ok),
    checks: checkSummary(p.ok),
    cost: costSummary(p.g),
    calls: callSummary(p.g),
    ...optional('live', live && confound ? { ...live, sourceVsBaseline: confound } : live),
    ...optional('truncated', truncatedSummary(p.g)),
  };
}

/** Every comparison of an arm whose source did different work carries the declaration beside it. */
function withConfound(scores: ArmSummary['scores'], x: SourceConfound): ArmSummary['scores'] {
  return Object.fromEntries(
    Object.entries(scores).map(([c, s]) => [
      c,
      s.vsBaseline
        ? { ...s, vsBaseline: { ...s.vsBaseline, confound: { short: x.short, statement: x.statement } } }
        : s,
    ]),
  );
}

/** Cells whose answer was cut at max_tokens, by role (issue 28 item 10); undefined when none. */
export function truncatedSummary(rows: readonly ResultRow[]): ArmSummary['truncated'] {
  const cut = rows.filter((r) => r.truncated?.length);
  if (cut.length === 0) return undefined;
  const byRole: Record<string, number> = {};
  for (const r of cut) for (const role of r.truncated!) byRole[role] = (byRole[role] ?? 0) + 1;
  return { cells: cut.length, byRole, allowed: cut.every((r) => r.truncation_allowed === true) };
}

/** Only a suite with swept arms carries the field: a report without sweeps stays as it was. */
const withSweeps = (sweeps: SweepSummary[]) => (sweeps.length ? { sweeps } : {});

/** Per case (its first row), summed: how many labels are confirmed and how many only proposed. */
function labelCounts(rows: readonly ResultRow[]): SuiteSummary['labels'] {
  const byCase = new Map<string, ResultRow>();
  for (const r of rows) if (!byCase.has(r.case_id)) byCase.set(r.case_id, r);
  let proposed = 0;
  let confirmed = 0;
  for (const r of byCase.values()) {
    proposed += r.labels_proposed ?? 0;
    confirmed += r.labels_confirmed ?? 0;
  }
  return { proposed, confirmed };
}

/** Failed / n per deterministic check over ok cells, checks in name order. */
function checkSummary(ok: readonly ResultRow[]): ArmSummary['checks'] {
  const out: ArmSummary['checks'] = {};
  for (const r of ok) {
    for (const c of r.checks) {
      const e = (out[c.name] ??= { failed: 0, n: 0 });
      if (c.cueBased) e.cueBased = true;
      e.n++;
      if (!c.passed) e.failed++;
    }
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/**
 * One row per cell — the latest in journal order (latestRows, the rule every consumer shares) — in
 * (suite, case, arm, rep) order.
 */
export function canonicalRows(input: readonly ResultRow[]): { rows: ResultRow[]; duplicates: number } {
  const latest = latestRows(input);
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const rows = latest.rows.sort(
    (a, b) => cmp(a.suite, b.suite) || cmp(a.case_id, b.case_id) || cmp(a.arm, b.arm) || a.rep - b.rep,
  );
  return { rows, duplicates: latest.superseded };
}

function groupBy<T>(xs: readonly T[], key: (x: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const x of xs) {
    const k = key(x);
    const g = m.get(k);
    if (g) g.push(x);
    else m.set(k, [x]);
  }
  return m;
}

function mostCommon(xs: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const x of xs) counts.set(x, (counts.get(x) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0] ?? '';
}
