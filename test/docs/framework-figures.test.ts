import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Summary } from '../../reports/summary/types.ts';
import { frameworkFigures } from '../../harness/readme/framework-figures.ts';
import { frameworkArms } from '../../harness/config/frameworks.ts';
import { checkFigures } from '../../harness/readme/check.ts';
import { cliPath, repoRoot } from '../support/cli.ts';

describe('README.md "What frameworks hand over" against a fresh run of frameworks.config.ts', () => {
  it('every cell of the frameworks tables is what the run gives', () => {
    const out = mkdtempSync(join(tmpdir(), 'he-readme-fw-'));
    try {
      // Two suites × 14 or 10 arms × 3 reps on the sim (about 35 s on a loaded machine).
      const r = spawnSync(
        process.execPath,
        [cliPath, 'run', '--config', 'frameworks.config.ts', '--no-cache', '--quiet', '--out', out],
        { cwd: repoRoot, env: { ...process.env, CI: 'true' }, encoding: 'utf8', timeout: 280_000 },
      );
      expect(r.status, r.stderr).toBe(0);
      const summary = JSON.parse(
        readFileSync(join(out, readdirSync(out)[0]!, 'report.json'), 'utf8'),
      ) as Summary;
      const figures = frameworkFigures(summary);
      // Every framework arm that applies to return (ledgerline) or escalation (milk) has its row, plus the baselines.
      const applies = (d: string) =>
        Object.values(frameworkArms).filter((ds) => ds.includes(d as never)).length;
      expect(figures.length).toBe(4 * (2 + applies('return') + applies('escalation')));
      const checks = checkFigures(readFileSync(join(repoRoot, 'README.md'), 'utf8'), figures);
      const wrong = checks
        .filter((c) => c.problem || c.differs.length)
        .map((c) => ({ line: c.line, anchor: c.anchor, problem: c.problem, readme: c.readme, run: c.run }));
      // Refresh with `npm run readme:figures -- --write`.
      expect(wrong).toEqual([]);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 300_000);
});
