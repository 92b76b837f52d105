import type { ResultRow } from '../../harness/core/index.ts';
import type { SuiteSummary } from '../summary/types.ts';
import { html, type SafeHtml } from './escape.ts';
import { table } from './table.ts';
import { naturalCompare, naturalOrder } from './natural-order.ts';
import { packCase } from './lazy.ts';

/**
 * Per-case drill-down: one <details> per case (anchor `case:<suite>/<case>`), its body compressed into
 * the page and rendered when opened (reports/html/lazy.ts), arms side by side in natural order, each showing what the receiver saw
 * (system + messages), its answer, every criterion's score with the judge's rationale and evidence,
 * and the survival mark of every labelled assertion at both stages. Every string here comes from a
 * model or a transcript and goes through html`` escaping.
 */
/** The page stays openable for huge runs; results.jsonl keeps everything. */
export const MAX_CASES_SHOWN = 300;
export const MAX_REPS_SHOWN = 5;

export function drilldown(suite: SuiteSummary, rows: readonly ResultRow[]): SafeHtml {
  const byCase = new Map<string, ResultRow[]>();
  for (const r of rows) {
    if (r.suite !== suite.suite) continue;
    const g = byCase.get(r.case_id);
    if (g) g.push(r);
    else byCase.set(r.case_id, [r]);
  }
  const arms = naturalOrder(
    suite.arms.map((a) => a.arm),
    suite.baselineArm,
  );
  const all = [...byCase.keys()].sort(naturalCompare);
  const cases = all.slice(0, MAX_CASES_SHOWN);
  const more =
    all.length > cases.length
      ? html`<p class="muted">${all.length - cases.length} more cases are in results.jsonl (the page shows the first ${MAX_CASES_SHOWN}).</p>`
      : '';
  return html`<section class="drill"><h3>Per-case drill-down (${all.length} cases)</h3><noscript><p class="muted">Each case opens with JavaScript (its cells are stored compressed in this file); results.jsonl has every cell.</p></noscript>${cases.map((c) => caseBlock(suite.suite, c, byCase.get(c)!, arms, suite.primaryCriterion))}${more}</section>`;
}

/** The anchor of a case in report.html; a cell's is `cellAnchor` (harness/compare/render.ts). */
export const caseId = (suite: string, caseName: string) => `case:${suite}/${caseName}`.replace(/\s/g, '_');
const cellId = (cell: string) => `cell:${cell.replace(/\s/g, '_')}`;

function caseBlock(
  suite: string,
  caseName: string,
  rows: ResultRow[],
  arms: string[],
  primary: string | null,
): SafeHtml {
  const glance = arms
    .map((arm) => {
      const scores = rows
        .filter((r) => r.arm === arm)
        .map((r) =>
          r.status === 'error' ? 'error' : primary ? String(r.scores[primary] ?? 'unscored') : 'ok',
        );
      return `${arm} ${scores.join('/')}`;
    })
    .join(' · ');
  const cols = arms.filter((a) => rows.some((r) => r.arm === a));
  const body = html`<div class="arms" style="grid-template-columns: repeat(${cols.length}, minmax(0, 1fr))">${cols.map(
    (arm) =>
      armColumn(
        arm,
        rows.filter((r) => r.arm === arm).sort((a, b) => a.rep - b.rep),
      ),
  )}</div>`;
  return html`<details class="case" id="${caseId(suite, caseName)}" data-z="${packCase(body.value)}"><summary><code>${caseName}</code> <span class="glance">${primary ?? ''} ${glance}</span></summary><div class="lazy"></div></details>`;
}

function armColumn(arm: string, reps: ResultRow[]): SafeHtml {
  const first = reps[0]!;
  const shown = reps.slice(0, MAX_REPS_SHOWN);
  const more =
    reps.length > shown.length
      ? html`<p class="muted">${reps.length - shown.length} more reps in results.jsonl</p>`
      : '';
  return html`<div class="arm"><h4>${arm} <small>${first.strategy}</small></h4>${shown.map((r, i) => (i === 0 ? html`<div class="cell" id="${cellId(r.cell_id)}">${cell(r, null)}</div>` : html`<details id="${cellId(r.cell_id)}"><summary>rep ${r.rep}</summary>${cell(r, first)}</details>`))}${more}</div>`;
}

function cell(r: ResultRow, rep0: ResultRow | null): SafeHtml {
  const d = r.detail;
  const head = html`<p class="meta">rep ${r.rep} · ${r.status}${r.error ? html` · <span class="err">${r.error_code ?? ''}: ${r.error}</span>` : ''} · handoff ${r.handoff_tokens} tok · window ${r.receiver_window_tokens_before} → ${r.receiver_window_tokens_after}</p>`;
  if (!d) return html`${head}<p class="muted">no detail in this row</p>`;
  const sameSeen = rep0?.detail && rep0.detail.seen === d.seen && rep0.detail.system === d.system;
  const judge = d.judge.map(
    (j) =>
      html`<div class="judge"><b>${j.criterion}</b>: <span class="score">${j.score ?? 'unscored'}</span>${j.samples.length > 1 ? html` <small>samples ${j.samples.map((s) => s ?? '∅').join(', ')}</small>` : ''}${j.error ? html` <span class="err">${j.error}</span>` : ''}<div class="rationale">${j.rationale}</div>${j.evidence.length ? html`<ul class="evidence">${j.evidence.map((e) => html`<li>${e}</li>`)}</ul>` : ''}</div>`,
  );
  const marks = d.survival.length
    ? table(
        ['assertion', 'kind', 'payload', 'answer', 'cues (first opinion)'],
        d.survival.map((s) => [
          s.assertionId,
          s.kind,
          { text: s.payload ?? 'unscored', className: `mark-${s.payload ?? 'unscored'}` },
          { text: s.answer ?? 'unscored', className: `mark-${s.answer ?? 'unscored'}` },
          s.cues ? `${s.cues.payload} / ${s.cues.answer}` : s.decidedBy === 'cues' ? 'decided' : '—',
        ]),
      )
    : html`<p class="muted">no labelled assertions</p>`;
  const artifacts =
    d.artifacts && Object.keys(d.artifacts).length
      ? html`<details><summary>artifacts</summary><pre>${JSON.stringify(d.artifacts, null, 2)}</pre></details>`
      : '';
  return html`${head}
<h5>What the receiver saw</h5>${sameSeen ? html`<p class="muted">same as rep ${rep0!.rep}</p>` : html`<details><summary>system</summary><pre>${d.system}</pre></details><pre class="seen">${d.seen}</pre>`}
<h5>Answer</h5><pre class="answer">${d.answer}</pre>
<h5>Judge</h5>${judge}
<h5>Survival marks</h5>${marks}${artifacts}`;
}
