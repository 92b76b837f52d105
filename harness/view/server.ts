import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HarnessError } from '../core/errors.ts';
import { compareRuns } from '../compare/compare.ts';
import { claimMarks, isMark } from '../compare/marks.ts';
import { renderCompareBody } from '../compare/render.ts';
import { summarize } from '../../reports/summarize.ts';
import { contentSecurityPolicy, renderHtml } from '../../reports/html/page.ts';
import { html } from '../../reports/html/escape.ts';
import { cellUrl, notFound, page, viewerPolicyHeader } from './pages/layout.ts';
import { listItem, runListPage } from './pages/run-list.ts';
import { runPage } from './pages/run-page.ts';
import { cellPage } from './pages/cell-page.ts';
import { casePage, claimPage } from './pages/case-claim.ts';
import { appendHandLabel, handAgreement, handLabelAgreement, readHandLabels } from './labels.ts';
import type { LoadedRun } from '../compare/load-run.ts';
import { RunStore } from './store.ts';

export interface Viewer {
  url: string;
  close(): Promise<void>;
}

/**
 * The viewer: node:http on 127.0.0.1 only, reading the journals of a runs folder on every request
 * (cached by size and mtime). No account, no script in any page; a request naming another host (DNS
 * rebinding) or posting from another origin is refused.
 */
