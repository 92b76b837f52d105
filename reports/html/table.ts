import { html, type SafeHtml } from './escape.ts';

export type Cell = string | SafeHtml | { text: string | SafeHtml; className?: string };

/** A plain table; `numeric` marks right-aligned columns by index. */
export function table(
  headers: readonly string[],
  rows: readonly Cell[][],
  numeric: ReadonlySet<number> = new Set(),
): SafeHtml {
  const td = (c: Cell, i: number) => {
    const { text, className } =
      typeof c === 'object' && c !== null && 'text' in c ? c : { text: c, className: undefined };
    const cls = [numeric.has(i) ? 'num' : '', className ?? ''].filter(Boolean).join(' ');
    return cls ? html`<td class="${cls}">${text}</td>` : html`<td>${text}</td>`;
  };
  return html`<table><thead><tr>${headers.map((h, i) => html`<th${numeric.has(i) ? html` class="num"` : ''}>${h}</th>`)}</tr></thead><tbody>${rows.map((r) => html`<tr>${r.map(td)}</tr>`)}</tbody></table>`;
}
