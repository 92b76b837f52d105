import type { ResultRow } from '../../core/index.ts';
import type { Assertion } from '../../core/index.ts';
import { claimMarks } from '../../compare/marks.ts';
import { html } from '../../../reports/html/escape.ts';
import { table } from '../../../reports/html/table.ts';
import { naturalOrder } from '../../../reports/html/natural-order.ts';
import { caseUrl, cellUrl, page, runUrl } from './layout.ts';

/** `/runs/<id>/cases/<suite>/<case>`: the case's cells, arms side by side in natural order. */
export function casePage(runId: string, suite: string, caseId: string, rows: ResultRow[]): string {
  const arms = naturalOrder(
    rows.map((r) => r.arm),
    rows[0]?.baseline_arm,
  );
  const reps = [...new Set(rows.map((r) => r.rep))].sort((a, b) => a - b);
  const cell = (arm: string, rep: number) => {
    const r = rows.find((x) => x.arm === arm && x.rep === rep);
    if (!r) return html`–`;
    const scores = Object.entries(r.scores)
      .map(([k, v]) => `${k} ${v ?? '–'}`)
      .join(' · ');
    return html`<a class="cell" href="${cellUrl(runId, r.cell_id)}">${r.status === 'error' ? `error (${r.error_code ?? ''})` : scores || 'ok'}</a><br><small>handoff ${r.handoff_tokens} tok</small>`;
  };
  const body = html`<h1>Case <code>${caseId}</code> <small>${suite}</small></h1>
<table class="case"><thead><tr><th>rep</th>${arms.map((a) => html`<th>${a}</th>`)}</tr></thead><tbody>${reps.map(
    (rep) => html`<tr><td>${rep}</td>${arms.map((a) => html`<td>${cell(a, rep)}</td>`)}</tr>`,
  )}</tbody></table>`;
  return page(`${suite}/${caseId}`, body, {
    crumbs: [
      { href: runUrl(runId), text: runId },
      { href: caseUrl(runId, suite, caseId), text: caseId },
    ],
  });
}

/**
 * `/runs/<id>/claims/<assertion-id>`: one claim across every case and arm — per arm and stage how
 * often it was lost, then every cell's marks with a link.
 */
export function claimPage(
  runId: string,
  suite: string,
  assertionId: string,
  rows: ResultRow[],
  statement: Assertion | null,
): string {
  const hits = rows.flatMap((r) =>
    claimMarks(r)
      .filter((c) => c.assertionId === assertionId)
      .map((c) => ({ row: r, c })),
  );
  const stages = [...new Set(hits.flatMap((h) => Object.keys(h.c.stages)))];
  const arms = naturalOrder(
    hits.map((h) => h.row.arm),
    rows[0]?.baseline_arm,
  );
  const summary = arms.map((arm) => {
    const mine = hits.filter((h) => h.row.arm === arm);
    const cases = new Set(mine.map((h) => h.row.case_id)).size;
    return [
      arm,
      ...stages.map((s) => {
        const lost = new Set(
          mine.filter((h) => h.c.stages[s] && h.c.stages[s] !== 'kept').map((h) => h.row.case_id),
        );
        return `lost in ${lost.size} of ${cases} case${cases === 1 ? '' : 's'}`;
      }),
    ];
  });
  const detailRows = hits
    .sort(
      (a, b) =>
        a.row.case_id.localeCompare(b.row.case_id, 'en', { numeric: true }) ||
        arms.indexOf(a.row.arm) - arms.indexOf(b.row.arm) ||
        a.row.rep - b.row.rep,
    )
    .map((h) => [
      h.row.case_id,
      html`<a href="${`${cellUrl(runId, h.row.cell_id)}#claim-${assertionId}`}">${h.row.arm} rep ${h.row.rep}</a>`,
      h.c.kind,
      h.c.location,
      ...stages.map((s) => ({ text: h.c.stages[s] ?? '–', className: `mark-${h.c.stages[s] ?? 'none'}` })),
    ]);
  const body = html`<h1>Claim <code>${assertionId}</code> <small>${suite}</small></h1>
${statement ? html`<p><b>${statement.kind}</b>: ${statement.statement}</p>` : ''}
<p>In ${new Set(hits.map((h) => h.row.case_id)).size} cases, ${hits.length} cells.</p>
<h2>Lost (not kept) per arm</h2>${table(['arm', ...stages], summary)}
<h2>Every cell</h2>${table(['case', 'cell', 'kind', 'location', ...stages], detailRows)}`;
  return page(assertionId, body, { crumbs: [{ href: runUrl(runId), text: runId }] });
}
