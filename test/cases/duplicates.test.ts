import { describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, readdirSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot, runCli } from '../support/cli.ts';

/**
 * Two arms of one name, or two cases of one id, in a suite make two plans' worth of cells share ids:
 * the journal got 621 rows for 528 cells and the reports disagreed about duplicates. `validate` and
 * `run` reject them (exit 2), naming both places.
 */
function project(config: Record<string, unknown> = {}): { dir: string; suite: string; cases: string } {
  const dir = mkdtempSync(join(tmpdir(), 'he-dup-'));
  cpSync(join(repoRoot, 'test/fixtures/cases/mini'), join(dir, 'cases/mini'), { recursive: true });
  writeFileSync(
    join(dir, 'eval.config.ts'),
    `export default ${JSON.stringify({ casesDir: 'cases', cache: false, reps: 1, ...config })};\n`,
  );
  return { dir, suite: join('cases', 'mini', 'suite.json'), cases: join('cases', 'mini', 'cases') };
}

/** `validate` lists a suite's problem as an ERR line; a config it cannot resolve fails as run does. */
function expectRejected(dir: string, message: string, validateOutput: 'list' | 'config' = 'list') {
  const run = runCli(['run', '--out', join(dir, 'runs'), '--quiet'], { cwd: dir });
  expect(run.code, run.stderr).toBe(2);
  expect(run.stderr.trim()).toBe(`handoff-eval: ${message}`);
  expect(existsSync(join(dir, 'runs')) ? readdirSync(join(dir, 'runs')) : []).toEqual([]);
  const validate = runCli(['validate'], { cwd: dir });
  expect(validate.code).toBe(2);
  if (validateOutput === 'list') expect(validate.stdout).toContain(`ERR ${message}`);
  else expect(validate.stderr.trim()).toBe(`handoff-eval: ${message}`);
}

describe('duplicates are rejected, naming both places', () => {
  it('two arms of one name in suite.json', () => {
    const p = project();
    const file = join(p.dir, p.suite);
    const suite = JSON.parse(readFileSync(file, 'utf8'));
    suite.arms.push({ ...suite.arms[0], strategy: 'full-transcript' });
    writeFileSync(file, JSON.stringify(suite));
    expectRejected(p.dir, `${p.suite}: arms[3].name: duplicate arm name "inline" (also arms[0].name)`);
  });

  it('two config arms of one name in a suite (one named like a suite arm redefines it: docs/config.md)', () => {
    const p = project({
      suites: [
        {
          id: 'mini',
          extraArms: [
            { name: 'brick', strategy: 'inline' },
            { name: 'brick', strategy: 'full-transcript' },
          ],
        },
      ],
    });
    expectRejected(
      p.dir,
      `${join(p.dir, 'eval.config.ts')}: suites[0].extraArms[1].name: duplicate arm name "brick" in suite mini (also ${join(p.dir, 'eval.config.ts')}: suites[0].extraArms[0].name)`,
    );
  });

  it('two case files with one case id', () => {
    const p = project();
    cpSync(join(p.dir, p.cases, 'deprecation-1.json'), join(p.dir, p.cases, 'deprecation-2.json'));
    expectRejected(
      p.dir,
      `${join(p.cases, 'deprecation-2.json')} (case deprecation-1): id: duplicate case id in suite mini (also ${join(p.cases, 'deprecation-1.json')})`,
    );
  });

  it('a suite selected twice', () => {
    const p = project({ suites: ['mini', { id: 'mini' }] });
    expectRejected(
      p.dir,
      `${join(p.dir, 'eval.config.ts')}: suites[1]: suite "mini" is selected twice (also suites[0])`,
      'config',
    );
    const flag = runCli(['run', '--suite', 'mini', '--suite', 'mini', '--quiet'], { cwd: project().dir });
    expect(flag.code).toBe(2);
    expect(flag.stderr.trim()).toBe('handoff-eval: --suite: suite "mini" is given twice');
  });

  it('the shipped suites have none (validate passes)', () => {
    const r = runCli(['validate']);
    expect(r.code, r.stdout).toBe(0);
  });
});
