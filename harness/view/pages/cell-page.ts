import type { Assertion, ResultRow } from '../../core/index.ts';
import { claimMarks, MARKS, type ClaimMarks } from '../../compare/marks.ts';
import { markKey, reviewKey, type HandLabels } from '../labels.ts';
import type { CaseInfo } from '../store.ts';
import { html, type SafeHtml } from '../../../reports/html/escape.ts';
import { naturalOrder } from '../../../reports/html/natural-order.ts';
import { highlight, type Matcher } from './highlight.ts';
import { splitSeen } from './handed-over.ts';
import { caseUrl, cellUrl, claimUrl, page, runUrl } from './layout.ts';

export interface CellPageInput {
  runId: string;
  row: ResultRow;
  /** Every row of the same case (all arms and reps): the estimate of the shared history uses them. */
  caseRows: ResultRow[];
  info: CaseInfo | null;
  labels: HandLabels;
  /** Shown once after a saved mark or review. */
  saved?: string;
}

/**
 * `/runs/<id>/cells/<cell-id>`: the handed-over part first, then the answer, each criterion's score and
 * rationale, and each labelled claim's mark per stage with the matching text highlighted in both.
 */
export function cellPage(input: CellPageInput): string {
  const { runId, row, caseRows, info } = input;
  const d = row.detail;
  const claims = claimMarks(row);
  const assertion = (id: string) => info?.assertions.get(id);
  const matchers = (stage: string): Matcher[] =>
    claims.map((c) => ({
      id: c.assertionId,
      cues: assertion(c.assertionId)?.cues ?? [],
      quotes: c.quotes[stage] ?? [],
    }));
  const head = html`<h1>Cell <code>${row.cell_id}</code></h1>${input.saved ? html`<p class="running">${input.saved}</p>` : ''}
<p class="meta">${row.status}${row.error ? html` · <span class="err">${row.error_code ?? ''}: ${row.error}</span>` : ''} · arm ${row.arm} (${row.strategy}) · rep ${row.rep} · handoff ${row.handoff_tokens} tok · window ${row.receiver_window_tokens_before} → ${row.receiver_window_tokens_after} · <a href="${caseUrl(runId, row.suite, row.case_id)}">case ${row.case_id}</a></p>
<p>Other arms: ${siblings(runId, row, caseRows)}</p>`;
  if (!d)
    return page(
      row.cell_id,
      html`${head}<p class="muted">No detail in this row (an error cell).</p>`,
      crumbs(runId, row),
    );
  const parts = splitSeen(
    d.seen,
    info ? info.historyText : null,
    caseRows.filter((r) => r.rep === row.rep && r.detail).map((r) => r.detail!.seen),
  );
  const payload = highlight(parts.handed, matchers('payload'), 'payload');
  const answer = highlight(d.answer, matchers('answer'), 'answer');
  const how = {
    exact: 'the part after the receiver’s own history',
    estimated:
      'estimated: the part that differs from the other arms of this case (the cases folder was not available)',
    none: 'the whole view: no shared history to set apart',
  }[parts.how];
  const body = html`${head}
<h2>What was handed over</h2><p class="muted">${how}</p><pre class="seen handed">${payload.body}</pre>
<h2>Answer</h2><pre class="answer">${answer.body}</pre>
<h2>Scores</h2>${d.judge.map(
    (j) =>
      html`<div class="judge"><b>${j.criterion}</b>: <span class="score">${j.score ?? 'unscored'}</span>${j.unscored ? html` <small>${j.unscored}</small>` : ''}${j.error ? html` <span class="err">${j.error}</span>` : ''}<div class="rationale">${j.rationale}</div>${j.evidence.length ? html`<ul class="evidence">${j.evidence.map((e) => html`<li>${e}</li>`)}</ul>` : ''}</div>`,
  )}
<h2>Labelled claims (${claims.length})</h2>${claimsTable(input, claims, assertion, { payload: payload.found, answer: answer.found })}
${parts.history ? html`<details><summary>The receiver’s own history (the same in every arm)</summary><pre class="seen">${parts.history}</pre></details>` : ''}
<details><summary>System framing</summary><pre>${d.system}</pre></details>
${d.artifacts && Object.keys(d.artifacts).length ? html`<details><summary>Artifacts</summary><pre>${JSON.stringify(d.artifacts, null, 2)}</pre></details>` : ''}`;
  return page(row.cell_id, body, crumbs(runId, row));
}

