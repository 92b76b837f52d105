import type { LoadedRun } from '../../compare/load-run.ts';
import { sideOf } from '../../compare/scope.ts';
import { naturalOrder } from '../../../reports/html/natural-order.ts';
import { html } from '../../../reports/html/escape.ts';
import { enc, page, runUrl } from './layout.ts';

export interface RunListItem {
  id: string;
  date: string;
  suites: string[];
  arms: string[];
  models: string[];
  cells: number;
  errors: number;
  cost: number;
  inProgress: boolean;
}

export function listItem(run: LoadedRun): RunListItem {
  const s = sideOf(run);
  return {
    id: run.id,
    date: s.createdAt ?? '',
    suites: naturalOrder(run.rows.map((r) => r.suite)),
    arms: naturalOrder(run.rows.map((r) => r.arm)),
    models: [...new Set([...s.models.source, ...s.models.receiver, ...s.models.judge])],
    cells: s.cells,
    errors: s.errors,
    cost: s.costUsd,
    inProgress: s.inProgress,
  };
}

const sorts: Record<string, (a: RunListItem, b: RunListItem) => number> = {
  date: (a, b) => a.date.localeCompare(b.date) || a.id.localeCompare(b.id),
  id: (a, b) => a.id.localeCompare(b.id),
  cells: (a, b) => a.cells - b.cells,
  errors: (a, b) => a.errors - b.errors,
  cost: (a, b) => a.cost - b.cost,
};

/** `/`: every run, filtered by a text (`q`: id, suite, arm, model) and sorted by a column, newest first by default. */
export function runListPage(items: RunListItem[], q: string, sort: string, dir: string): string {
  const needle = q.trim().toLowerCase();
  const shown = items.filter(
    (i) =>
      !needle || [i.id, ...i.suites, ...i.arms, ...i.models].some((x) => x.toLowerCase().includes(needle)),
  );
  const key = sorts[sort] ? sort : 'date';
  const asc = dir === 'asc';
  shown.sort((a, b) => (asc ? 1 : -1) * sorts[key]!(a, b));
  const head = (k: string, label: string) =>
    html`<a href="${`/?q=${enc(q)}&sort=${k}&dir=${key === k && !asc ? 'asc' : 'desc'}`}">${label}${key === k ? (asc ? ' ▲' : ' ▼') : ''}</a>`;
  const rows = shown.map((i) => [
    i.date,
    html`<a class="run" href="${runUrl(i.id)}">${i.id}</a>${i.inProgress ? html` <span class="running">in progress</span>` : ''}`,
    i.suites.join(', '),
    `${i.arms.length}: ${i.arms.join(', ')}`,
    i.models.join(', '),
    String(i.cells),
    String(i.errors),
    `$${i.cost.toFixed(4)}`,
  ]);
  const options = items.map((i) => html`<option value="${i.id}">${i.id}</option>`);
  const body = html`<h1>Runs (${shown.length} of ${items.length})</h1>
<form method="get" action="/"><input type="search" name="q" value="${q}" placeholder="filter: id, suite, arm, model"> <input type="hidden" name="sort" value="${key}"><button>filter</button></form>
<table class="runs"><thead><tr><th>${head('date', 'date')}</th><th>${head('id', 'run')}</th><th>suites</th><th>arms</th><th>models</th><th class="num">${head('cells', 'cells')}</th><th class="num">${head('errors', 'errors')}</th><th class="num">${head('cost', 'cost')}</th></tr></thead>
<tbody>${rows.map((r) => html`<tr>${r.map((c, i) => (i >= 5 ? html`<td class="num">${c}</td>` : html`<td>${c}</td>`))}</tr>`)}</tbody></table>
<h2>Compare two runs</h2><form method="get" action="/compare">A <select name="a">${options}</select> B <select name="b">${options}</select> <button>compare</button></form>`;
  return page('runs', body, { refresh: items.some((i) => i.inProgress) ? 5 : undefined });
}
