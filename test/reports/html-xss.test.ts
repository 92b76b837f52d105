import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type BrowserContext } from 'playwright-core';
import { summarize } from '../../reports/summarize.ts';
import { renderHtml } from '../../reports/html/page.ts';
import { loaderScript } from '../../reports/html/lazy.ts';
import { waitFor } from '../support/chromium.ts';
import { hit, hostileRows, payloads } from './xss-corpus.ts';

/**
 * Transcript and model text is untrusted: a tool result or an answer can hold markup. The report is
 * rendered in a real headless Chromium with payloads in every text field; nothing may execute. The
 * page's CSP would block scripts on its own, so the page is also loaded with the CSP removed — the
 * escaping must hold by itself — and a positive control proves the detector sees an execution.
 */
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const hasChromium = existsSync(chromiumPath);
if (!hasChromium)
  console.warn(
    `html-xss: SKIPPED — no chromium binary at ${chromiumPath} (.ci/run installs Debian's chromium; or set CHROMIUM_PATH)`,
  );

describe.skipIf(!hasChromium)(`report.html in headless Chromium (${chromiumPath})`, () => {
  let ctx: BrowserContext;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'handoff-xss-'));
    ctx = await chromium.launchPersistentContext(join(dir, 'profile'), {
      executablePath: chromiumPath,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  });

  afterAll(async () => {
    await ctx?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function load(name: string, html: string) {
    const file = join(dir, name);
    writeFileSync(file, html);
    const page = await ctx.newPage();
    const requests: string[] = [];
    const dialogs: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto(`file://${file}`, { waitUntil: 'load' });
    // Browser-side code as strings: the test compiles without the DOM lib.
    const nextFrame = 'new Promise((resolve) => requestAnimationFrame(() => resolve(null)))';
    await page.evaluate(nextFrame);
    await page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })");
    // The drill-down renders each case when opened (reports/html/lazy.ts): wait for every one, then open
    // the details it brought.
    await waitFor(
      page,
      "[...document.querySelectorAll('details.case')].every((d) => d.hasAttribute('data-loaded'))",
    );
    await page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })");
    await page.evaluate(nextFrame);
    const state = (await page.evaluate(`({
      pwned: window.__pwned ?? null,
      title: document.title,
      active: [...document.querySelectorAll('script, iframe, object, embed, img')].filter((el) => !(el.tagName === 'SCRIPT' && el.textContent === ${JSON.stringify(loaderScript)})).length,
      loaders: document.querySelectorAll('script').length,
      cases: document.querySelectorAll('details.case').length,
      handlers: [...document.querySelectorAll('*')].flatMap((el) => [...el.attributes].filter((a) => a.name.startsWith('on')).map((a) => el.tagName + '.' + a.name)),
      text: document.body.innerText,
    })`)) as {
      pwned: number[] | null;
      title: string;
      active: number;
      loaders: number;
      cases: number;
      handlers: string[];
      text: string;
    };
    await page.close();
    return { ...state, requests: requests.filter((u) => u !== `file://${file}`), dialogs };
  }

  it('the detector sees an unescaped payload execute (positive control)', async () => {
    const r = await load('control.html', `<!doctype html><html><body>${payloads}</body></html>`);
    expect(r.pwned).not.toBeNull();
    expect(r.pwned!.length).toBeGreaterThanOrEqual(2);
  });

  for (const variant of ['as written', 'with its CSP removed'] as const) {
    it(`runs nothing and fetches nothing, ${variant}`, async () => {
      const rows = hostileRows();
      let html = await renderHtml(summarize(rows), rows);
      if (variant !== 'as written') {
        html = html.replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/, '');
        expect(html).not.toContain('Content-Security-Policy');
      }
      const r = await load(`report-${variant.length}.html`, html);
      expect(r.pwned).toBeNull();
      expect(r.title).not.toBe('PWNED');
      expect(r.dialogs).toEqual([]);
      // Nothing but the report's own loader (byte for byte), and it rendered every case.
      expect(r.active).toBe(0);
      expect(r.loaders).toBe(1);
      expect(r.cases).toBeGreaterThan(0);
      expect(r.handlers).toEqual([]);
      expect(r.requests).toEqual([]);
      // The payloads are shown as text, not dropped.
      expect(r.text).toContain(`<script>${hit(1)};document.title='PWNED'</script>`);
      expect(r.text).toContain(`<img src=x onerror="${hit(2)}">`);
      expect(r.text).toContain('case<script>');
    });
  }
});
