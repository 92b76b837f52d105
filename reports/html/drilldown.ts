import type { ResultRow } from '../../harness/core/index.ts';
import type { SuiteSummary } from '../summary/types.ts';
import { html, type SafeHtml } from './escape.ts';
import { table } from './table.ts';

/**
 * Per-case drill-down: one <details> per case, arms side by side, each showing what the receiver saw
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
  const arms = suite.arms.map((a) => a.arm);
  const all = [...byCase.keys()].sort();
  const cases = all.slice(0, MAX_CASES_SHOWN);
  const more =
    all.length > cases.length
      ? html`<p class="muted">${all.length - cases.length} more cases are in results.jsonl (the page shows the first ${MAX_CASES_SHOWN}).</p>`
      : '';
  return html`<section class="drill"><h3>Per-case drill-down (${all.length} cases)</h3>${cases.map((c) => caseBlock(c, byCase.get(c)!, arms, suite.primaryCriterion))}${more}</section>`;
}

function caseBlock(caseId: string, rows: ResultRow[], arms: string[], primary: string | null): SafeHtml {
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
  return html`<details class="case"><summary><code>${caseId}</code> <span class="glance">${primary ?? ''} ${glance}</span></summary>
<div class="arms" style="grid-template-columns: repeat(${cols.length}, minmax(18rem, 1fr))">${cols.map(
    (arm) =>
      armColumn(
        arm,
        rows.filter((r) => r.arm === arm).sort((a, b) => a.rep - b.rep),
      ),
  )}</div></details>`;
}

function armColumn(arm: string, reps: ResultRow[]): SafeHtml {
  const first = reps[0]!;
  const shown = reps.slice(0, MAX_REPS_SHOWN);
  const more =
    reps.length > shown.length
      ? html`<p class="muted">${reps.length - shown.length} more reps in results.jsonl</p>`
      : '';
  return html`<div class="arm"><h4>${arm} <small>${first.strategy}</small></h4>${shown.map((r, i) => (i === 0 ? cell(r, null) : html`<details><summary>rep ${r.rep}</summary>${cell(r, first)}</details>`))}${more}</div>`;
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
