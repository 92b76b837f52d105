import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startViewer, type Viewer } from '../../harness/view/server.ts';
import { HAND_LABELS_FILE } from '../../harness/view/labels.ts';
import { cliRun } from './fixture-runs.ts';
import { main } from '../../harness/cli/main.ts';

let root: string;
let viewer: Viewer;
let a: string;
let b: string;
let live: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'handoff-view-'));
  a = await cliRun(join(root, 'runs'), 1);
  b = await cliRun(join(root, 'runs'), 2);
  live = await cliRun(join(root, 'runs'), 1, ['--mode', 'live']);
}, 300_000);

beforeAll(async () => {
  viewer = await startViewer({ runsDir: join(root, 'runs'), port: 0 });
});

afterAll(async () => {
  await viewer?.close();
  rmSync(root, { recursive: true, force: true });
});

/** A raw request, so tests can set the Host and Origin headers a browser would. */
function call(path: string, opts: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  const u = new URL(path, viewer.url);
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
    (resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: u.port,
          path: u.pathname + u.search,
          method: opts.method ?? 'GET',
          headers: opts.headers,
        },
        (res) => {
          let body = '';
          res.on('data', (c) => (body += String(c)));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        },
      );
      req.on('error', reject);
      req.end(opts.body);
    },
  );
}

const id = (dir: string) => basename(dir);
const cell = 'ledgerline/ledgerline-01/summary/0';

