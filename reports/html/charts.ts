import { View, parse } from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import type { SuiteSummary } from '../summary/types.ts';
import { assertionKinds } from '../../harness/types.ts';
import { trustedHtml, type SafeHtml } from './escape.ts';

/**
 * Charts as Vega-Lite specs, compiled and rendered to SVG here in Node (vega's headless View), so the
 * HTML report carries finished pictures and no script. Data values are inline; nothing is loaded.
 */

const axisConfig = { config: { font: 'sans-serif', view: { stroke: '#ddd' } } };

export function chartSpecs(suite: SuiteSummary): { title: string; spec: TopLevelSpec }[] {
  const arms = suite.arms.map((a) => a.arm);
  const out: { title: string; spec: TopLevelSpec }[] = [];
  const scores = suite.arms.flatMap((a) => suite.criteria.flatMap((c) => {
    const s = a.scores[c];
    return s?.mean != null ? [{ arm: a.arm, criterion: c, mean: s.mean, lo: s.ci?.[0] ?? s.mean, hi: s.ci?.[1] ?? s.mean }] : [];
  }));
  if (scores.length) {
    out.push({ title: 'Score per criterion: mean and 95% CI (clustered by case)', spec: {
      ...axisConfig, data: { values: scores }, facet: { column: { field: 'criterion', type: 'nominal', sort: suite.criteria, title: null } },
      spec: { width: 150, height: 160, layer: [
        { mark: { type: 'rule', strokeWidth: 2 }, encoding: { x: { field: 'arm', type: 'nominal', sort: arms, title: null }, y: { field: 'lo', type: 'quantitative', scale: { domain: [1, 5] }, title: 'score (1–5)' }, y2: { field: 'hi' }, color: { field: 'arm', type: 'nominal', sort: arms, legend: null } } },
        { mark: { type: 'point', filled: true, size: 60 }, encoding: { x: { field: 'arm', type: 'nominal', sort: arms }, y: { field: 'mean', type: 'quantitative' }, color: { field: 'arm', type: 'nominal', sort: arms, legend: null } } },
      ] },
    } });
  }
  const diffs = suite.arms.flatMap((a) => suite.criteria.flatMap((c) => {
    const v = a.scores[c]?.vsBaseline;
    return v?.diff != null ? [{ arm: a.arm, criterion: c, diff: v.diff, lo: v.ci?.[0] ?? v.diff, hi: v.ci?.[1] ?? v.diff, verdict: v.verdict }] : [];
  }));
  if (diffs.length) {
    out.push({ title: `Paired difference vs ${suite.baselineArm}: 95% CI, verdict after Holm`, spec: {
      ...axisConfig, data: { values: diffs }, facet: { row: { field: 'criterion', type: 'nominal', sort: suite.criteria, title: null } },
      spec: { width: 360, height: { step: 22 }, layer: [
        { mark: 'rule', encoding: { y: { field: 'arm', type: 'nominal', sort: arms, title: null }, x: { field: 'lo', type: 'quantitative', title: 'difference in score' }, x2: { field: 'hi' }, color: verdictColor } },
        { mark: { type: 'point', filled: true, size: 60 }, encoding: { y: { field: 'arm', type: 'nominal', sort: arms }, x: { field: 'diff', type: 'quantitative' }, color: verdictColor } },
        { data: { values: [{ zero: 0 }] }, mark: { type: 'rule', strokeDash: [4, 3], color: '#888' }, encoding: { x: { field: 'zero', type: 'quantitative' } } },
      ] },
    } });
  }
  const windows = suite.arms.flatMap((a) => [
    { arm: a.arm, stage: '1 before', tokens: a.tokens.windowBefore },
    { arm: a.arm, stage: '2 after', tokens: a.tokens.windowAfter },
  ]).filter((d) => d.tokens !== null);
  if (windows.length) {
    out.push({ title: 'Receiver window tokens, before → after the handoff (mean)', spec: {
      ...axisConfig, data: { values: windows }, width: { step: 26 }, height: 180, mark: 'bar',
      encoding: { x: { field: 'arm', type: 'nominal', sort: arms, title: null }, xOffset: { field: 'stage', type: 'nominal' }, y: { field: 'tokens', type: 'quantitative', title: 'tokens' }, color: { field: 'stage', type: 'nominal', title: 'window' } },
    } });
  }
  const survival = suite.arms.flatMap((a) => (['payload', 'answer'] as const).flatMap((stage) => assertionKinds.flatMap((k) => {
    const c = a.survival[stage][k];
    return c?.rate != null ? [{ arm: a.arm, stage, kind: k, rate: c.rate }] : [];
  })));
  if (survival.length) {
    out.push({ title: 'Assertion survival by kind (share kept with its qualifier)', spec: {
      ...axisConfig, data: { values: survival }, facet: { column: { field: 'stage', type: 'nominal', sort: ['payload', 'answer'], title: null } },
      spec: { width: { step: 16 }, height: 160, mark: 'bar', encoding: {
        x: { field: 'kind', type: 'nominal', sort: [...assertionKinds], title: null }, xOffset: { field: 'arm', type: 'nominal', sort: arms },
        y: { field: 'rate', type: 'quantitative', scale: { domain: [0, 1] }, axis: { format: '%' }, title: 'kept' }, color: { field: 'arm', type: 'nominal', sort: arms },
      } },
    } });
  }
  return out;
}

const verdictColor = {
  field: 'verdict', type: 'nominal',
  scale: { domain: ['better', 'within noise', 'worse', 'not enough data'], range: ['#2e7d32', '#757575', '#c62828', '#bdbdbd'] },
} as const;

/** Compile a Vega-Lite spec and render it to an SVG string, headless. */
export async function renderSvg(spec: TopLevelSpec): Promise<SafeHtml> {
  const view = new View(parse(compile(spec).spec), { renderer: 'none' });
  try {
    return trustedHtml(await view.toSVG());
  } finally {
    view.finalize();
  }
}
