/**
 * The screenshots in docs/results.md ("The viewer"): the viewer over a runs folder, driven by Debian's
 * chromium, saved as small PNGs. Usage (two ledgerline runs at seeds 1 and 2 in <runs-dir>):
 *
 *     npx tsx scripts/view-screenshots.ts <runs-dir> <run-a> <run-b> [out-dir=docs/img]
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { startViewer } from '../harness/view/server.ts';

const [runsDir, a, b, out = 'docs/img'] = process.argv.slice(2);
if (!runsDir || !a || !b) throw new Error('usage: view-screenshots.ts <runs-dir> <run-a> <run-b> [out-dir]');
mkdirSync(out, { recursive: true });
const viewer = await startViewer({ runsDir, port: 0 });
const ctx = await chromium.launchPersistentContext(join(out, '.profile-tmp'), {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  viewport: { width: 1000, height: 560 },
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-lcd-text', '--font-render-hinting=none'],
});
const shots: [string, string, string?][] = [
  ['viewer-runs', '/'],
  ['viewer-cell', `/runs/${encodeURIComponent(a)}/cells/ledgerline/ledgerline-01/summary/0`],
  [
    'viewer-claims',
    `/runs/${encodeURIComponent(a)}/cells/ledgerline/ledgerline-01/summary/0`,
    'table.claims',
  ],
  ['viewer-claim', `/runs/${encodeURIComponent(a)}/claims/sandbox-pin?suite=ledgerline`],
  ['viewer-compare', `/compare?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`],
];
try {
  for (const [name, path, selector] of shots) {
    const page = await ctx.newPage();
    await page.goto(new URL(path, viewer.url).toString());
    const file = join(out, `${name}.png`);
    // One viewport each (the claims table scrolled to the top): small files, what a reviewer first sees.
    if (selector) await page.evaluate(`document.querySelector(${JSON.stringify(selector)}).scrollIntoView()`);
    await page.screenshot({ path: file });
    await page.close();
    process.stdout.write(`${file}\n`);
  }
} finally {
  await ctx.close();
  await viewer.close();
  rmSync(join(out, '.profile-tmp'), { recursive: true, force: true });
}