describe('handoff-eval view (HTTP)', () => {
  it('listens on 127.0.0.1 only and lists both runs with their cells, filtered and sorted', async () => {
    expect(viewer.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const list = await call('/');
    expect(list.status).toBe(200);
    expect(list.headers['content-security-policy']).toContain("script-src 'none'");
    expect(list.body).toContain(id(a));
    expect(list.body).toContain(id(b));
    expect(list.body).toContain('sim:sim-large');
    const filtered = await call(`/?q=${encodeURIComponent(id(b))}`);
    expect(filtered.body).toContain(`Runs (1 of 3)`);
    const asc = await call('/?sort=date&dir=asc');
    expect(asc.body.indexOf(`href="/runs/${id(a)}"`)).toBeLessThan(asc.body.indexOf(`href="/runs/${id(b)}"`));
    const desc = await call('/?sort=date&dir=desc');
    expect(desc.body.indexOf(`href="/runs/${id(a)}"`)).toBeGreaterThan(
      desc.body.indexOf(`href="/runs/${id(b)}"`),
    );
  });

  it('refuses another Host (DNS rebinding) and a post from another origin', async () => {
    expect((await call('/', { headers: { host: 'evil.example:80' } })).status).toBe(421);
    const post = await call(`/runs/${id(a)}/marks`, {
      method: 'POST',
      headers: { origin: 'http://evil.example', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ cell, assertion: 'direct', stage: 'answer', mark: 'kept' }).toString(),
    });
    expect(post.status).toBe(403);
    expect(existsSync(join(a, HAND_LABELS_FILE))).toBe(false);
  });

  it('a cell page shows the handed-over part first, then the answer, scores and the claims with highlights', async () => {
    const r = await call(`/runs/${id(a)}/cells/${cell}`);
    expect(r.status).toBe(200);
    const row = readFileSync(join(a, 'results.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .find((x) => x.cell_id === cell);
    const handed = r.body.indexOf('What was handed over');
    const answer = r.body.indexOf('<h2>Answer</h2>');
    const history = r.body.indexOf('<summary>The receiver’s own history');
    expect(handed).toBeGreaterThan(0);
    expect(answer).toBeGreaterThan(handed);
    expect(history).toBeGreaterThan(answer);
    expect(r.body).toContain('the part after the receiver’s own history');
    // Every claim of the row is in the table, each criterion with its rationale.
    for (const s of row.detail.survival) expect(r.body).toContain(`id="claim-${s.assertionId}"`);
    for (const j of row.detail.judge) expect(r.body).toContain(j.rationale.replace(/'/g, '&#39;'));
    // A claim kept at the answer is highlighted there, and its mark links to the highlight.
    const kept = row.detail.survival.find((s: { answer: string }) => s.answer === 'kept');
    expect(kept).toBeDefined();
    expect(r.body).toContain(`id="hl-answer-${kept.assertionId}"`);
    expect(r.body).toContain(`href="#hl-answer-${kept.assertionId}"`);
  });

  it('a claim page shows the claim across cases and arms; a case page links every cell', async () => {
    const claim = await call(`/runs/${id(a)}/claims/sandbox-pin?suite=ledgerline`);
    expect(claim.status).toBe(200);
    expect(claim.body).toMatch(/In 2 cases, 10 cells/);
    expect(claim.body).toMatch(/lost in \d of 2 cases/);
    const c = await call(`/runs/${id(a)}/cases/ledgerline/ledgerline-02`);
    for (const arm of ['inline', 'summary', 'final-message'])
      expect(c.body).toContain(`/cells/ledgerline/ledgerline-02/${arm}/0"`);
    expect((await call(`/runs/${id(a)}/cells/ledgerline/nope/inline/0`)).status).toBe(404);
    expect((await call('/runs/..%2F..%2Fetc')).status).toBe(404);
    expect((await call('/runs/%E0%A4%A')).status).toBe(400);
  });

  it('compares two runs in the browser page, with cell links into both runs', async () => {
    const r = await call(`/compare?a=${id(a)}&b=${id(b)}`);
    expect(r.status).toBe(200);
    expect(r.body).toContain('Same experiment: 10 cells paired.');
    expect(r.body).toContain('seeds differ: A 1 · B 2');
    expect(r.body).toContain('Paired differences B − A');
  });

  it('works on a live run: its cells, its live-source table, and a comparison that names the mode', async () => {
    const run = await call(`/runs/${id(live)}`);
    expect(run.body).toContain('Live source (tool loop');
    const cellPage = await call(`/runs/${id(live)}/cells/ledgerline/ledgerline-02/structured-contract/0`);
    expect(cellPage.status).toBe(200);
    expect(cellPage.body).toContain('What was handed over');
    const c = await call(`/compare?a=${id(a)}&b=${id(live)}`);
    expect(c.body).toContain('source modes differ: A recorded · B live');
  });

  it('saves a hand mark and a label review beside the run, never in results.jsonl, and reports κ', async () => {
    const journal = readFileSync(join(a, 'results.jsonl'), 'utf8');
    const form = (o: Record<string, string>) => ({
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: viewer.url.replace(/\/$/, '') },
      body: new URLSearchParams(o).toString(),
    });
    const saved = await call(
      `/runs/${id(a)}/marks`,
      form({ cell, assertion: 'direct', stage: 'answer', mark: 'overstated' }),
    );
    expect(saved.status).toBe(303);
    expect(String(saved.headers.location)).toContain(`/cells/${cell}?saved=`);
    expect(
      (
        await call(
          `/runs/${id(a)}/marks`,
          form({ cell, assertion: 'direct', stage: 'answer', mark: 'maybe' }),
        )
      ).status,
    ).toBe(400);
    expect(
      (await call(`/runs/${id(a)}/marks`, form({ cell, assertion: 'nope', stage: 'answer', mark: 'kept' })))
        .status,
    ).toBe(400);
    expect(
      (await call(`/runs/${id(a)}/labels`, form({ cell, assertion: 'direct', decision: 'reject' }))).status,
    ).toBe(303);
    expect(readFileSync(join(a, 'results.jsonl'), 'utf8')).toBe(journal);
    const lines = readFileSync(join(a, HAND_LABELS_FILE), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.type)).toEqual(['mark', 'label']);
    expect(lines[0]).toMatchObject({
      cell_id: cell,
      assertion_id: 'direct',
      stage: 'answer',
      mark: 'overstated',
    });
    const page = await call(`/runs/${id(a)}/cells/${cell}`);
    expect(page.body).toContain('person: overstated');
    expect(page.body).toContain('rejected by a person');
    const run = await call(`/runs/${id(a)}`);
    expect(run.body).toContain('1 hand mark');
    // Every report format shows the agreement once a person has labelled; a run without labels has none.
    expect(await main(['report', a, '--format', 'md,json,html'])).toBe(0);
    const md = readFileSync(join(a, 'report.md'), 'utf8');
    expect(md).toContain('## Hand labels: person vs classifier');
    expect(md).toContain('1 hand mark, 0 labels confirmed and 1 rejected by a person');
    expect(md).toMatch(/\| answer \| the classifier \(the mark the run counts\) \| 1 \| [01]\/1 \|/);
    expect(JSON.parse(readFileSync(join(a, 'report.json'), 'utf8')).handLabels.agreement[0]).toMatchObject({
      stage: 'answer',
      n: 1,
    });
    expect(readFileSync(join(a, 'report.html'), 'utf8')).toContain('<section id="hand-labels">');
    expect(readFileSync(join(b, 'report.md'), 'utf8')).not.toContain('Hand labels');
    expect(run.body).toMatch(/<td>answer<\/td><td>the classifier[^<]*<\/td><td class="num">1<\/td>/);
  });

  it('shows a run in progress as such, with a refresh', async () => {
    const dir = join(root, 'runs', 'zz-running');
    mkdirSync(join(dir, 'run.lock'), { recursive: true });
    writeFileSync(join(dir, 'run.lock', '1'), `${process.pid}\n`);
    writeFileSync(
      join(dir, 'results.jsonl'),
      readFileSync(join(a, 'results.jsonl'), 'utf8').split('\n')[0] + '\n',
    );
    const r = await call('/runs/zz-running');
    expect(r.body).toContain('This run is in progress');
    expect(r.body).toMatch(/<meta http-equiv="refresh" content="5">/);
    writeFileSync(join(dir, 'run.lock', '1.released'), '');
    expect((await call('/runs/zz-running')).body).not.toContain('This run is in progress');
  });
});