function crumbs(runId: string, row: ResultRow) {
  return {
    crumbs: [
      { href: runUrl(runId), text: runId },
      { href: caseUrl(runId, row.suite, row.case_id), text: row.case_id },
      { href: cellUrl(runId, row.cell_id), text: `${row.arm} rep ${row.rep}` },
    ],
  };
}

function siblings(runId: string, row: ResultRow, caseRows: ResultRow[]): SafeHtml {
  const same = caseRows.filter((r) => r.rep === row.rep && r.cell_id !== row.cell_id);
  const order = naturalOrder(
    same.map((r) => r.arm),
    row.baseline_arm,
  );
  return html`${order.map((arm) => {
    const r = same.find((x) => x.arm === arm)!;
    return html`<a href="${cellUrl(runId, r.cell_id)}">${arm}</a> `;
  })}`;
}

function claimsTable(
  input: CellPageInput,
  claims: ClaimMarks[],
  assertion: (id: string) => Assertion | undefined,
  found: Record<string, Set<string>>,
): SafeHtml {
  if (claims.length === 0) return html`<p class="muted">No labelled claims in this cell.</p>`;
  const stages = [...new Set(claims.flatMap((c) => Object.keys(c.stages)))];
  const { runId, row, labels } = input;
  const markCell = (c: ClaimMarks, stage: string) => {
    const mark = c.stages[stage] ?? '–';
    const hl = found[stage]?.has(c.assertionId);
    const others = Object.entries(c.opinions)
      .filter(([k]) => k.endsWith(`.${stage}`))
      .map(([k, v]) => `${k.split('.')[0]}: ${v ?? 'could not classify'}`);
    const hand = labels.marks.get(markKey(row.cell_id, c.assertionId, stage));
    return html`<td class="${`mark-${mark}`}">${hl ? html`<a href="${`#hl-${stage}-${c.assertionId}`}">${mark}</a>` : mark}${others.length ? html`<br><small>${others.join(' · ')}</small>` : ''}${hand ? html`<br><span class="hand">person: ${hand.mark}</span>` : ''}
<form class="inline" method="post" action="${`${runUrl(runId)}/marks`}"><input type="hidden" name="cell" value="${row.cell_id}"><input type="hidden" name="assertion" value="${c.assertionId}"><input type="hidden" name="stage" value="${stage}"><select name="mark" aria-label="${`hand mark ${c.assertionId} ${stage}`}">${MARKS.map((m) => html`<option${m === (hand?.mark ?? mark) ? html` selected` : ''}>${m}</option>`)}</select><button name="save" value="mark">mark</button></form></td>`;
  };
  const labelCell = (c: ClaimMarks) => {
    const a = assertion(c.assertionId);
    const review = labels.reviews.get(reviewKey(row.suite, row.case_id, c.assertionId));
    const status = review ? `${review.decision}ed by a person` : (a?.status ?? (a ? 'confirmed' : 'unknown'));
    const form = (decision: string) =>
      html`<form class="inline" method="post" action="${`${runUrl(runId)}/labels`}"><input type="hidden" name="cell" value="${row.cell_id}"><input type="hidden" name="assertion" value="${c.assertionId}"><button name="decision" value="${decision}">${decision}</button></form>`;
    return html`<td>${status}${a?.status === 'proposed' || review ? html`<br>${form('confirm')} ${form('reject')}` : ''}</td>`;
  };
  return html`<table class="claims"><thead><tr><th>claim</th><th>kind</th><th>location</th><th>statement</th>${stages.map((s) => html`<th>${s}</th>`)}<th>label</th></tr></thead><tbody>${claims.map(
    (c) =>
      html`<tr id="${`claim-${c.assertionId}`}"><td><a href="${claimUrl(runId, row.suite, c.assertionId)}">${c.assertionId}</a></td><td>${c.kind}</td><td>${c.location}</td><td class="wrap">${assertion(c.assertionId)?.statement ?? '–'}</td>${stages.map((s) => markCell(c, s))}${labelCell(c)}</tr>`,
  )}</tbody></table>`;
}
