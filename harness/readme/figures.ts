import type { ArmSummary, Comparison, Summary, SuiteSummary } from '../../reports/summary/types.ts';
import type { AssertionKind } from '../core/index.ts';

/**
 * The figures README.md quotes from the default run ("What the default experiment shows"), each
 * computed from a fresh run's report.json. A figure is a template with {slots} and the line of the
 * README it lives on (`anchor`, a text only that line holds); check.ts finds the template on that line,
 * reads what the README says in each slot and compares it with the run.
 */
export interface ReadmeFigure {
  /** A text that identifies the README line (a table row's first cell, a sentence of the prose). */
  anchor: string;
  /** The quoted text, {slot} where a figure goes. */
  template: string;
  /** For a table row: the column (1-based) the template is in; else the whole line. */
  column?: number;
  /** Each slot's value as the README writes it. */
  values: Record<string, string>;
}

type Stage = 'payload' | 'answer';
type Location = 'final_message' | 'mid_transcript' | 'tool_result_only';
const CAVEATS = ['hedged', 'assumption', 'unresolved'] as const;
const KINDS = ['confident', ...CAVEATS] as const;

/** 21,609 */
export const int = (x: number | null) => (x === null ? '–' : Math.round(x).toLocaleString('en-US'));
/** 97% */
export const pct = (x: number | null) => (x === null ? '–' : `${Math.round(100 * x)}%`);
/** +0.01, −1.29, 0.00 (the README's minus sign) */
export const signed = (x: number, digits = 2) => {
  const s = Math.abs(x).toFixed(digits);
  if (Number(s) === 0) return (0).toFixed(digits);
  return `${x < 0 ? '\u2212' : '+'}${s}`;
};
/** −1.60 (no plus sign: an interval end) */
export const num = (x: number, digits = 2) => {
  const s = Math.abs(x).toFixed(digits);
  return Number(s) === 0 ? (0).toFixed(digits) : `${x < 0 ? '\u2212' : ''}${s}`;
};
/** better / worse / noise */
export const verdict = (c: Comparison) =>
  c.verdict === 'better' || c.verdict === 'worse' ? c.verdict : 'noise';
const ratio = (a: number, n: number) => `${a}/${n}`;

function suiteOf(s: Summary, id: string): SuiteSummary {
  const suite = s.suites.find((x) => x.suite === id);
  if (!suite) throw new Error(`the run has no suite "${id}" (the README quotes it)`);
  return suite;
}

function armOf(suite: SuiteSummary, name: string): ArmSummary {
  const arm = suite.arms.find((a) => a.arm === name);
  if (!arm) throw new Error(`suite ${suite.suite} has no arm "${name}" (the README quotes it)`);
  return arm;
}

function vs(arm: ArmSummary, criterion: string): Comparison {
  const c = arm.scores[criterion]?.vsBaseline;
  if (!c || c.diff === null) throw new Error(`${arm.arm}: no comparison on ${criterion}`);
  return c;
}

/** Kept / total over the given kinds and locations of one stage. */
function pooled(
  arm: ArmSummary,
  stage: Stage,
  kinds: readonly AssertionKind[],
  locations: readonly Location[],
) {
  let kept = 0;
  let total = 0;
  for (const k of kinds)
    for (const l of locations) {
      const c = arm.survivalByLocation[stage][k]?.[l];
      kept += c?.kept ?? 0;
      total += c?.total ?? 0;
    }
  return total ? kept / total : 0;
}

const failed = (arm: ArmSummary, check: string) => arm.checks[check]?.failed ?? 0;
const checked = (arm: ArmSummary, check: string) => arm.checks[check]?.n ?? 0;
const passOf = (arm: ArmSummary) => ({ passed: arm.pass?.passed ?? 0, n: arm.pass?.n ?? 0 });
const latencyDelta = (arm: ArmSummary) => signed((arm.latency.p50DeltaVsBaselineMs ?? 0) / 1000, 1);

