import type { SuiteSummary, SweepEstimate } from './summary/types.ts';
import * as f from './format.ts';

/** The Markdown parameter-response section of a suite's sweeps (none without swept arms). */
export function sweepSections(
  suite: SuiteSummary,
  cell: (s: string) => string,
  row: (cells: string[]) => string,
): string[] {
  const out: string[] = [];
  for (const s of suite.sweeps ?? []) {
    out.push(
      `### Parameter response: \`${cell(s.base)}\` (${cell(s.strategy)}, ${s.arms.length} swept arms)`,
      '',
      `Each value pools the arms that have it (over the other swept params); means over ok cells with 95% CIs clustered by case. Score: ${cell(s.criterion ?? '–')}; survival: share of labelled assertions kept with their qualifier.`,
      '',
      row([
        'param',
        'value',
        'arms',
        'cells',
        'score [95% CI]',
        'handoff tokens [95% CI]',
        'survival in payload [95% CI]',
        'in answer [95% CI]',
      ]),
      row(['---', '---', '---:', '---:', '---', '---', '---', '---']),
    );
    for (const p of s.params)
      for (const v of p.points)
        out.push(
          row([
            cell(p.param),
            cell(v.value),
            String(v.arms.length),
            String(v.cells),
            estimate(v.score, (x) => x.toFixed(2)),
            estimate(v.handoffTokens, (x) => f.int(x)),
            estimate(v.payloadSurvival, (x) => f.pct(x)),
            estimate(v.answerSurvival, (x) => f.pct(x)),
          ]),
        );
    out.push('');
  }
  return out;
}

/** `mean [lo, hi]` in the given number format. */
export function estimate(e: SweepEstimate | null, fmt: (x: number) => string): string {
  if (!e) return f.dash;
  return e.ci ? `${fmt(e.mean)} [${fmt(e.ci[0])}, ${fmt(e.ci[1])}]` : fmt(e.mean);
}
