import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../support/cli.ts';
import { checkSameExperiment } from '../../harness/gate/index.ts';
import { InputError } from '../../harness/core/errors.ts';
import { committedBaseline, gateConfig, readRows, removeTempDirs, runFixture, tempDir } from './helpers.ts';

/**
 * `run --shard i/n` + `merge`: three shard runs of the gate fixture, merged, give the unsharded run's
 * reports byte for byte — but for the run id, which names a run and so differs between any two runs.
 */
let whole: string;
let shards: string[];
afterAll(removeTempDirs);
beforeAll(() => {
  whole = runFixture();
  shards = [1, 2, 3].map((i) => runFixture(['--shard', `${i}/3`]));
});

const merge = (dirs: string[], out: string, extra: string[] = []) =>
  runCli(['merge', ...dirs, '--out', out, '--config', gateConfig, ...extra]);
const runIdOf = (dir: string) =>
  (JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as { runId: string }).runId;
/** A report's text with its run id replaced: the one thing two runs of the same experiment cannot share. */
const report = (dir: string, file: string) =>
  readFileSync(join(dir, file), 'utf8').replaceAll(runIdOf(dir), '<run-id>');

describe('run --shard i/n, then merge', () => {
  it('splits the cells across the shards, each once', () => {
    const ids = shards.map((d) => readRows(d).map((r) => r.cell_id));
    const union = ids.flat();
    expect(ids.every((s) => s.length > 0)).toBe(true);
    expect(new Set(union).size).toBe(union.length);
    expect([...union].sort()).toEqual(
      readRows(whole)
        .map((r) => r.cell_id)
        .sort(),
    );
  });

  it('merges into a run whose reports equal the unsharded run’s, in any argument order', () => {
    const out = join(tempDir('merged'), 'merged-run');
    const r = merge(shards, out);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /merged 3 run\(s\): 1\/3 \(\d+ rows\), 2\/3 \(\d+ rows\), 3\/3 \(\d+ rows\) → 42 cells, 0 duplicate/,
    );
    expect(runIdOf(out)).toBe('merged-run');
    for (const f of ['report.json', 'report.md', 'results.csv', 'report.html'])
      expect(report(out, f), f).toBe(report(whole, f));
    expect(readRows(out).every((row) => row.run_id === 'merged-run')).toBe(true);
    const calls = (dir: string) => report(dir, 'calls.jsonl').trim().split('\n').sort();
    expect(calls(out)).toEqual(calls(whole));

    const reversed = join(tempDir('merged'), 'merged-run');
    expect(merge([...shards].reverse(), reversed).code).toBe(0);
    for (const f of ['report.json', 'results.jsonl', 'calls.jsonl'])
      expect(readFileSync(join(reversed, f), 'utf8'), f).toBe(readFileSync(join(out, f), 'utf8'));

    const g = runCli(['gate', out, '--baseline', committedBaseline, '--config', gateConfig], {
      env: { GITHUB_STEP_SUMMARY: '' },
    });
    expect(g.code, g.stdout).toBe(0);
  });

  it('drops cells journalled by two shards, keeping one row each', () => {
    const out = join(tempDir('dups'), 'merged-dups');
    const r = merge([shards[0]!, ...shards, shards[1]!], out);
    expect(r.code, r.stderr).toBe(0);
    const dups = readRows(shards[0]!).length + readRows(shards[1]!).length;
    expect(r.stdout).toContain(`42 cells, ${dups} duplicate row(s) dropped`);
    expect(report(out, 'report.json')).toBe(report(whole, 'report.json'));
  });

  it('refuses a missing shard (exit 2) unless --allow-missing; run --resume then completes the merged run', () => {
    const refused = merge(shards.slice(0, 2), join(tempDir('missing'), 'run'));
    expect(refused.code).toBe(2);
    const missing = readRows(shards[2]!).length;
    expect(refused.stderr).toMatch(
      new RegExp(`merge: ${missing} planned cell\\(s\\) are in no shard: gate-`),
    );

    const out = join(tempDir('partial'), 'merged-partial');
    const allowed = merge(shards.slice(0, 2), out, ['--allow-missing']);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(allowed.stderr).toContain(`merge: ${missing} planned cell(s) missing:`);
    expect(readRows(out)).toHaveLength(42 - missing);
    const resumed = runCli(['run', '--config', gateConfig, '--resume', out, '--quiet']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(readRows(out)).toHaveLength(42);
    expect(report(out, 'report.json')).toBe(report(whole, 'report.json'));
  });

  it('refuses shards of another experiment (exit 2), naming the field', () => {
    const otherSeed = runFixture(['--shard', '3/3', '--seed', '12']);
    const r = merge([shards[0]!, shards[1]!, otherSeed], join(tempDir('mismatch'), 'run'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/is not the same experiment as .*: seed \(11 vs 12\)/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('refuses an --out that already holds files, and a directory that is not a run', () => {
    const taken = tempDir('taken');
    writeFileSync(join(taken, 'x'), '');
    expect(merge(shards, taken).stderr).toMatch(/--out: .* exists and is not empty/);
    const notRun = tempDir('not-run');
    mkdirSync(join(notRun, 'r'));
    writeFileSync(join(notRun, 'r', 'results.jsonl'), '');
    const r = merge([join(notRun, 'r')], join(tempDir('o'), 'run'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/config\.json: not found/);
    expect(readdirSync(taken)).toEqual(['x']);
  });
});

describe('checkSameExperiment', () => {
  const config = {
    harnessVersion: '0.1.0',
    suites: 'all',
    arms: 'all',
    reps: 2,
    seed: 11,
    provider: { source: 'sim', receiver: 'sim', judge: 'sim' },
    models: { large: { sim: 'sim-large' } },
    judge: { model: 'judge', samples: 1 },
    budgetTokens: 200000,
    sim: {},
    prices: {},
  };
  const shard = (dir: string, over: Record<string, unknown>, s = { index: 1, count: 3 }) => ({
    dir,
    config: { ...config, ...over },
    shard: s,
  });

  it('accepts the same experiment whatever the key order, and names every differing field', () => {
    const reordered = Object.fromEntries(Object.entries(config).reverse());
    expect(() =>
      checkSameExperiment([shard('a', {}), { dir: 'b', config: reordered, shard: { index: 2, count: 3 } }]),
    ).not.toThrow();
    expect(() =>
      checkSameExperiment([
        shard('a', {}),
        shard('b', { reps: 3, models: { large: { sim: 'sim-small' } }, harnessVersion: '0.2.0' }),
      ]),
    ).toThrow(
      /b is not the same experiment as a: harnessVersion \(0\.1\.0 vs 0\.2\.0\), reps \(2 vs 3\), models \(\{"large":\{"sim":"sim-large"\}\} vs \{"large":\{"sim":"sim-small"\}\}\)$/,
    );
    expect(() => checkSameExperiment([shard('a', {}), shard('b', {}, { index: 2, count: 4 })])).toThrow(
      /shard count \(3 vs 4\)/,
    );
    expect(() =>
      checkSameExperiment([shard('a', {}), shard('b', { judge: { model: 'judge', samples: 3 } })]),
    ).toThrow(InputError);
  });
});
