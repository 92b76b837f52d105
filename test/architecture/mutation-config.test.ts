import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MODULES } from '../../scripts/mutation-modules.mjs';
import { moduleFiles, wilson } from '../../scripts/mutation-sample.mjs';
import { repoRoot } from '../support/cli.ts';

/**
 * `npm run mutate` and `npm run mutate:sample` are not run in CI (hours on 2 cores), so nothing else
 * would notice when a move leaves their module list pointing at nothing: every module issue 20 names
 * is there, every pattern names source files, every test glob names test files.
 */
const modules = MODULES;

/** Test files a glob of the form `dir/**\/*.test.ts` or a plain path names. */
function testFiles(glob: string): string[] {
  if (!glob.includes('*')) return existsSync(join(repoRoot, glob)) ? [glob] : [];
  const dir = glob.slice(0, glob.indexOf('/**'));
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(join(repoRoot, d), { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else if (e.name.endsWith('.test.ts')) out.push(join(d, e.name));
    }
  };
  walk(dir);
  return out;
}

describe('the mutation-testing module list', () => {
  it('names the seven modules issue 20 measures', () => {
    expect(Object.keys(modules).sort()).toEqual(
      [
        'harness/cache',
        'harness/gate',
        'harness/runner',
        'judges',
        'reports/stats',
        'reports/summary',
        'strategies',
      ].sort(),
    );
  });

  it.each(Object.keys(modules))(
    '%s: its patterns name source files and its test globs name tests',
    (name) => {
      const m = modules[name]!;
      for (const pattern of m.mutate) {
        const files = moduleFiles([pattern], repoRoot);
        expect(files.length, pattern).toBeGreaterThan(0);
        for (const f of files) expect(existsSync(join(repoRoot, f)), f).toBe(true);
      }
      for (const glob of m.tests) expect(testFiles(glob).length, glob).toBeGreaterThan(0);
    },
  );
});

describe('the sample estimate', () => {
  it('is bounded by the Wilson 95 % interval, as published for 8 of 10 and 0 of 20', () => {
    const [lo, hi] = wilson(8, 10);
    expect(lo).toBeCloseTo(0.4902, 3);
    expect(hi).toBeCloseTo(0.9433, 3);
    const [lo0, hi0] = wilson(0, 20);
    expect(lo0).toBe(0);
    expect(hi0).toBeCloseTo(0.1611, 3);
  });
});

describe('a triage run', () => {
  it('is refused by the sample (its tests are a subset: it finds survivors, never a score)', () => {
    const r = spawnSync(process.execPath, ['scripts/mutation-sample.mjs', 'harness/runner'], {
      cwd: repoRoot,
      env: { ...process.env, MUTATION_TRIAGE_TESTS: 'test/runner/pool-units.test.ts' },
      encoding: 'utf8',
      // Without the refusal it would start a sample run: bounded, so a regression fails instead of hanging.
      timeout: 60_000,
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('MUTATION_TRIAGE_TESTS is set: a sample scores the module with its own tests');
  });
});
