import { html } from '../../reports/html/escape.ts';
import { noScriptPolicy } from '../../reports/html/page.ts';
import { styles } from '../../reports/html/styles.ts';
import type { Comparison } from './types.ts';
import { renderCompareBody, type CellLink } from './render.ts';

/** compare.html: self-contained like report.html, no script, the same CSP. */
export function renderCompareHtml(c: Comparison, link: CellLink): string {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${noScriptPolicy}">
<title>handoff-eval compare — ${c.a.id} vs ${c.b.id}</title><style>${styles}</style></head>
<body><main>${renderCompareBody(c, link)}</main></body></html>
`.value;
}
