import { assertionKinds, type AssertionKind } from '../../harness/core/index.ts';
import type { ArmSummary, SuiteSummary } from '../summary/types.ts';
import * as f from '../format.ts';
import { html, type SafeHtml } from './escape.ts';
import { table, type Cell } from './table.ts';

/** The tables of a suite's section in report.html, one function each (page.ts assembles them). */

export const armLabel = (a: ArmSummary) => `${a.arm}${a.baseline ? ' (baseline)' : ''}`;

/** The assertion kinds some arm of the suite has. */
export const suiteKinds = (suite: SuiteSummary) => f.kindsPresent(suite.arms, assertionKinds);

/** One line per arm: window, latency, the pass rate on the primary criterion, survival, errors. */
export function headlineTable(suite: SuiteSummary, kinds: readonly AssertionKind[]): SafeHtml {
  return table(
    [
      'arm',
      'window before → after',
      '+%',
      'window vs baseline',
      'latency Δ (p50)',
      `score (${suite.primaryCriterion ?? '–'} ≥ 4)`,
      `answer survival (${kinds.join(' · ')})`,
      'overstated runs',
      'errors',
    ],
    suite.arms.map((a) => [
      armLabel(a),
      f.windowBeforeAfter(a),
      f.signedPct(a.tokens.windowGrowthPct),
      a.baseline ? f.dash : f.signedPct(a.tokens.windowAfterVsBaselinePct),
      a.baseline ? f.dash : f.seconds(a.latency.p50DeltaVsBaselineMs, true),
      f.passText(a),
      kinds.map((k) => f.pct(a.survival.answer[k]?.rate ?? null)).join(' · ') || f.dash,
      f.overstatedText(a),
      `${a.errors}/${a.cells}`,
    ]),
    new Set([1, 2, 3, 4, 5, 7, 8]),
  );
}

/** Mean [95% CI] per criterion × arm (a user criterion like a library one). */
export function scoresTable(suite: SuiteSummary): SafeHtml {
  return table(
    ['criterion', 'arm', 'n', 'mean [95% CI]', 'unscored'],
    suite.criteria.flatMap((c) =>
      suite.arms
        .filter((a) => a.scores[c])
        .map((a): Cell[] => {
          const s = a.scores[c]!;
          return [c, armLabel(a), String(s.n), f.meanCi(s), f.unscoredText(s)];
        }),
    ),
    new Set([2, 4]),
  );
}

/** Tokens, latency and cost per arm. */
export function usageTable(suite: SuiteSummary): SafeHtml {
  return table(
    [
      'arm',
      'handoff tokens',
      'vs baseline',
      'source output',
      'window before',
      'window after',
      'latency p50',
      'p95',
      'cost $',
      'judge $',
      'cached calls',
    ],
    suite.arms.map((a) => [armLabel(a), ...f.tokenCells(a)]),
    new Set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]),
  );
}

/** Survival per arm × kind, in the payload and in the answer. */
export function survivalTable(suite: SuiteSummary, kinds: readonly AssertionKind[]): SafeHtml {
  return table(
    ['arm', 'kind', 'in payload', 'in answer', 'overstated in answer'],
    suite.arms.flatMap((a) =>
      kinds.map((k) => [
        armLabel(a),
        k,
        f.survivalText(a.survival.payload[k], a.survival.source),
        f.survivalText(a.survival.answer[k], a.survival.source),
        a.survival.source === 'marks' && a.survival.answer[k]
          ? `${a.survival.answer[k]!.overstated}/${a.survival.answer[k]!.total}`
          : f.dash,
      ]),
    ),
    new Set([2, 3, 4]),
  );
}

/** Survival by kind × claim location, one column per arm; null when no row has a location. */
export function locationTable(suite: SuiteSummary): SafeHtml | null {
  const locRows = f.locationRows(suite.arms);
  if (!locRows.length) return null;
  return table(
    ['kind · location', 'n', ...suite.arms.map(armLabel)],
    locRows.map((r) => [r.label, r.n, ...r.cells]),
    new Set(suite.arms.map((_, i) => i + 1).concat(suite.arms.length + 1)),
  );
}

/** Failed / ok cells per check × arm: every check a row recorded (built-in or the config's), by name; null when none. */
export function checksTable(suite: SuiteSummary): SafeHtml | null {
  const checkNames = [...new Set(suite.arms.flatMap((a) => Object.keys(a.checks)))].sort();
  if (!checkNames.length) return null;
  return table(
    ['arm', ...checkNames.map((n) => f.checkLabel(suite, n))],
    suite.arms.map((a) => [armLabel(a), ...checkNames.map((n) => f.checkText(a.checks[n]))]),
    new Set(checkNames.map((_, i) => i + 1)),
  );
}

/** Judge reliability: unscored judgements, what was not judged for want of labels, samples, agreement. */
export function judgeList(suite: SuiteSummary): SafeHtml {
  const j = suite.judge;
  return html`<ul><li>unscored judgements: ${j.errors} (${Object.entries(j.unscored)
    .map(([c, n]) => `${c} ${n}`)
    .join(', ')})</li>${Object.entries(j.unlabelled).flatMap(([c, reasons]) =>
    Object.entries(reasons).map(
      ([why, n]) => html`<li>not judged for want of labels: ${c} on ${f.plural(n, 'cell')} — ${why}</li>`,
    ),
  )}<li>samples per cell: ${j.samples}</li>${
    j.agreement
      ? Object.entries(j.agreement).map(([c, a]) => html`<li>${c}: ${f.agreementText(a)}</li>`)
      : html`<li class="gap">agreement not reported — ${j.gap}</li>`
  }${j.survival ? html`<li>survival: ${f.survivalAgreementText(j.survival)}</li>` : ''}${f
    .survivalReadingLines(j.reading)
    .map((l) => html`<li>${l}</li>`)}${
    f.notMadeText(j.reading) ? html`<li>${f.notMadeText(j.reading)}</li>` : ''
  }</ul>`;
}
