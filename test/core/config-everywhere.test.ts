import { afterAll, describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../support/cli.ts';

/**
 * Issue 17: every command honours the config. The fixture config (test/fixtures/honour) defines a
 * strategy, adds an inline arm of it and a sweep to the mini suite, and selects a suite whose own
 * suite.json names the config's strategy.
 */
const config = 'test/fixtures/honour/eval.config.ts';
const caseFile = 'test/fixtures/honour/cases/mini/cases/deprecation-1.json';
const miniArms = [
  'inline',
  'full-transcript',
  'brick',
  'mine',
  'brick-only[resultCap=100]',
  'brick-only[resultCap=400]',
];
const temps: string[] = [];
afterAll(() => temps.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** The dry-run table's (suite, arm) rows. */
const dryArms = (stdout: string) =>
  [...stdout.matchAll(/^\| (\S+) \| (.+?) \| \S+ \| (\d+) \|/gm)]
    .filter((m) => m[1] !== '**total**')
    .map((m) => `${m[1]}/${m[2]}:${m[3]}`);

describe('every command sees the config’s strategies, suites and arms', () => {
  it('render --config renders a strategy only the config defines', () => {
    const r = runCli(['render', '--config', config, '--strategy', 'last-message', caseFile]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('=== last-message {}');
    expect(r.stdout).toContain('[tool result spawn_1]\nTwo merchants pin 2023-10 (m_0007, m_0013)');
  });

  it("render --case/--arm renders a case of the config's suites under a config arm (a sweep's too)", () => {
    const r = runCli([
      'render',
      '--config',
      config,
      '--case',
      'deprecation-1',
      '--suite',
      'mini',
      '--arm',
      'brick-only[resultCap=100]',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { strategy: string; params: Record<string, unknown> };
    expect(out.strategy).toBe('brick-only');
    expect(out.params).toMatchObject({ resultCap: 100, markers: false });
  });

  it('list shows the config’s strategies, its suites with their extra arms, and the arms', () => {
    const strategies = JSON.parse(runCli(['list', 'strategies', '--config', config, '--json']).stdout) as {
      id: string;
      source: string;
    }[];
    expect(strategies.find((s) => s.id === 'last-message')?.source).toBe('config');
    expect(strategies.filter((s) => s.source === 'registered').length).toBeGreaterThanOrEqual(10);
    const suites = JSON.parse(runCli(['list', 'suites', '--config', config, '--json']).stdout) as {
      id: string;
      arms: string[];
    }[];
    expect(suites.map((s) => s.id)).toEqual(['mini', 'own']);
    expect(suites[0]!.arms).toEqual(miniArms);
    const arms = runCli(['list', 'arms', '--config', config, '--suite', 'own', '--json']);
    expect((JSON.parse(arms.stdout) as { id: string }[]).map((a) => a.id)).toEqual([
      'own/inline',
      'own/last',
    ]);
  });

  it('validate accepts the suite run accepts (its arm names a config strategy)', () => {
    const v = runCli(['validate', '--config', config]);
    expect(v.code, v.stdout + v.stderr).toBe(0);
    expect(v.stdout).toContain('ok  test/fixtures/honour/cases/own/suite.json (1 cases, 2 arms)');
    expect(v.stdout).toContain('ok  test/fixtures/honour/cases/mini/suite.json (1 cases, 6 arms)');
    const run = runCli(['run', '--dry-run', '--config', config, '--suite', 'own']);
    expect(run.code, run.stderr).toBe(0);
    expect(dryArms(run.stdout)).toEqual(['own/inline:1', 'own/last:1']);
  });

  it('--suite keeps the config’s extra arms for that suite', () => {
    const r = runCli(['run', '--dry-run', '--config', config, '--suite', 'mini']);
    expect(r.code, r.stderr).toBe(0);
    expect(dryArms(r.stdout)).toEqual(miniArms.map((a) => `mini/${a}:1`));
  });

  it('list flags take comma lists, alone or repeated; --case filters cases; unknown ones list the valid', () => {
    const r = runCli([
      'run',
      '--dry-run',
      '--config',
      config,
      '--suite',
      'mini,own',
      '--arm',
      'inline,mine',
      '--arm',
      'last',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(dryArms(r.stdout)).toEqual(['mini/inline:1', 'mini/mine:1', 'own/inline:1', 'own/last:1']);
    const cases = runCli([
      'run',
      '--dry-run',
      '--config',
      'test/fixtures/eval.config.ts',
      '--case',
      'deprecation-1',
    ]);
    expect(cases.code, cases.stderr).toBe(0);
    expect(cases.stdout).toMatch(/: 6 cells;/); // 1 case × 3 arms × 2 reps
    const twice = runCli(['run', '--dry-run', '--config', config, '--suite', 'mini,own', '--suite', 'mini']);
    expect(twice.code).toBe(2);
    expect(twice.stderr.trim()).toBe('handoff-eval: --suite: suite "mini" is given twice');
    const unknown = runCli(['run', '--dry-run', '--config', config, '--case', 'nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/--case: unknown case "nope"; valid: deprecation-1/);
  });

  it('--version prints the harness version', () => {
    const r = runCli(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(JSON.parse(readFileSync('package.json', 'utf8')).version);
  });
});

describe('validate reports every problem', () => {
  it('every bad case and every bad arm of a suite, not the first per suite', () => {
    const dir = mkdtempSync(join(tmpdir(), 'validate-all-'));
    temps.push(dir);
    cpSync('test/fixtures/cases/mini', join(dir, 'mini'), { recursive: true });
    const good = JSON.parse(readFileSync(join(dir, 'mini/cases/deprecation-1.json'), 'utf8'));
    writeFileSync(
      join(dir, 'mini/cases/no-task.json'),
      JSON.stringify({ ...good, id: 'no-task', task: undefined }),
    );
    writeFileSync(
      join(dir, 'mini/cases/bad-cues.json'),
      JSON.stringify({ ...good, id: 'bad-cues', assertions: [{ ...good.assertions[0], cues: ['m_9999'] }] }),
    );
    writeFileSync(join(dir, 'mini/cases/broken.json'), '{"id": ');
    const suite = JSON.parse(readFileSync(join(dir, 'mini/suite.json'), 'utf8'));
    suite.arms.push(
      { name: 'typo', strategy: 'brick-onyl', models: { source: 'large', receiver: 'large' } },
      {
        name: 'bad-params',
        strategy: 'brick-only',
        params: { resultCap: 'lots', marker: true },
        models: { source: 'large', receiver: 'huge' },
      },
    );
    writeFileSync(join(dir, 'mini/suite.json'), JSON.stringify(suite));
    const r = runCli(['validate', dir]);
    expect(r.code).toBe(2);
    const errors = r.stdout.split('\n').filter((l) => l.startsWith('ERR '));
    expect(errors).toHaveLength(7);
    const all = errors.join('\n');
    expect(all).toMatch(/arms\.typo: unknown strategy "brick-onyl"; valid: /);
    expect(all).toMatch(/arms\.bad-params\.params\.resultCap: must be a number \(got "lots"\)/);
    expect(all).toMatch(/arms\.bad-params\.params\.marker: unknown param; valid: /);
    expect(all).toMatch(/arms\.bad-params\.models\.receiver: unknown model alias "huge"/);
    expect(all).toMatch(/no-task\.json \(case no-task\): task: must have required property 'task'/);
    expect(all).toMatch(
      /bad-cues\.json \(case bad-cues\): assertions\[0\]\.claim: does not contain all of its cues/,
    );
    expect(all).toMatch(/broken\.json: \(file\): not valid JSON/);
    expect(r.stderr).toMatch(/7 problem\(s\) in 1 checked item\(s\)/);
  });
});
