import type { ArmSummary, Summary } from '../../reports/summary/types.ts';
import {
  armOf,
  CAVEATS,
  int,
  KINDS,
  num,
  passOf,
  pct,
  pooled,
  ratio,
  signed,
  suiteOf,
  verdict,
  vs,
} from './format.ts';
import type { ReadmeFigure } from './format.ts';

/** The ledgerline rows of the README's table: windows and payloads, survival, scores. */
export function ledgerline(s: Summary): ReadmeFigure[] {
  const l = suiteOf(s, 'ledgerline');
  const arms = ['inline', 'final-message', 'full-transcript', 'structured-contract', 'summary'].map((a) =>
    armOf(l, a),
  ) as LedgerArms;
  return [...ledgerlineTokens(arms), ...ledgerlineSurvival(arms), ...ledgerlineScores(arms)];
}

type LedgerArms = [ArmSummary, ArmSummary, ArmSummary, ArmSummary, ArmSummary];

function ledgerlineTokens([, , ft, sc, sum]: LedgerArms): ReadmeFigure[] {
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
  ];
}

function ledgerlineSurvival([, , ft, sc, sum]: LedgerArms): ReadmeFigure[] {
  const over = (a: ArmSummary) =>
    `${ratio(a.overstated.runs, a.overstated.n)} (${pct(a.overstated.runs / a.overstated.n)})`;
  return [
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
  ];
}

function ledgerlineScores([inline, fm, ft, sc]: LedgerArms): ReadmeFigure[] {
  const ftc = (c: string) => vs(ft, c);
  const fmc = vs(fm, 'caveat_carrying');
  const scc = vs(sc, 'caveat_carrying');
  const midPayload = CAVEATS.map((k) => sc.survivalByLocation.payload[k]?.mid_transcript?.rate ?? 0);
  return [
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