/** Every figure of the README's default-run section, from the run's summary. */
export function readmeFigures(s: Summary): ReadmeFigure[] {
  return [...headline(s), ...ledgerline(s), ...others(s), ...prose(s)];
}

function headline(s: Summary): ReadmeFigure[] {
  const arms = s.suites.reduce((n, x) => n + x.arms.length, 0);
  const reps = [...new Set(s.suites.map((x) => x.reps))].join('/');
  return [
    {
      anchor: '`npx handoff-eval run` — ',
      template: '— {suites} suites, {arms} arms, {reps} reps, **{cells} cells in',
      values: { suites: String(s.suites.length), arms: String(arms), reps, cells: int(s.cells) },
    },
  ];
}

function ledgerline(s: Summary): ReadmeFigure[] {
  const l = suiteOf(s, 'ledgerline');
  const [inline, fm, ft, sc, sum] = [
    'inline',
    'final-message',
    'full-transcript',
    'structured-contract',
    'summary',
  ].map((a) => armOf(l, a)) as [ArmSummary, ArmSummary, ArmSummary, ArmSummary, ArmSummary];
  const over = (a: ArmSummary) =>
    `${ratio(a.overstated.runs, a.overstated.n)} (${pct(a.overstated.runs / a.overstated.n)})`;
  const ftc = (c: string) => vs(ft, c);
  const fmc = vs(fm, 'caveat_carrying');
  const scc = vs(sc, 'caveat_carrying');
  const midPayload = CAVEATS.map((k) => sc.survivalByLocation.payload[k]?.mid_transcript?.rate ?? 0);
  return [
    {
      anchor: '| parent window 22,400',
      column: 3,
      template: '{before} → {after} ({growth}); transcript payload {payload} tokens',
      values: {
        before: int(ft.tokens.windowBefore),
        after: int(ft.tokens.windowAfter),
        growth: `+${Math.round(ft.tokens.windowGrowthPct ?? 0)}%`,
        payload: int(ft.tokens.handoff),
      },
    },
    {
      anchor: '| summary: window ≈ 23,900',
      column: 3,
      template: '{window}; {output} tokens',
      values: { window: int(sum.tokens.windowAfter), output: int(sum.tokens.sourceOutput) },
    },
    {
      anchor: '| contract: child output ≈ 900',
      column: 3,
      template: '{output} tokens; {rendered} tokens',
      values: { output: int(sc.tokens.sourceOutput), rendered: int(sc.tokens.handoff) },
    },
    {
      anchor: '| survival into the summary',
      column: 3,
      template: '{confident} / {hedged} / {assumption} (payload)',
      values: {
        confident: pct(sum.survival.payload.confident!.rate!),
        hedged: pct(sum.survival.payload.hedged!.rate!),
        assumption: pct(sum.survival.payload.assumption!.rate!),
      },
    },
    {
      anchor: '| overstated runs: summary',
      column: 3,
      template: '{summary}, {transcript}, {contract}',
      values: { summary: over(sum), transcript: over(ft), contract: over(sc) },
    },
    {
      anchor: '| score unchanged, transcript vs inline',
      column: 3,
      template:
        'paired Δ {caveat} on caveat carrying and provenance, {corr} [{lo}, {hi}] on correctness; pass {ftPass} vs {inlinePass}',
      values: {
        caveat:
          signed(ftc('caveat_carrying').diff!) === signed(ftc('provenance').diff!)
            ? signed(ftc('caveat_carrying').diff!)
            : `${signed(ftc('caveat_carrying').diff!)} / ${signed(ftc('provenance').diff!)}`,
        corr: signed(ftc('correctness').diff!),
        lo: num(ftc('correctness').ci![0]),
        hi: num(ftc('correctness').ci![1]),
        ftPass: ratio(passOf(ft).passed, passOf(ft).n),
        inlinePass: ratio(passOf(inline).passed, passOf(inline).n),
      },
    },
    {
      anchor: "| (issue 14) the child's final message only",
      column: 3,
      template:
        "caveat carrying {d} [{lo}, {hi}], **{v}**; its payload holds {hidden} of the mid-transcript and tool-result-only claims, and the final report's caveats as inline does (answer: hedged {fmHedged} vs {inlineHedged})",
      values: {
        d: signed(fmc.diff!),
        lo: num(fmc.ci![0]),
        hi: num(fmc.ci![1]),
        v: verdict(fmc),
        hidden: pct(pooled(fm, 'payload', KINDS, ['mid_transcript', 'tool_result_only'])),
        fmHedged: pct(pooled(fm, 'answer', ['hedged'], ['final_message'])),
        inlineHedged: pct(pooled(inline, 'answer', ['hedged'], ['final_message'])),
      },
    },
    {
      anchor: '| (issue 14) the contract keeps caveats',
      column: 3,
      template:
        "mid-transcript caveats: payload {lo}–{hi}, answer {sc} vs inline's {inline}; caveat carrying {d} [{cilo}, {cihi}] vs inline ({v} after Holm)",
      values: {
        lo: String(Math.round(100 * Math.min(...midPayload))),
        hi: pct(Math.max(...midPayload)),
        sc: pct(pooled(sc, 'answer', CAVEATS, ['mid_transcript'])),
        inline: pct(pooled(inline, 'answer', CAVEATS, ['mid_transcript'])),
        d: signed(scc.diff!),
        cilo: num(scc.ci![0]),
        cihi: num(scc.ci![1]),
        v: verdict(scc),
      },
    },
  ];
}

