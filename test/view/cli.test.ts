import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../harness/cli/main.ts';
import { syntheticRows } from '../reports/synthetic.ts';
import { rowsRun } from './fixture-runs.ts';

const root = mkdtempSync(join(tmpdir(), 'handoff-view-cli-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('handoff-eval view (CLI)', () => {
  it('prints its loopback URL, serves the runs, and stops on Ctrl-C with exit 0', async () => {
    rowsRun(root, 'r1', syntheticRows({ seed: 1, cases: 2, reps: 1, arms: ['inline', 'summary'] }));
    const child = spawn(process.execPath, ['bin/handoff-eval.js', 'view', root, '--port', '0', '--no-open'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let out = '';
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no URL printed: ${out}`)), 60_000);
        child.stdout.on('data', (c) => {
          out += String(c);
          const m = /http:\/\/127\.0\.0\.1:\d+\//.exec(out);
          if (m) {
            clearTimeout(timer);
            resolve(m[0]);
          }
        });
        child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
      });
      const page = await (await fetch(url)).text();
      expect(page).toContain('href="/runs/r1"');
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      child.kill('SIGINT');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 90_000);

  it('exits 2 naming the flag or folder for a bad port or a missing folder', async () => {
    expect(await main(['view', root, '--port', 'eighty', '--no-open'])).toBe(2);
    expect(await main(['view', join(root, 'nope'), '--no-open'])).toBe(2);
  });
});
