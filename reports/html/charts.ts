import type { SuiteSummary } from '../summary/types.ts';
import { assertionKinds } from '../../harness/core/index.ts';
import type { SafeHtml } from './escape.ts';
import { groupedBars } from './svg/bars.ts';
import { columnIntervals, rowIntervals } from './svg/intervals.ts';
import { colorAt } from './svg/parts.ts';

/**
 * A suite's charts as inline SVG drawn here (reports/html/svg/: scales, axes, bars, intervals), so the
 * HTML report carries finished pictures, no script and no charting dependency. Every label goes
 * through the escaping html`` template (arm names and criteria are untrusted text).
 */
type Chart = { title: string; svg: SafeHtml };

export function suiteCharts(suite: SuiteSummary): Chart[] {
  return [scoreChart(suite), differenceChart(suite), windowChart(suite), survivalChart(suite)].filter(
    (c): c is Chart => c !== undefined,
  );
}

/** Mean and CI per criterion × arm, one panel per criterion. */
function scoreChart(suite: SuiteSummary): Chart | undefined {
  const arms = suite.arms.map((a) => a.arm);
  const armColor = (arm: string) => colorAt(arms.indexOf(arm));
  const scorePanels = suite.criteria
    .map((c) => ({
      title: c,
      items: suite.arms.flatMap((a) => {
        const s = a.scores[c];
        return s?.mean != null
          ? [
              {
                label: a.arm,
                mid: s.mean,
                lo: s.ci?.[0] ?? s.mean,
                hi: s.ci?.[1] ?? s.mean,
                color: armColor(a.arm),
              },
            ]
          : [];
      }),
    }))
    .filter((p) => p.items.length);
  if (!scorePanels.length) return undefined;
  const title = 'Score per criterion: mean and 95% CI (clustered by case)';
  return {
    title,
    svg: columnIntervals({ label: title, panels: scorePanels, valueTitle: 'score (1–5)', domain: [1, 5] }),
  };
}

/** The paired difference vs the baseline per criterion × arm, coloured by verdict. */
function differenceChart(suite: SuiteSummary): Chart | undefined {
  const diffPanels = suite.criteria
    .map((c) => ({
      title: c,
      items: suite.arms.flatMap((a) => {
        const v = a.scores[c]?.vsBaseline;
        return v?.diff != null
          ? [
              {
                label: a.arm,
                mid: v.diff,
                lo: v.ci?.[0] ?? v.diff,
                hi: v.ci?.[1] ?? v.diff,
                color: verdictColors[v.verdict] ?? verdictColors['not enough data']!,
              },
            ]
          : [];
      }),
    }))
    .filter((p) => p.items.length);
  if (!diffPanels.length) return undefined;
  const title = `Paired difference vs ${suite.baselineArm}: 95% CI, verdict after Holm`;
  const entries = Object.entries(verdictColors).map(([name, color]) => ({ name, color }));
  return {
    title,
    svg: rowIntervals({
      label: title,
      panels: diffPanels,
      valueTitle: 'difference in score',
      zeroLine: true,
      legend: { title: 'verdict', entries },
    }),
  };
}

/** The receiver's window before and after the handoff, per arm. */
function windowChart(suite: SuiteSummary): Chart | undefined {
  const windows = suite.arms.map((a) => ({
    label: a.arm,
    values: [a.tokens.windowBefore, a.tokens.windowAfter],
  }));
  if (!windows.some((g) => g.values.some((v) => v !== null))) return undefined;
  const title = 'Receiver window tokens, before → after the handoff (mean)';
  return {
    title,
    svg: groupedBars({
      label: title,
      panels: [{ title: null, groups: windows }],
      series: ['before', 'after'],
      legendTitle: 'window',
      yTitle: 'tokens',
      format: 'number',
    }),
  };
}

/** Survival by assertion kind at both stages, one bar per arm. */
function survivalChart(suite: SuiteSummary): Chart | undefined {
  const kinds = assertionKinds.filter((k) =>
    suite.arms.some((a) => a.survival.payload[k]?.rate != null || a.survival.answer[k]?.rate != null),
  );
  if (!kinds.length) return undefined;
  const title = 'Assertion survival by kind (share kept with its qualifier)';
  const panels = (['payload', 'answer'] as const).map((stage) => ({
    title: stage,
    groups: kinds.map((k) => ({
      label: k,
      values: suite.arms.map((a) => a.survival[stage][k]?.rate ?? null),
    })),
  }));
  return {
    title,
    svg: groupedBars({
      label: title,
      panels,
      series: suite.arms.map((a) => a.arm),
      legendTitle: 'arm',
      yTitle: 'kept',
      format: 'percent',
      yDomain: [0, 1],
    }),
  };
}

const verdictColors: Record<string, string> = {
  better: '#2e7d32',
  'within noise': '#757575',
  worse: '#c62828',
  'not enough data': '#bdbdbd',
};