function others(s: Summary): ReadmeFigure[] {
  const mc = suiteOf(s, 'multi-child');
  const [cat, merged, finals] = ['transcripts-concatenated', 'contracts-merged', 'final-messages'].map((a) =>
    armOf(mc, a),
  ) as [ArmSummary, ArmSummary, ArmSummary];
  const surfaced = (a: ArmSummary) =>
    ratio(
      checked(a, 'contradictions_surfaced') - failed(a, 'contradictions_surfaced'),
      checked(a, 'contradictions_surfaced'),
    );
  const mcMerged = vs(merged, 'caveat_carrying');
  const mcFinals = vs(finals, 'caveat_carrying');
  const milk = suiteOf(s, 'milk');
  const brick = armOf(milk, 'milk-esc-brick');
  const parity = armOf(milk, 'milk-esc-parity');
  const esc = suiteOf(s, 'esc-owned-parity');
  const [pro, handoff, owner] = ['milk-pro', 'esc-handoff', 'esc-owner'].map((a) => armOf(esc, a)) as [
    ArmSummary,
    ArmSummary,
    ArmSummary,
  ];
  const spawn = suiteOf(s, 'spawn-context');
  const second = (a: string) =>
    ratio(failed(armOf(spawn, a), 'no_second_assignment'), checked(armOf(spawn, a), 'no_second_assignment'));
  const v = (c: Comparison) => (verdict(c) === 'noise' ? 'noise' : `_${verdict(c)}_`);
  return [
    {
      anchor: '| 4 transcripts ≈ 112k tokens',
      column: 3,
      template:
        '{cat} vs {merged} window (final messages only: {finals}); contradictions surfaced in {catS} vs {mergedS} cells (final messages: {finalsS}); caveat carrying merged {dm}, final messages {df} ({cases} cases: {vm})',
      values: {
        cat: int(cat.tokens.windowAfter),
        merged: int(merged.tokens.windowAfter),
        finals: int(finals.tokens.windowAfter),
        catS: surfaced(cat),
        mergedS: surfaced(merged),
        finalsS: surfaced(finals),
        dm: signed(mcMerged.diff!),
        df: signed(mcFinals.diff!),
        cases: String(mcMerged.clusters),
        vm:
          verdict(mcMerged) === verdict(mcFinals)
            ? verdict(mcMerged)
            : `${verdict(mcMerged)} / ${verdict(mcFinals)}`,
      },
    },
    {
      anchor: '| milk-esc lost to milk-auto',
      column: 3,
      template:
        'brick: verification {bv} [{bvlo}, {bvhi}] ({bvv}), restraint {br} [{brlo}, {brhi}] ({brv}); parity: {pv} ({pvv}), {pr} ({prv})',
      values: {
        bv: signed(vs(brick, 'verification_evidence').diff!),
        bvlo: num(vs(brick, 'verification_evidence').ci![0]),
        bvhi: num(vs(brick, 'verification_evidence').ci![1]),
        bvv: v(vs(brick, 'verification_evidence')),
        br: signed(vs(brick, 'restraint').diff!),
        brlo: num(vs(brick, 'restraint').ci![0]),
        brhi: num(vs(brick, 'restraint').ci![1]),
        brv: v(vs(brick, 'restraint')),
        pv: signed(vs(parity, 'verification_evidence').diff!),
        pvv: v(vs(parity, 'verification_evidence')),
        pr: signed(vs(parity, 'restraint').diff!),
        prv: v(vs(parity, 'restraint')),
      },
    },
    {
      anchor: '| owned session: proportional',
      column: 3,
      template:
        'owner {owner} = pro {pro}; hand-off framing {handoff} with the recap in {recap} cells, owner {ownerRecap}',
      values: {
        owner: owner.scores.proportional!.mean!.toFixed(2),
        pro: pro.scores.proportional!.mean!.toFixed(2),
        handoff: handoff.scores.proportional!.mean!.toFixed(2),
        recap: ratio(failed(handoff, 'no_recap_signature'), checked(handoff, 'no_recap_signature')),
        ownerRecap: ratio(failed(owner, 'no_recap_signature'), checked(owner, 'no_recap_signature')),
      },
    },
    {
      anchor: '| a full copy makes the child run',
      column: 3,
      template: 'second assignment: all {all}, recent {recent}, isolated {isolated}, summary {summary}',
      values: {
        all: second('spawn-all'),
        recent: second('spawn-recent'),
        isolated: second('spawn-isolated'),
        summary: second('spawn-summary'),
      },
    },
  ];
}

