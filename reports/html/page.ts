import type { ResultRow } from '../../harness/core/index.ts';
import { assertionKinds } from '../../harness/core/index.ts';
import type { ArmSummary, Summary, SuiteSummary } from '../summary/types.ts';
import { canonicalRows } from '../summarize.ts';
import * as f from '../format.ts';
import { html, SafeHtml } from './escape.ts';
import { table, type Cell } from './table.ts';
import {
  armLabel,
  checksTable,
  headlineTable,
  judgeList,
  locationTable,
  scoresTable,
  suiteKinds,
  survivalTable,
  usageTable,
} from './suite-tables.ts';
import { suiteCharts } from './charts.ts';
import { drilldown } from './drilldown.ts';
import { sweepSections } from './sweeps.ts';
import { styles } from './styles.ts';
import { liveArms, liveHeaders, liveNotes, liveRows, liveSimLines } from '../live-section.ts';
import { loaderHash, loaderScript } from './lazy.ts';
import { agreementHeaders, agreementRows, handLabelLine, type HandLabelSummary } from '../hand-labels.ts';
import { naturalOrder } from './natural-order.ts';

/**
 * report.html: one self-contained file. Charts are inline SVG, styles inline; the one script is the
 * drill-down's loader (reports/html/lazy.ts), allowed by its hash. The Content-Security-Policy forbids
 * every fetch and every other script as a second line behind the escaping.
 */
export const contentSecurityPolicy = `default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src ${loaderHash}; base-uri 'none'; form-action 'none'`;

/** The policy of a page without script (compare.html): no script at all. */
export const noScriptPolicy =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'none'; base-uri 'none'; form-action 'none'";

