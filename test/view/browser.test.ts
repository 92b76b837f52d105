import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { startViewer, type Viewer } from '../../harness/view/server.ts';
import { HAND_LABELS_FILE } from '../../harness/view/labels.ts';
import { artifactsDir, chromiumPath, hasChromium, launchChromium, waitFor } from '../support/chromium.ts';
import { hit, hostileRows } from '../reports/xss-corpus.ts';
import { cliRun, rowsRun } from './fixture-runs.ts';

/**
 * The viewer in a real browser, as a reviewer uses it: run → case → cell → claim, a comparison, a hand
 * mark recorded and read back; and the XSS corpus through every page kind and the compare page.
 * Screenshots go to test-artifacts/viewer/ for CI to keep.
 */
const shots = join(artifactsDir, 'viewer');
const hostileName = `run<img src=x onerror="${hit(12)}">`;

describe.skipIf(!hasChromium)(`handoff-eval view in Chromium (${chromiumPath})`, () => {
  let root: string;
  let viewer: Viewer;
  let ctx: BrowserContext;
  let a: string;
  let b: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'handoff-view-browser-'));
    const runs = join(root, 'runs');
    a = await cliRun(runs, 1);
    b = await cliRun(runs, 2);
    const hostile = hostileRows().map((r, i) =>
      i === 0
        ? {
            ...r,
            detail: {
              ...r.detail!,
              // A stage name and a claim id from the run are text too.
              survival: r.detail!.survival.map((m) => ({
                ...m,
                assertionId: `${m.assertionId}<img src=x onerror="${hit(11)}">`,
                [`<b onmouseover="${hit(13)}">stage</b>`]: 'kept',
              })),
            },
          }
        : r,
    );
    rowsRun(runs, hostileName, hostile);
    rowsRun(runs, 'hostile-b', hostile);
    viewer = await startViewer({ runsDir: runs, port: 0 });
    ctx = await launchChromium(join(root, 'profile'));
    mkdirSync(shots, { recursive: true });
  }, 240_000);

  afterAll(async () => {
    await ctx?.close();
    await viewer?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  const text = (page: Page, sel: string) => page.locator(sel).first().innerText();

  it('follows run → case → cell → claim, the handed-over part first', async () => {
    const page = await ctx.newPage();
    await page.goto(viewer.url);
    await page.screenshot({ path: join(shots, 'runs.png') });
    await page.locator('a.run', { hasText: basename(a) }).click();
    await page.waitForURL(/\/runs\/[^/]+$/);
    expect(await text(page, 'h1')).toContain(basename(a));
    await page.screenshot({ path: join(shots, 'run.png') });
    await page.locator('table.cases a', { hasText: 'ledgerline-01' }).click();
    await page.waitForURL(/\/cases\/ledgerline\/ledgerline-01$/);
    await page.locator('th', { hasText: 'summary' }).waitFor();
    const summaryCol = (await page.locator('table.case th').allInnerTexts()).indexOf('summary');
    await page.locator(`table.case tbody tr:first-child td:nth-child(${summaryCol + 1}) a.cell`).click();
    await page.waitForURL(/\/cells\/ledgerline\/ledgerline-01\/summary\/0$/);
    const h2 = await page.locator('main h2').allInnerTexts();
    expect(h2.slice(0, 3)).toEqual(['What was handed over', 'Answer', 'Scores']);
    expect(await page.locator('pre.handed mark.hl').count()).toBeGreaterThan(0);
    await page.screenshot({ path: join(shots, 'cell.png'), fullPage: false });
    await page.locator('table.claims a[href*="/claims/"]').first().click();
    await page.waitForURL(/\/claims\//);
    expect(await text(page, 'h1')).toMatch(/^Claim /);
    expect(await page.locator('main').innerText()).toMatch(/lost in \d+ of 2 cases/);
    await page.screenshot({ path: join(shots, 'claim.png') });
    await page.close();
  });

  it('records a hand mark in the browser and reads it back, with agreement on the run page', async () => {
    const page = await ctx.newPage();
    const cellPath = `/runs/${encodeURIComponent(basename(a))}/cells/ledgerline/ledgerline-02/inline/0`;
    await page.goto(new URL(cellPath, viewer.url).toString());
    const row = readFileSync(join(a, 'results.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .find((r) => r.cell_id === 'ledgerline/ledgerline-02/inline/0');
    const claim = row.detail.survival[0];
    const other = claim.answer === 'absent' ? 'kept' : 'absent';
    const form = page
      .locator(`tr#claim-${claim.assertionId} form`)
      .filter({ has: page.locator('input[name="stage"][value="answer"]') });
    await form.locator('select').selectOption(other);
    await form.locator('button').click();
    await page.waitForURL(/saved=/);
    expect(await page.locator(`tr#claim-${claim.assertionId}`).innerText()).toContain(`person: ${other}`);
    await page.screenshot({ path: join(shots, 'hand-mark.png') });
    const saved = readFileSync(join(a, HAND_LABELS_FILE), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(saved.at(-1)).toMatchObject({
      type: 'mark',
      assertion_id: claim.assertionId,
      stage: 'answer',
      mark: other,
    });
    await page.goto(new URL(`/runs/${encodeURIComponent(basename(a))}`, viewer.url).toString());
    const agreement = await page.locator('h2:has-text("Hand labels") + p + table').innerText();
    // One hand mark that disagrees with the classifier: 0 of 1 agree.
    expect(agreement).toMatch(/answer\s+the classifier[^\n]*\s+1\s+0\/1/);
    await page.close();
  });

  it('serves report.html under its own policy, so a case opens there too', async () => {
    const page = await ctx.newPage();
    await page.goto(new URL(`/runs/${encodeURIComponent(basename(a))}/report.html`, viewer.url).toString());
    await page.locator('details.case summary').first().click();
    await waitFor(page, "document.querySelector('details.case').hasAttribute('data-loaded')");
    expect(await page.locator('details.case .cell').count()).toBeGreaterThan(0);
    await page.close();
  });

  it('runs a comparison from the run list', async () => {
    const page = await ctx.newPage();
    await page.goto(viewer.url);
    await page.locator('select[name="a"]').selectOption(basename(a));
    await page.locator('select[name="b"]').selectOption(basename(b));
    await page.locator('form[action="/compare"] button').click();
    await page.waitForURL(/\/compare\?a=/);
    const body = await page.locator('main').innerText();
    expect(body).toContain('Same experiment: 10 cells paired.');
    expect(body).toContain('Paired differences B − A');
    await page.screenshot({ path: join(shots, 'compare.png') });
    await page.close();
  });

  for (const variant of ['as served', 'with its CSP removed'] as const)
    it(`runs nothing from run content on any page, ${variant}`, async () => {
      const page = await ctx.newPage();
      if (variant !== 'as served')
        await page.route('**/*', async (route) => {
          const res = await route.fetch();
          const headers = { ...res.headers() };
          delete headers['content-security-policy'];
          const body = (await res.text()).replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/, '');
          await route.fulfill({ response: res, headers, body });
        });
      const dialogs: string[] = [];
      const requests: string[] = [];
      page.on('dialog', (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      page.on('request', (r) => requests.push(r.url()));
      const run = `/runs/${encodeURIComponent(hostileName)}`;
      const rows = hostileRows();
      const enc = (cell: string) => cell.split('/').map(encodeURIComponent).join('/');
      const urls = [
        '/',
        run,
        `${run}/cases/${encodeURIComponent(rows[0]!.suite)}/${encodeURIComponent(rows[0]!.case_id)}`,
        `${run}/cells/${enc(rows[0]!.cell_id)}`,
        `${run}/cells/${enc(rows[2]!.cell_id)}`,
        `${run}/claims/${encodeURIComponent(`a1<img src=x onerror="${hit(11)}">`)}?suite=${encodeURIComponent(rows[0]!.suite)}`,
        `/compare?a=${encodeURIComponent(hostileName)}&b=hostile-b`,
      ];
      for (const u of urls) {
        const res = await page.goto(new URL(u, viewer.url).toString());
        expect(res?.status(), u).toBe(200);
        await page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })");
        const state = (await page.evaluate(`({
          pwned: window.__pwned ?? null,
          active: document.querySelectorAll('script, iframe, object, embed, img, svg').length,
          handlers: [...document.querySelectorAll('*')].flatMap((el) => [...el.attributes].filter((a) => a.name.startsWith('on')).map((a) => el.tagName + '.' + a.name)),
          text: document.body.innerText,
        })`)) as { pwned: number[] | null; active: number; handlers: string[]; text: string };
        expect(state.pwned, u).toBeNull();
        expect(state.active, u).toBe(0);
        expect(state.handlers, u).toEqual([]);
        expect(state.text, u).toMatch(/<script>|onerror=/);
      }
      await page.locator('main').hover();
      expect(dialogs).toEqual([]);
      expect(requests.every((r) => r.startsWith(viewer.url))).toBe(true);
      await page.close();
    });
});