export async function startViewer(opts: { runsDir: string; port?: number }): Promise<Viewer> {
  const store = new RunStore(opts.runsDir);
  let origin = '';
  const server = createServer((req, res) => {
    handle(store, origin, req, res).catch((err: unknown) =>
      send(res, 500, page('error', html`<h1>Error</h1><pre>${String((err as Error)?.stack ?? err)}</pre>`)),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  origin = `127.0.0.1:${port}`;
  return {
    url: `http://${origin}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function send(res: ServerResponse, status: number, body: string, policy = viewerPolicyHeader): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': policy,
    'x-content-type-options': 'nosniff',
    // same-origin, not no-referrer: with no-referrer a browser posts the forms with `Origin: null`.
    'referrer-policy': 'same-origin',
    'cache-control': 'no-store',
  });
  res.end(body);
}

function redirect(res: ServerResponse, to: string): void {
  res.writeHead(303, { location: to });
  res.end();
}

const allowedHosts = (origin: string) => [origin, origin.replace('127.0.0.1', 'localhost')];

async function handle(
  store: RunStore,
  origin: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  if (!allowedHosts(origin).includes(req.headers.host ?? ''))
    return send(res, 421, notFound('this viewer answers on 127.0.0.1 only'));
  const url = new URL(req.url ?? '/', `http://${origin}`);
  let parts: string[];
  try {
    parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    return send(res, 400, notFound('a path segment is not valid percent-encoding'));
  }
  if (req.method === 'POST') {
    const from = req.headers.origin;
    if (
      from &&
      !allowedHosts(origin)
        .map((h) => `http://${h}`)
        .includes(from)
    )
      return send(res, 403, notFound('cross-origin post refused'));
    if (parts[0] === 'runs' && parts.length === 3 && (parts[2] === 'marks' || parts[2] === 'labels'))
      return saveLabel(store, parts[1]!, parts[2], await readForm(req), res);
    return send(res, 404, notFound(url.pathname));
  }
  if (req.method !== 'GET' && req.method !== 'HEAD')
    return send(res, 405, notFound(`${req.method} is not served`));
  if (parts.length === 0) {
    const items = [...store.dirs().keys()].flatMap((id) => {
      const run = store.get(id);
      return run ? [listItem(run)] : [];
    });
    const q = url.searchParams;
    return send(
      res,
      200,
      runListPage(items, q.get('q') ?? '', q.get('sort') ?? 'date', q.get('dir') ?? 'desc'),
    );
  }
  if (parts[0] === 'compare') return comparePage(store, url, res);
  if (parts[0] !== 'runs' || !parts[1]) return send(res, 404, notFound(url.pathname));
  const run = store.get(parts[1]);
  if (!run) return send(res, 404, notFound(`no run ${parts[1]} in ${store.root}`));
  const [, , what, ...rest] = parts;
  if (!what) {
    const labels = readHandLabels(run.dir);
    return send(res, 200, runPage(run, handAgreement(run.rows, labels), labels.marks.size));
  }
  // report.html under its own policy: its one script (the drill-down loader) is allowed by hash there.
  if (what === 'report.html' && rest.length === 0)
    return send(res, 200, renderHtml(withHandLabels(run.dir, run.rows), run.rows), contentSecurityPolicy);
  if (what === 'cases' && rest.length === 2) {
    const rows = run.rows.filter((r) => r.suite === rest[0] && r.case_id === rest[1]);
    if (rows.length === 0) return send(res, 404, notFound(`no case ${rest.join('/')} in ${run.id}`));
    return send(res, 200, casePage(run.id, rest[0]!, rest[1]!, rows));
  }
  if (what === 'cells' && rest.length > 0) {
    const row = run.rows.find((r) => r.cell_id === rest.join('/'));
    if (!row) return send(res, 404, notFound(`no cell ${rest.join('/')} in ${run.id}`));
    const caseRows = run.rows.filter((r) => r.suite === row.suite && r.case_id === row.case_id);
    const info = (await store.caseInfo(run, row.suite))?.get(row.case_id) ?? null;
    const saved = url.searchParams.get('saved');
    return send(
      res,
      200,
      cellPage({
        runId: run.id,
        row,
        caseRows,
        info,
        labels: readHandLabels(run.dir),
        saved: saved ? `Saved: ${saved}` : undefined,
      }),
    );
  }
  if (what === 'claims' && rest.length === 1) {
    const suite = url.searchParams.get('suite') ?? run.rows[0]?.suite ?? '';
    const rows = run.rows.filter((r) => r.suite === suite);
    const infos = await store.caseInfo(run, suite);
    const statement = infos
      ? ([...infos.values()].map((i) => i.assertions.get(rest[0]!)).find(Boolean) ?? null)
      : null;
    return send(res, 200, claimPage(run.id, suite, rest[0]!, rows, statement));
  }
  return send(res, 404, notFound(url.pathname));
}

function comparePage(store: RunStore, url: URL, res: ServerResponse): void {
  const a = store.get(url.searchParams.get('a') ?? '');
  const b = store.get(url.searchParams.get('b') ?? '');
  if (!a || !b)
    return send(res, 404, notFound('compare needs two runs of this folder: /compare?a=<id>&b=<id>'));
  try {
    const c = compareRuns(a, b);
    const link = (side: 'a' | 'b', _id: string, cellId: string) =>
      cellUrl(side === 'a' ? a.id : b.id, cellId);
    c.a.id = a.id;
    c.b.id = b.id;
    send(res, 200, page(`compare ${a.id} vs ${b.id}`, renderCompareBody(c, link)));
  } catch (err) {
    if (!(err instanceof HarnessError)) throw err;
    send(res, 400, page('cannot compare', html`<h1>Cannot compare</h1><p class="notice">${err.message}</p>`));
  }
}

const FORM_LIMIT = 16_384;

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  let body = '';
  for await (const chunk of req) {
    body += String(chunk);
    if (body.length > FORM_LIMIT) break;
  }
  return new URLSearchParams(body.slice(0, FORM_LIMIT));
}

function saveLabel(
  store: RunStore,
  runId: string,
  what: 'marks' | 'labels',
  form: URLSearchParams,
  res: ServerResponse,
): void {
  const run = store.get(runId);
  const row = run?.rows.find((r) => r.cell_id === form.get('cell'));
  const aid = form.get('assertion') ?? '';
  const claim = row && claimMarks(row).find((c) => c.assertionId === aid);
  if (!run || !row || !claim) return send(res, 400, notFound('no such run, cell or claim'));
  const at = new Date().toISOString();
  if (what === 'marks') {
    const stage = form.get('stage') ?? '';
    const mark = form.get('mark');
    if (!(stage in claim.stages) || !isMark(mark))
      return send(res, 400, notFound(`stage or mark not valid for ${aid}`));
    appendHandLabel(run.dir, { type: 'mark', at, cell_id: row.cell_id, assertion_id: aid, stage, mark });
    return redirect(
      res,
      `${cellUrl(run.id, row.cell_id)}?saved=${encodeURIComponent(`${aid} ${stage} ${mark}`)}#claim-${encodeURIComponent(aid)}`,
    );
  }
  const decision = form.get('decision');
  if (decision !== 'confirm' && decision !== 'reject')
    return send(res, 400, notFound('decision must be confirm or reject'));
  appendHandLabel(run.dir, {
    type: 'label',
    at,
    suite: row.suite,
    case_id: row.case_id,
    assertion_id: aid,
    decision,
  });
  return redirect(
    res,
    `${cellUrl(run.id, row.cell_id)}?saved=${encodeURIComponent(`${aid} ${decision}ed`)}#claim-${encodeURIComponent(aid)}`,
  );
}

function withHandLabels(dir: string, rows: LoadedRun['rows']) {
  const summary = summarize(rows);
  const hand = handLabelAgreement(dir, rows);
  if (hand) summary.handLabels = hand;
  return summary;
}
