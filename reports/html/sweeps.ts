import type { SuiteSummary, SweepEstimate, SweepSummary } from '../summary/types.ts';
import * as f from '../format.ts';
import { estimate } from '../markdown-sweeps.ts';
import { html, type SafeHtml } from './escape.ts';
import { table } from './table.ts';
import { columnIntervals, type IntervalPanel } from './svg/intervals.ts';
import { colorAt } from './svg/parts.ts';

/**
 * A suite's parameter responses in report.html: per sweep, one chart for each measure (score, handoff
 * tokens, payload survival) with a panel per swept param — the value along x, the mean and its 95% CI
 * up y — and the numbers in a table.
 */
export function sweepSections(suite: SuiteSummary): SafeHtml[] {
  return (suite.sweeps ?? []).map((s) => {
    const charts = measures.flatMap((m) => {
      const panels = panelsOf(s, m.pick);
      if (!panels.length) return [];
      const title = `${s.base}: ${m.title} by swept value (mean, 95% CI clustered by case)`;
      return [
        html`<figure><figcaption>${title}</figcaption>${columnIntervals({ label: title, panels, valueTitle: m.axis, domain: m.domain })}</figure>`,
      ];
    });
    const rows = s.params.flatMap((p) =>
      p.points.map((v) => [
        p.param,
        v.value,
        String(v.arms.length),
        String(v.cells),
        estimate(v.score, (x) => x.toFixed(2)),
        estimate(v.handoffTokens, (x) => f.int(x)),
        estimate(v.payloadSurvival, (x) => f.pct(x)),
        estimate(v.answerSurvival, (x) => f.pct(x)),
      ]),
    );
    const numbers = table(
      [
        'param',
        'value',
        'arms',
        'cells',
        'score [95% CI]',
        'handoff tokens',
        'survival in payload',
        'in answer',
      ],
      rows,
      new Set([2, 3]),
    );
    return html`<h3>Parameter response: ${s.base} <small>${s.strategy} · ${s.arms.length} swept arms · score ${s.criterion ?? f.dash}</small></h3><div class="charts">${charts}</div>${numbers}`;
  });
}

type Pick = (p: SweepSummary['params'][number]['points'][number]) => SweepEstimate | null;

const measures: { title: string; axis: string; pick: Pick; domain?: [number, number] }[] = [
  { title: 'score', axis: 'score (1–5)', pick: (p) => p.score, domain: [1, 5] },
  { title: 'handoff tokens', axis: 'tokens', pick: (p) => p.handoffTokens },
  { title: 'survival in the payload', axis: 'kept', pick: (p) => p.payloadSurvival, domain: [0, 1] },
];

function panelsOf(s: SweepSummary, pick: Pick): IntervalPanel[] {
  return s.params
    .map((p, i) => ({
      title: p.param,
      items: p.points.flatMap((v) => {
        const e = pick(v);
        return e
          ? [
              {
                label: v.value,
                mid: e.mean,
                lo: e.ci?.[0] ?? e.mean,
                hi: e.ci?.[1] ?? e.mean,
                color: colorAt(i),
              },
            ]
          : [];
      }),
    }))
    .filter((p) => p.items.length);
}