export function renderHtml(s: Summary, input: readonly ResultRow[]): string {
  const { rows } = canonicalRows(input);
  const suites = s.suites.map((suite) => suiteSection(naturalArms(suite), rows));
  const notice = s.simulated
    ? html`<p class="notice"><b>${s.notice}</b> This run used the deterministic <code>sim</code> provider: its numbers show what each strategy renders into a context under documented behavioural rates (harness/providers/sim/rates.ts).</p>${
        s.liveSim
          ? html`<ul class="notice">${liveSimLines(s.liveSim).map((l) => html`<li>${l}</li>`)}</ul>`
          : ''
      }`
    : '';
  const page = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>handoff-eval report — ${s.runId}${s.simulated ? ' (simulated)' : ''}</title>
<style>${styles}</style></head>
<body><header><h1>handoff-eval report — <code>${s.runId}</code></h1>${notice}
<p class="meta">${s.cells} cells (${s.ok} ok, ${s.errors} errors) · receiver ${s.models.receiver.join(', ')} · judge ${s.models.judge.join(', ')} · seed ${s.seed ?? f.dash} · harness ${s.harnessVersion}</p>
<nav>${s.suites.map((x) => html`<a href="#suite-${anchor(x.suite)}">${x.suite}</a> `)}</nav></header>
<main>${suites}${s.handLabels ? handLabelSection(s.handLabels) : ''}</main><script>${new SafeHtml(loaderScript)}</script>
<footer><h2>Method</h2><ul>${Object.entries(s.method).map(([k, v]) => html`<li><b>${k}</b>: ${String(v)}</li>`)}</ul></footer>
</body></html>
`;
  return page.value;
}

/** Arms in natural order (`[n=1]` before `[n=10]`), the baseline first, for every table and chart. */
export function naturalArms(suite: SuiteSummary): SuiteSummary {
  const order = naturalOrder(
    suite.arms.map((a) => a.arm),
    suite.baselineArm,
  );
  return { ...suite, arms: order.map((name) => suite.arms.find((a) => a.arm === name)!) };
}

const anchor = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, '_');
const verdictCell = (v: string | undefined): Cell =>
  v ? { text: v, className: `verdict-${v.replace(/ /g, '-')}` } : f.dash;

export function liveSection(suite: SuiteSummary): SafeHtml | string {
  if (liveArms(suite).length === 0) return '';
  const headers = liveHeaders(suite, true);
  const numeric = new Set(headers.map((_, i) => i).filter((i) => i > 0));
  const notes = liveNotes(suite, armLabel).map((note) => html`<p class="note">${codeSpans(note)}</p>`);
  return html`<h3>Live source (tool loop over each case's world)</h3>${table(headers, liveRows(suite, true, armLabel), numeric)}${notes}`;
}

/** A note's `code` spans as <code>; every piece escaped. */
const codeSpans = (text: string): SafeHtml[] =>
  text.split('`').map((piece, i) => (i % 2 ? html`<code>${piece}</code>` : html`${piece}`));

function suiteSection(suite: SuiteSummary, rows: readonly ResultRow[]): SafeHtml {
  const charts = suiteCharts(suite).map(
    (c) => html`<figure><figcaption>${c.title}</figcaption>${c.svg}</figure>`,
  );
  const kinds = suiteKinds(suite);
  const headline = headlineTable(suite, kinds);
  const scores = scoresTable(suite);
  const comparisons = comparisonSection(suite);
  const usage = usageTable(suite);
  const survival = survivalTable(suite, kinds);
  const byLocation = locationTable(suite);
  const checks = checksTable(suite);
  const judge = judgeList(suite);
  return html`<section class="suite" id="suite-${anchor(suite.suite)}"><h2>${suite.suite} <small>${f.plural(suite.cases, 'case')} × ${f.plural(suite.reps, 'rep')} · baseline ${suite.baselineArm}${suite.baselinePresent ? '' : ' (not in this run)'} · ${f.labels(suite)}</small></h2>
${headline}${liveSection(suite)}<div class="charts">${charts}</div>
<h3>Scores (1–5): mean [95% CI] per arm</h3>${scores}${comparisons}<h3>Tokens, latency, cost</h3>${usage}${kinds.length ? html`<h3>${f.survivalHeading}</h3>${survival}` : ''}${byLocation ? html`<h3>Survival by kind × claim location (payload → answer)</h3>${byLocation}` : ''}${checks ? html`<h3>Deterministic checks (failed / ok cells)</h3>${checks}` : ''}${sweepSections(suite)}<h3>Judge reliability</h3>${judge}
${drilldown(suite, rows)}</section>`;
}

/** Every comparison with the baseline: its family, pairs, means over the pairs, test, verdict, MDE at α/m. */
export function comparisonSection(suite: SuiteSummary): SafeHtml | string {
  const fams = [suite.families.primary, suite.families.secondary].filter((x) => x !== null);
  if (fams.length === 0) return html`<p class="muted">${f.intervalNote.replace(/_/g, '')}</p>`;
  const rows = suite.criteria.flatMap((c) =>
    suite.arms.flatMap((a): Cell[][] => {
      const v = a.scores[c]?.vsBaseline;
      if (!v) return [];
      return [
        [
          v.family.name,
          c,
          armLabel(a),
          f.pairsText(v),
          f.pairedMeans(v),
          f.diffCi(v),
          f.testName(v),
          f.pValue(v.pHolm),
          v.confound
            ? {
                text: `${v.verdict} — ⚠ ${v.confound.short}`,
                className: `verdict-${v.verdict.replace(/ /g, '-')}`,
              }
            : verdictCell(v.verdict),
          f.mde(v),
        ],
      ];
    }),
  );
  const t = table(
    [
      'family',
      'criterion',
      'arm',
      'pairs',
      'means over the pairs (arm vs baseline)',
      'Δ [95% CI]',
      'test',
      'p (Holm)',
      'verdict',
      'MDE (80% power, α/m)',
    ],
    rows,
    new Set([3, 7, 9]),
  );
  return html`<h3>Paired differences vs ${suite.baselineArm}</h3><ul>${fams.map((x) => html`<li><b>${f.familyText(x)}</b></li>`)}</ul>${t}<p class="muted">${f.intervalNote.replace(/_/g, '')}</p>`;
}

/** A person's labels against the classifier, Cohen's κ per stage (reports/hand-labels.ts). */
function handLabelSection(h: HandLabelSummary): SafeHtml {
  const rows = agreementRows(h.agreement);
  return html`<section id="hand-labels"><h2>Hand labels: person vs classifier</h2><p>${handLabelLine(h)}</p>${rows.length ? table(agreementHeaders, rows, new Set([2, 3, 4])) : ''}</section>`;
}