function prose(s: Summary): ReadmeFigure[] {
  const l = suiteOf(s, 'ledgerline');
  const [inline, fm, ft, sum] = ['inline', 'final-message', 'full-transcript', 'summary'].map((a) =>
    armOf(l, a),
  ) as [ArmSummary, ArmSummary, ArmSummary, ArmSummary];
  const fmCorr = vs(fm, 'correctness');
  const passPct = (a: ArmSummary) =>
    `${ratio(passOf(a).passed, passOf(a).n)} (${pct(passOf(a).passed / passOf(a).n)})`;
  return [
    {
      anchor: 'that is why no arm',
      template: '(inline: {confident} of confident claims)',
      values: { confident: pct(inline.survival.answer.confident!.rate!) },
    },
    {
      anchor: 'shorter request helps a little',
      template: '(final-message correctness {d}, {v})',
      values: { d: signed(fmCorr.diff!), v: verdict(fmCorr) === 'noise' ? 'within noise' : verdict(fmCorr) },
    },
    {
      anchor: 'so the transcript arm costs',
      template: 'so the transcript arm costs {ft} s and the',
      values: { ft: latencyDelta(ft) },
    },
    {
      anchor: 's of decoding; the seed',
      template: 'summary arm {sum} s of decoding',
      values: { sum: latencyDelta(sum) },
    },
    {
      anchor: 'record rather than re-run. The ledgerline',
      template: '— {inline} for inline and',
      values: { inline: passPct(inline) },
    },
    {
      anchor: 'for the transcript under the sim',
      template: '{ft} for the transcript under the sim',
      values: { ft: passPct(ft) },
    },
  ];
}
