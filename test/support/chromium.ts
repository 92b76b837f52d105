import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

/** Debian's chromium, as the HTML tests use it (.ci/run installs it); CHROMIUM_PATH overrides. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const hasChromium = existsSync(chromiumPath);

/** Screenshots the browser tests keep for CI (gitignored). */
export const artifactsDir = join(process.cwd(), 'test-artifacts');

export function launchChromium(
  profileDir: string,
  viewport = { width: 1400, height: 900 },
): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profileDir, {
    executablePath: chromiumPath,
    headless: true,
    viewport,
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
}

/**
 * Polls a page expression until it is truthy (bounded). Not page.waitForFunction: that evaluates with
 * eval in the page, which the pages' CSP rightly refuses; page.evaluate goes through the debugger.
 */
export async function waitFor(
  page: { evaluate(expr: string): Promise<unknown> },
  expr: string,
  tries = 200,
): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (await page.evaluate(expr)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`waitFor: still false after ${tries} tries: ${expr}`);
}
