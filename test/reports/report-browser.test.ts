import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { summarize } from '../../reports/summarize.ts';
import { renderHtml } from '../../reports/html/page.ts';
import { unpackAll } from '../../reports/html/lazy.ts';
import { cellAnchor } from '../../harness/compare/render.ts';
import { artifactsDir, chromiumPath, hasChromium, launchChromium, waitFor } from '../support/chromium.ts';
import { syntheticRows } from './synthetic.ts';

/** report.html in a real browser: cells rendered on demand, anchors, natural arm order, five arms at 1400 px. */
const arms = [
  'inline',
  'summary[n=10]',
  'summary[n=2]',
  'summary[n=1]',
  'structured-contract-with-a-long-name',
];
const rows = syntheticRows({
  seed: 4,
  cases: 6,
  reps: 2,
  arms,
  criteria: ['correctness'],
  text: {
    seen: 'x'.repeat(4000) + ' ' + 'a-very-long-unbroken-token-'.repeat(40),
    answer: 'answer '.repeat(300),
  },
});

describe('report.html on demand (unit)', () => {
  it('stores the cells compressed: the page is far smaller than what it unpacks to, and every cell is in it', () => {
    const page = renderHtml(summarize(rows), rows);
    const bodies = unpackAll(page);
    expect(bodies).toHaveLength(6);
    const unpacked = bodies.join('').length;
    expect(page.length).toBeLessThan(unpacked * 0.3);
    // The ids are the anchors compare links to (harness/compare/render.ts): one recipe, checked here.
    for (const r of rows) expect(bodies.join('')).toContain(`id="${cellAnchor(r.cell_id)}"`);
  });
});

describe.skipIf(!hasChromium)(`report.html in Chromium (${chromiumPath})`, () => {
  let ctx: BrowserContext;
  let dir: string;
  let file: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'handoff-report-'));
    file = join(dir, 'report.html');
    writeFileSync(file, renderHtml(summarize(rows), rows));
    ctx = await launchChromium(join(dir, 'profile'));
  });

  afterAll(async () => {
    await ctx?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('sorts arms naturally in the tables and the drill-down', async () => {
    const page = await ctx.newPage();
    await page.goto(`file://${file}`);
    const first = (await page.evaluate(
      "[...document.querySelector('section.suite table').querySelectorAll('tbody tr td:first-child')].map((td) => td.textContent)",
    )) as string[];
    expect(first).toEqual([
      'inline (baseline)',
      'structured-contract-with-a-long-name',
      'summary[n=1]',
      'summary[n=2]',
      'summary[n=10]',
    ]);
    await page.close();
  });

  it('follows a cell anchor by opening its case, and five arms fit 1400 px with every case open', async () => {
    const page = await ctx.newPage();
    const cell = 'synthetic/case-03/summary[n=10]/1';
    await page.goto(`file://${file}#${encodeURIComponent(`cell:${cell}`)}`);
    await waitFor(page, `document.getElementById(${JSON.stringify(`cell:${cell}`)}) !== null`);
    expect(await page.evaluate(`document.getElementById('case:synthetic/case-03').open`)).toBe(true);
    expect(
      await page.evaluate(`document.getElementById('case:synthetic/case-02').hasAttribute('data-loaded')`),
    ).toBe(false);
    // A later rep sits in its own <details>: the anchor opened it too.
    expect(await page.evaluate(`document.getElementById(${JSON.stringify(`cell:${cell}`)}).open`)).toBe(true);
    await page.evaluate("document.querySelectorAll('details.case').forEach((d) => { d.open = true; })");
    await waitFor(
      page,
      "[...document.querySelectorAll('details.case')].every((d) => d.hasAttribute('data-loaded'))",
    );
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(1400);
    // No arm column hidden in a sideways scroll: every grid shows all five within its own width.
    const hidden = (await page.evaluate(
      "[...document.querySelectorAll('.arms')].filter((g) => g.scrollWidth > g.clientWidth + 1 || [...g.children].some((c) => c.getBoundingClientRect().right > g.getBoundingClientRect().right + 1)).length",
    )) as number;
    expect(hidden).toBe(0);
    mkdirSync(artifactsDir, { recursive: true });
    await page.screenshot({ path: join(artifactsDir, 'report-five-arms-1400.png') });
    await page.close();
  });
});
