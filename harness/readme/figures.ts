import type { ArmSummary, Summary } from '../../reports/summary/types.ts';
import { armOf, int, latencyDelta, passOf, pct, ratio, signed, suiteOf, verdict, vs } from './format.ts';
import { ledgerline } from './ledgerline-figures.ts';
import { others } from './other-figures.ts';

export { int, num, pct, signed, verdict, type ReadmeFigure } from './format.ts';
import type { ReadmeFigure } from './format.ts';

/**
 * The figures README.md quotes from the default run ("What the default experiment shows"), each
 * computed from a fresh run's report.json. A figure is a template with {slots} and the line of the
 * README it lives on (`anchor`, a text only that line holds); check.ts finds the template on that line,
 * reads what the README says in each slot and compares it with the run.
 *
 * Every figure of the README's default-run section, from the run's summary.
 */
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
