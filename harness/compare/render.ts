import { html, type SafeHtml } from '../../reports/html/escape.ts';
import { table } from '../../reports/html/table.ts';
import type { Comparison, FlippedCell } from './types.ts';
import {
  HEADER_COLUMNS,
  diffTable,
  headerLines,
  survivalTable,
  usageTable,
  type TextTable,
} from './tables.ts';

/** Where a flipped cell links to: the viewer's permalink, or a report.html anchor beside the files. */
export type CellLink = (side: 'a' | 'b', runId: string, cellId: string) => string;

/** The anchor report.html gives a cell (HTML5 ids may hold any character but whitespace). */
export const cellAnchor = (cellId: string) => `cell:${cellId.replace(/\s/g, '_')}`;
export const caseAnchor = (suite: string, caseId: string) => `case:${suite}/${caseId}`.replace(/\s/g, '_');

export function renderCompareJson(c: Comparison): string {
  return `${JSON.stringify(c, null, 2)}\n`;
}

const mdCell = (s: string) => s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
const mdTable = (t: TextTable) =>
  [
    `### ${t.title}`,
    '',
    `| ${t.headers.join(' | ')} |`,
    `| ${t.headers.map((_, i) => (t.numeric.includes(i) ? '---:' : '---')).join(' | ')} |`,
    ...t.rows.map((r) => `| ${r.map(mdCell).join(' | ')} |`),
    '',
  ].join('\n');

export function renderCompareMd(c: Comparison, link: CellLink): string {
  const out = [
    `# handoff-eval compare — A \`${c.a.id}\` vs B \`${c.b.id}\``,
    '',
    `| ${HEADER_COLUMNS.join(' | ')} |`,
    `| ${HEADER_COLUMNS.map(() => '---').join(' | ')} |`,
    ...headerLines(c).map((r) => `| ${r.map(mdCell).join(' | ')} |`),
    '',
    c.scope.sameExperiment
      ? `Same experiment: ${c.scope.pairedCells} cells paired.`
      : `**Not the same experiment — compared only on what they share.**`,
    '',
    ...c.scope.notes.map((n) => `- ${n}`),
    '',
    `Method: ${c.family}.`,
    '',
  ];
  for (const s of c.suites) {
    out.push(`## ${s.suite}`, '', mdTable(diffTable(s)), mdTable(survivalTable(s)), mdTable(usageTable(s)));
    out.push(
      `### Cells that flipped pass ↔ fail (${s.primary ?? 'no primary criterion'} ≥ 4 passes): ${s.flipped.length}`,
      '',
    );
    for (const x of s.flipped)
      out.push(
        `- ${x.direction} \`${mdCell(x.cellId)}\`: A ${x.a} → B ${x.b} ([A](${link('a', c.a.id, x.cellId)}), [B](${link('b', c.b.id, x.cellId)}))`,
      );
    out.push('');
  }
  return out.join('\n');
}

const htmlTable = (t: TextTable): SafeHtml =>
  html`<h3>${t.title}</h3>${table(t.headers, t.rows, new Set(t.numeric))}`;

/** The comparison's body, shared by `compare --format html` and the viewer's /compare page. */
export function renderCompareBody(c: Comparison, link: CellLink): SafeHtml {
  const flipped = (suite: string, list: FlippedCell[]) =>
    list.length
      ? html`<ul class="flipped">${list.map(
          (x) =>
            html`<li><span class="${x.direction === 'pass→fail' ? 'verdict-worse' : 'verdict-better'}">${x.direction}</span> <code>${x.cellId}</code>: A ${x.a} → B ${x.b} (<a href="${link('a', c.a.id, x.cellId)}">A</a>, <a href="${link('b', c.b.id, x.cellId)}">B</a>)</li>`,
        )}</ul>`
      : html`<p class="muted">No cell of ${suite} flipped.</p>`;
  return html`<h1>Compare A <code>${c.a.id}</code> vs B <code>${c.b.id}</code></h1>
${table(HEADER_COLUMNS, headerLines(c))}
<p class="${c.scope.sameExperiment ? 'meta' : 'notice'}"><b>${c.scope.sameExperiment ? `Same experiment: ${c.scope.pairedCells} cells paired.` : 'Not the same experiment — compared only on what they share.'}</b></p>
${c.scope.notes.length ? html`<ul class="scope">${c.scope.notes.map((n) => html`<li>${n}</li>`)}</ul>` : ''}
<p class="muted">Method: ${c.family}.</p>
${c.suites.map(
  (s) =>
    html`<section class="suite"><h2>${s.suite}</h2>${htmlTable(diffTable(s))}${htmlTable(survivalTable(s))}${htmlTable(usageTable(s))}<h3>Cells that flipped pass ↔ fail (${s.primary ?? 'no primary criterion'} ≥ 4 passes): ${s.flipped.length}</h3>${flipped(s.suite, s.flipped)}</section>`,
)}`;
}
