import { html, type SafeHtml } from '../../../reports/html/escape.ts';
import { styles } from '../../../reports/html/styles.ts';

/**
 * The viewer's pages: server-rendered HTML with no script at all. Forms post to the viewer itself;
 * the policy (also sent as a header) forbids every script, frame and fetch elsewhere, a second line
 * behind the escaping of every run-provided string.
 */
export const viewerPolicy =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'none'; form-action 'self'; base-uri 'none'";
/** The header adds what a <meta> policy cannot carry: no page of the viewer inside another site's frame. */
export const viewerPolicyHeader = `${viewerPolicy}; frame-ancestors 'none'`;

const viewStyles = `
nav.top { display: flex; gap: 1rem; align-items: baseline; border-bottom: 1px solid #ddd; padding-bottom: .4rem; }
.handed { border-left: 4px solid #f0a020; } mark.hl { background: #fff59d; }
.running { background: #e3f2fd; border: 1px solid #64b5f6; padding: .4rem .8rem; border-radius: 4px; }
form.inline { display: inline; margin: 0; } form.inline select, form.inline button { font-size: 12px; }
.hand { color: #1565c0; font-weight: 600; } td.wrap { max-width: 28rem; }
`;

export const enc = encodeURIComponent;
export const runUrl = (id: string) => `/runs/${enc(id)}`;
export const caseUrl = (id: string, suite: string, caseId: string) =>
  `${runUrl(id)}/cases/${enc(suite)}/${enc(caseId)}`;
export const cellUrl = (id: string, cellId: string) =>
  `${runUrl(id)}/cells/${cellId.split('/').map(enc).join('/')}`;
export const claimUrl = (id: string, suite: string, assertionId: string) =>
  `${runUrl(id)}/claims/${enc(assertionId)}?suite=${enc(suite)}`;

export interface PageOptions {
  /** Seconds until the page reloads itself (a run in progress), without any script. */
  refresh?: number;
  crumbs?: { href: string; text: string }[];
}

export function page(title: string, body: SafeHtml, opts: PageOptions = {}): string {
  const crumbs = [{ href: '/', text: 'runs' }, ...(opts.crumbs ?? [])];
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${viewerPolicy}">
${opts.refresh ? html`<meta http-equiv="refresh" content="${opts.refresh}">` : ''}
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} — handoff-eval view</title><style>${styles}${viewStyles}</style></head>
<body><nav class="top"><b>handoff-eval view</b>${crumbs.map((c) => html` › <a href="${c.href}">${c.text}</a>`)}</nav>
<main>${body}</main></body></html>
`.value;
}

export function notFound(what: string): string {
  return page('not found', html`<h1>Not found</h1><p>${what}</p>`);
}
