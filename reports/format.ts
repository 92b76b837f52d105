import type { AssertionKind } from '../harness/core/index.ts';
import { assertionKinds, claimLocations } from '../harness/core/index.ts';
import type { PairedTest } from './stats/paired.ts';
import type { IntervalBound } from './stats/scale.ts';
import type { SurvivalReading } from './summary/survival-reading.ts';
import type {
  ArmSummary,
  Comparison,
  CriterionSummary,
  FamilySummary,
  SuiteSummary,
  JudgeReliability,
  SurvivalCount,
} from './summary/types.ts';

/** Number and cell formatting shared by the Markdown and HTML formatters (one way to write a number). */

export const dash = '–';

/** The survival table covers every kind (confident, hedged, assumption, unresolved), not assumptions alone. */
export const survivalHeading = 'Assertion survival by kind (kept, with its qualifier where it has one)';

/** Under the score tables: what the interval marks mean. */
export const intervalNote =
  '_clipped_: the interval ran past what the 1–5 scale allows (a mean within [1, 5], a difference within [−4, 4]) and is cut at its edge; _unbounded_: with this few cases the test rejects no difference at all. Verdicts are Holm-adjusted within their family; intervals are per comparison.';

export function int(x: number | null): string {
  if (x === null || !Number.isFinite(x)) return dash;
  const s = String(Math.round(Math.abs(x)));
  return (x < 0 && Math.round(x) !== 0 ? '-' : '') + s.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

export function num(x: number | null, digits = 2): string {
  return x === null || !Number.isFinite(x) ? dash : x.toFixed(digits);
}

export function signed(x: number | null, digits = 2, unit = ''): string {
  if (x === null || !Number.isFinite(x)) return dash;
  const v = x.toFixed(digits);
  if (Number(v) === 0) return `${(0).toFixed(digits)}${unit}`;
  return `${x > 0 ? '+' : ''}${v}${unit}`;
}

export function pct(x: number | null, digits = 0): string {
  return x === null || !Number.isFinite(x) ? dash : `${(x * 100).toFixed(digits)}%`;
}

export function signedPct(x: number | null): string {
  return x === null ? dash : signed(x, 0, '%');
}

export function seconds(ms: number | null, signedForm = false): string {
  if (ms === null) return dash;
  return signedForm ? signed(ms / 1000, 1, ' s') : `${(ms / 1000).toFixed(1)} s`;
}

export function ci(c: [number, number] | null, digits = 2): string {
  return c ? `[${c[0].toFixed(digits)}, ${c[1].toFixed(digits)}]` : dash;
}

export function pValue(p: number | null): string {
  if (p === null) return dash;
  return p < 0.001 ? '<0.001' : p.toFixed(3);
}

/** Says when an interval was cut to the scale or has no finite end. */
export function boundMark(bound: IntervalBound): string {
  return bound === 'clipped' ? ' clipped' : bound === 'unbounded' ? ' unbounded' : '';
}

export function meanCi(s: CriterionSummary | undefined): string {
  return s?.mean == null ? dash : `${s.mean.toFixed(2)} ${s.ci ? ci(s.ci) : '[–]'}${boundMark(s.ciBound)}`;
}

export function diffCi(c: Comparison | null): string {
  if (c?.diff == null) return dash;
  if (!c.ci) return `${signed(c.diff)} [–]`;
  const flat = c.ci[0] === c.ci[1] ? ' (no variation between cases)' : '';
  return `${signed(c.diff)} ${ci(c.ci)}${boundMark(c.ciBound)}${flat}`;
}

const testNames: Record<PairedTest, string> = {
  'clustered-t': 't (clustered)',
  'sign-flip-exact': 'sign-flip, exact',
  'sign-flip-monte-carlo': 'sign-flip, Monte Carlo',
};

export function testName(c: Comparison | null): string {
  return c?.test ? testNames[c.test] : dash;
}

const droppedWords = {
  error: 'error',
  unscored: 'unscored',
  notJudged: 'not a criterion of their case',
  missing: 'missing',
} as const;

/** "28 (30/30 cells; dropped 2: 1 error, 1 unscored)", or just "30" when every cell paired. */
export function pairsText(c: Comparison | null): string {
  if (!c) return dash;
  const { arm, baseline, pairs, dropped } = c.cells;
  if (pairs >= arm && pairs >= baseline) return String(pairs);
  const why = (['error', 'unscored', 'notJudged', 'missing'] as const)
    .filter((k) => (dropped[k] ?? 0) > 0)
    .map((k) => `${dropped[k]} ${droppedWords[k]}`)
    .join(', ');
  const n = dropped.error + dropped.unscored + (dropped.notJudged ?? 0) + dropped.missing;
  return `${pairs} (${arm}/${baseline} cells; dropped ${n}: ${why})`;
}

/** Both means over the same pairs, so their gap is Δ. */
export function pairedMeans(c: Comparison | null): string {
  return c?.means ? `${c.means.treatment.toFixed(2)} vs ${c.means.baseline.toFixed(2)}` : dash;
}

export function mde(c: Comparison | null): string {
  if (!c) return dash;
  const floor = c.mde.floor;
  // At the floor, say so: the test can flag nothing smaller, whatever the t approximation says.
  if (c.mde.value !== null && floor && c.mde.value === floor.value)
    return `${c.mde.value.toFixed(3)} (none below ${floor.k}/${floor.of})`;
  if (c.mde.value !== null) return c.mde.value.toFixed(2);
  if (c.mde.note === 'not detectable with this many cases') return 'none: too few cases';
  if (c.mde.note === 'no variation (SE 0)') return '– (SE 0)';
  return dash;
}

/** "primary: correctness — Holm over 3, MDE at α/3 = 0.0167". */
export function familyText(f: FamilySummary): string {
  if (f.size === 0)
    return `${f.name}: ${f.criteria.join(', ')} — no comparison could be tested (no pairs), nothing to adjust`;
  return `${f.name}: ${f.criteria.join(', ')} — Holm over ${f.size} comparison${f.size === 1 ? '' : 's'}, MDE at α/${f.size} = ${f.testAlpha.toPrecision(3)}`;
}

export function windowBeforeAfter(a: ArmSummary): string {
  return `${int(a.tokens.windowBefore)} → ${int(a.tokens.windowAfter)}`;
}

export function passText(a: ArmSummary): string {
  return a.pass ? `${a.pass.passed}/${a.pass.n}` : dash;
}

export function overstatedText(a: ArmSummary): string {
  return `${a.overstated.runs}/${a.overstated.n}`;
}

/** "24/30 (80%)" from marks, "80% (mean of 30 cells)" from rates. */
export function survivalText(c: SurvivalCount | undefined, source: string): string {
  if (!c || c.rate === null) return dash;
  return source === 'marks'
    ? `${c.kept}/${c.total} (${pct(c.rate)})`
    : `${pct(c.rate)} (mean of ${c.total} cells)`;
}

/** "0", or "3 (2 without labels)": null scores, and how many of them a missing label explains. */
export function unscoredText(s: CriterionSummary): string {
  const unlabelled = Object.values(s.unlabelled ?? {}).reduce((a, b) => a + b, 0);
  return unlabelled ? `${s.unscored} (${unlabelled} without labels)` : String(s.unscored);
}

export function kindsPresent(arms: readonly ArmSummary[], kinds: readonly AssertionKind[]): AssertionKind[] {
  return kinds.filter((k) => arms.some((a) => a.survival.answer[k] || a.survival.payload[k]));
}

/** "labels: 12 confirmed, 4 proposed (unchecked)": what a suite's scores rest on (docs/importers.md). */
export function labels(suite: Pick<SuiteSummary, 'labels'>): string {
  const l = suite.labels ?? { proposed: 0, confirmed: 0 };
  return `labels: ${l.confirmed} confirmed, ${l.proposed} proposed${l.proposed > 0 ? ' (unchecked)' : ''}`;
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export function agreementText(a: NonNullable<JudgeReliability['agreement']>[string]): string {
  return `test-retest ${pct(a.exact)} exact, ${pct(a.withinOne)} within one point (${a.pairs} sample pairs over ${a.units} cells); Krippendorff α (ordinal) ${num(a.alpha)}`;
}

export function survivalAgreementText(s: NonNullable<JudgeReliability['survival']>): string {
  return `the classifier's marks agree with the cue matcher's first opinion on ${pct(s.agreement)} of ${s.compared} marks (Cohen κ ${num(s.kappa)})`;
}

const stageNames = { made: 'made by the source', payload: 'payload', answer: 'answer' } as const;

/** What decided the survival figures, and the cue matcher's disagreement per stage (issue 26). */
export function survivalReadingLines(r: SurvivalReading | undefined): string[] {
  if (!r || r.decidedBy === null) return [];
  const lines: string[] = [];
  if (r.decidedBy === 'cues')
    lines.push(
      "survival figures are cue-based: the literal cue matcher decided (judge.classify 'off'); no classifier read the claims",
    );
  else if (r.decidedBy === 'mixed')
    lines.push(
      'survival figures mix rows decided by the classifier and rows decided by cues (journals of different runs)',
    );
  else lines.push('survival decided by the survival classifier, for every labelled claim at every stage');
  const parts = (
    Object.entries(r.disagreement) as [
      keyof typeof stageNames,
      { differ: number; compared: number; rate: number | null },
    ][]
  ).map(([stage, d]) => `${stageNames[stage]} ${pct(d.rate)} (${d.differ}/${d.compared})`);
  if (parts.length)
    lines.push(`cue matcher disagrees with the classifier on: ${parts.join(' · ')} of claims`);
  if (r.unscored)
    lines.push(`survival stages unscored (the classifier failed after its retry): ${r.unscored}`);
  return lines;
}

/** "not made by the live source: 12 of 282 labelled claims (hedged 5 · assumption 7)"; '' when not live. */
export function notMadeText(r: SurvivalReading | undefined): string {
  const n = r?.notMade;
  if (!n) return '';
  const kinds = Object.entries(n.byKind).map(([k, c]) => `${k} ${c}`);
  return `not made by the live source (read by the classifier; in no location row): ${n.claims} of ${n.labelled} labelled claims over ${plural(n.cells, 'live cell')}${kinds.length ? ` (${kinds.join(' · ')})` : ''}`;
}

/** A check's column label: "(cue-based)" when it read the answer by literal phrases. */
export function checkLabel(suite: Pick<SuiteSummary, 'arms'>, name: string): string {
  return suite.arms.some((a) => a.checks[name]?.cueBased) ? `${name} (cue-based)` : name;
}

export function cueBasedNote(suite: Pick<SuiteSummary, 'arms'>): string {
  if (!suite.arms.some((a) => Object.values(a.checks).some((c) => c.cueBased))) return '';
  return '(cue-based): the check reads the answer by literal phrases — an answer that says the same in other words can fail or pass it; no check decides survival.';
}

export function checkText(c: { failed: number; n: number } | undefined): string {
  return c ? `${c.failed}/${c.n}` : dash;
}

/** Calls the response cache served / all calls of the arm's cells. */
export function cachedCalls(a: Pick<ArmSummary, 'calls'>): string {
  return `${a.calls.cached}/${a.calls.model}`;
}

/**
 * The kind × location table shared by Markdown and HTML: one row per combination some arm of the
 * suite has, one cell per arm, "payload% → answer%" (kept with its qualifier), n = assertions per arm.
 */
export function locationRows(arms: readonly ArmSummary[]): { label: string; n: string; cells: string[] }[] {
  const out: { label: string; n: string; cells: string[] }[] = [];
  for (const kind of assertionKinds)
    for (const location of claimLocations) {
      const of = arms.map((a) => ({
        p: a.survivalByLocation.payload[kind]?.[location],
        ans: a.survivalByLocation.answer[kind]?.[location],
      }));
      if (!of.some((x) => x.p || x.ans)) continue;
      const n = Math.max(...of.map((x) => x.ans?.total ?? 0));
      out.push({
        label: `${kind} · ${location}`,
        n: int(n),
        cells: of.map((x) => `${pct(x.p?.rate ?? null)} → ${pct(x.ans?.rate ?? null)}`),
      });
    }
  return out;
}

/** An arm's tokens, latency and cost cells (the tokens table of report.md and report.html, after the arm). */
export function tokenCells(a: ArmSummary): string[] {
  return [
    int(a.tokens.handoff),
    a.baseline ? dash : signedPct(a.tokens.handoffVsBaselinePct),
    int(a.tokens.sourceOutput),
    int(a.tokens.windowBefore),
    int(a.tokens.windowAfter),
    seconds(a.latency.p50),
    seconds(a.latency.p95),
    a.cost.usd.toFixed(4),
    a.cost.judgeUsd.toFixed(4),
    cachedCalls(a),
  ];
}
