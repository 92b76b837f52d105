import { afterEach, describe, expect, it, vi } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../harness/cli/main.ts';
import { shardOf } from '../../harness/runner/shard.ts';
import { repoRoot, runCli } from '../support/cli.ts';

/**
 * Every numeric flag is checked like the config field it overrides — integer, range — and a bad one
 * exits 2 with one line naming the flag, before anything is planned or written. A plan with no cells
 * exits 2 and names why.
 */
async function cli(args: string[]): Promise<{ code: number; stderr: string }> {
  let stderr = '';
  const err = vi
    .spyOn(process.stderr, 'write')
    .mockImplementation((chunk) => ((stderr += String(chunk)), true));
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  try {
    const code = await main(args);
    return { code, stderr };
  } finally {
    err.mockRestore();
    out.mockRestore();
  }
}
afterEach(() => vi.restoreAllMocks());

const fixtureCase = join(repoRoot, 'test/fixtures/cases/mini/cases/deprecation-1.json');
const config = join(repoRoot, 'test/fixtures/eval.config.ts');

describe('numeric flags', () => {
  const bad: [string[], string][] = [
    [['--concurrency', '0'], '--concurrency: must be a positive integer (got 0)'],
    [['--concurrency', '-1'], '--concurrency: must be a positive integer (got -1)'],
    [['--concurrency', 'abc'], '--concurrency: must be a positive integer (got abc)'],
    [['--reps', '1.5'], '--reps: must be a positive integer (got 1.5)'],
    [['--reps', '0'], '--reps: must be a positive integer (got 0)'],
    [['--reps', ''], '--reps: must be a positive integer (got nothing)'],
    [['--seed', 'x'], '--seed: must be an integer (got x)'],
    [['--seed', '1.5'], '--seed: must be an integer (got 1.5)'],
    [['--seed', '1e400'], '--seed: must be an integer (got 1e400)'],
  ];
  it.each(bad)('run %j exits 2 naming the flag, writing nothing', async (flags, message) => {
    const out = mkdtempSync(join(tmpdir(), 'he-flags-'));
    const r = await cli(['run', '--config', config, '--out', out, '--quiet', ...flags]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(`handoff-eval: ${message}`);
    expect(readdirSync(out)).toEqual([]);
  });

  it('the last of a repeated flag is checked', async () => {
    const r = await cli(['run', '--config', config, '--reps', '2', '--reps', '0.5', '--dry-run']);
    expect(r.stderr.trim()).toBe('handoff-eval: --reps: must be a positive integer (got 0.5)');
  });

  it('valid values pass, written any way an integer can be', async () => {
    const r = await cli([
      'run',
      '--config',
      config,
      '--reps',
      '1',
      '--seed',
      '-3',
      '--concurrency',
      '+2',
      '--dry-run',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  const renderBad: [string[], string][] = [
    [['--budget-tokens', '0'], '--budget-tokens: must be a positive integer (got 0)'],
    [['--rep', '-1'], '--rep: must be a non-negative integer (got -1)'],
    [['--rep', '0.5'], '--rep: must be a non-negative integer (got 0.5)'],
    [['--seed', 'abc'], '--seed: must be an integer (got abc)'],
  ];
  it.each(renderBad)('render %j exits 2 naming the flag', async (flags, message) => {
    const r = await cli(['render', '--strategy', 'inline', fixtureCase, ...flags]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(`handoff-eval: ${message}`);
  });

  // Flags added after issue 13's check (live mode, check-strategy) are checked the same way: yargs'
  // number type would have let `abc` through as NaN and blamed the config file for it.
  const laterBad: [string[], string][] = [
    [
      ['run', '--config', config, '--mode', 'live', '--source-tool-budget', '1.5', '--dry-run'],
      '--source-tool-budget: must be a positive integer (got 1.5)',
    ],
    [
      ['run', '--config', config, '--mode', 'live', '--source-tool-budget', 'abc', '--dry-run'],
      '--source-tool-budget: must be a positive integer (got abc)',
    ],
    [
      ['check-strategy', '--strategy', 'inline', '--generated', '1.5'],
      '--generated: must be a non-negative integer (got 1.5)',
    ],
    [['check-strategy', '--strategy', 'inline', '--seed', 'x'], '--seed: must be an integer (got x)'],
  ];
  it.each(laterBad)('%j exits 2 naming the flag', async (...[args, message]) => {
    const r = await cli(args);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(`handoff-eval: ${message}`);
  });

  it('import --sample must be a non-negative integer', async () => {
    const r = await cli(['import', fixtureCase, '--sample', '1.5']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe('handoff-eval: --sample: must be a non-negative integer (got 1.5)');
  });

  it('through the real CLI, too', () => {
    const r = runCli(['run', '--config', 'test/fixtures/eval.config.ts', '--concurrency', '0', '--quiet']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe('handoff-eval: --concurrency: must be a positive integer (got 0)');
  });
});

describe('zero cells to run', () => {
  it('a config whose cases directory holds no suite exits 2 naming the config, writing nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'he-nocells-'));
    mkdirSync(join(dir, 'cases'));
    const file = join(dir, 'eval.config.ts');
    writeFileSync(file, `export default { casesDir: ${JSON.stringify(join(dir, 'cases'))}, reps: 1 };\n`);
    const out = join(dir, 'runs');
    const r = await cli(['run', '--config', file, '--out', out, '--quiet']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(
      `handoff-eval: ${file}: suites: no cells to run (no suites or cases under "${join(dir, 'cases')}", or every arm filtered out)`,
    );
    expect(existsSync(out) ? readdirSync(out) : []).toEqual([]);
  });

  it('a shard that holds no planned cell exits 2 naming --shard', async () => {
    const ids = ['inline', 'full-transcript', 'brick'].flatMap((a) =>
      [0, 1].map((r) => `mini/deprecation-1/${a}/${r}`),
    );
    const n = 1000;
    const empty = [...Array(n).keys()]
      .map((i) => i + 1)
      .find((i) => ids.every((id) => shardOf(id, n) !== i))!;
    const out = mkdtempSync(join(tmpdir(), 'he-shard-'));
    const r = await cli(['run', '--config', config, '--out', out, '--quiet', '--shard', `${empty}/${n}`]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(
      `handoff-eval: --shard ${empty}/${n}: none of the 6 planned cells falls in this shard`,
    );
    expect(readdirSync(out)).toEqual([]);
  });
});
