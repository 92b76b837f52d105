import type { ResultRow } from '../../core/index.ts';
import type { LoadedRun } from '../../compare/load-run.ts';
import { claimMarks } from '../../compare/marks.ts';
import { agreementHeaders, agreementRows, type StageAgreement } from '../labels.ts';
import { summarize } from '../../../reports/summarize.ts';
import type { SuiteSummary } from '../../../reports/summary/types.ts';
import * as f from '../../../reports/format.ts';
import { html, type SafeHtml } from '../../../reports/html/escape.ts';
import { table } from '../../../reports/html/table.ts';
import { naturalOrder } from '../../../reports/html/natural-order.ts';
import { comparisonSection, liveSection, naturalArms } from '../../../reports/html/page.ts';
import {
  headlineTable,
  locationTable,
  scoresTable,
  suiteKinds,
  survivalTable,
  usageTable,
} from '../../../reports/html/suite-tables.ts';
import { caseUrl, cellUrl, claimUrl, page, runUrl } from './layout.ts';

/** The hand-label agreement table: person vs each classifier opinion, Cohen's κ per stage. */
export function agreementTable(rows: StageAgreement[], handMarks: number): SafeHtml {
  if (handMarks === 0)
    return html`<p class="muted">No hand marks yet: mark a claim's survival on any cell page; agreement with the classifier (Cohen's κ per stage) appears here.</p>`;
  return html`<p>${handMarks} hand mark${handMarks === 1 ? '' : 's'} (hand-labels.jsonl beside the run).</p>${table(agreementHeaders, agreementRows(rows), new Set([2, 3, 4]))}`;
}

/** `/runs/<id>`: the run's tables, every case with a link to each of its cells, every claim. */
export function runPage(run: LoadedRun, agreement: StageAgreement[], handMarks: number): string {
  const s = summarize(run.rows);
  const banner = run.inProgress
    ? html`<p class="running">This run is in progress: ${run.rows.length} cells journalled so far. The page refreshes every 5 s.</p>`
    : '';
  const body = html`<h1>Run <code>${run.id}</code></h1>${banner}
<p class="meta">${s.cells} cells (${s.ok} ok, ${s.errors} errors) · receiver ${s.models.receiver.join(', ')} · judge ${s.models.judge.join(', ')} · seed ${s.seed ?? f.dash} · harness ${s.harnessVersion} · <a href="${`${runUrl(run.id)}/report.html`}">report.html</a></p>
${s.simulated ? html`<p class="notice"><b>${s.notice}</b></p>` : ''}
<h2>Hand labels: person vs classifier</h2>${agreementTable(agreement, handMarks)}
${s.suites.map((suite) =>
  suiteBlock(
    run,
    naturalArms(suite),
    run.rows.filter((r) => r.suite === suite.suite),
  ),
)}`;
  return page(run.id, body, {
    refresh: run.inProgress ? 5 : undefined,
    crumbs: [{ href: runUrl(run.id), text: run.id }],
  });
}

function suiteBlock(run: LoadedRun, suite: SuiteSummary, rows: ResultRow[]): SafeHtml {
  const kinds = suiteKinds(suite);
  const loc = locationTable(suite);
  return html`<section class="suite" id="${`suite:${suite.suite}`}"><h2>${suite.suite} <small>${f.plural(suite.cases, 'case')} × ${f.plural(suite.reps, 'rep')} · baseline ${suite.baselineArm}</small></h2>
${headlineTable(suite, kinds)}${liveSection(suite)}<h3>Scores (1–5): mean [95% CI] per arm</h3>${scoresTable(suite)}${comparisonSection(suite)}
<h3>Tokens, latency, cost</h3>${usageTable(suite)}${kinds.length ? html`<h3>${f.survivalHeading}</h3>${survivalTable(suite, kinds)}` : ''}${loc ? html`<h3>Survival by kind × claim location</h3>${loc}` : ''}
${casesTable(run, suite, rows)}${claimsList(run, suite.suite, rows)}</section>`;
}

function casesTable(run: LoadedRun, suite: SuiteSummary, rows: ResultRow[]): SafeHtml {
  const arms = naturalOrder(
    rows.map((r) => r.arm),
    suite.baselineArm,
  );
  const cases = naturalOrder(rows.map((r) => r.case_id));
  const primary = suite.primaryCriterion;
  const cellLinks = (caseId: string, arm: string) =>
    rows
      .filter((r) => r.case_id === caseId && r.arm === arm)
      .sort((a, b) => a.rep - b.rep)
      .map(
        (r) =>
          html`<a href="${cellUrl(run.id, r.cell_id)}">${r.status === 'error' ? 'error' : primary ? String(r.scores[primary] ?? 'unscored') : 'ok'}</a> `,
      );
  return html`<h3>Cases (${cases.length}) — ${primary ?? 'status'} per cell, each a link</h3><table class="cases"><thead><tr><th>case</th>${arms.map((a) => html`<th>${a}</th>`)}</tr></thead><tbody>${cases.map(
    (c) =>
      html`<tr><td><a href="${caseUrl(run.id, suite.suite, c)}">${c}</a></td>${arms.map((a) => html`<td>${cellLinks(c, a)}</td>`)}</tr>`,
  )}</tbody></table>`;
}

function claimsList(run: LoadedRun, suite: string, rows: ResultRow[]): SafeHtml {
  const counts = new Map<string, number>();
  for (const r of rows)
    for (const c of claimMarks(r)) counts.set(c.assertionId, (counts.get(c.assertionId) ?? 0) + 1);
  if (counts.size === 0) return html``;
  return html`<h3>Claims (${counts.size}) — each across every case and arm</h3><p>${naturalOrder(
    counts.keys(),
  ).map(
    (id) =>
      html`<a class="claim" href="${claimUrl(run.id, suite, id)}">${id}</a> <small>(${counts.get(id)})</small> · `,
  )}</p>`;
}
