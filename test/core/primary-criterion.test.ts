import { describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveConfig } from '../../harness/config/resolve-config.ts';
import { loadSuite, loadSuites } from '../../cases/load.ts';
import { planCells } from '../../harness/runner/plan.ts';
import { repoRoot, runCli } from '../support/cli.ts';
import type { ResultRow } from '../../harness/core/index.ts';
import type { Summary } from '../../reports/summary/types.ts';

const fixtureCases = join(repoRoot, 'test/fixtures/cases');
const plan = async (user: Parameters<typeof resolveConfig>[0]) => {
  const config = resolveConfig({ casesDir: fixtureCases, reps: 1, ...user }, {}, 'c.ts');
  return planCells(await loadSuites(fixtureCases, 'all'), config);
};

/** A copy of the mini suite whose suite.json is edited by `edit`. */
function miniCopy(edit: (json: Record<string, unknown>) => void): string {
  const dir = mkdtempSync(join(tmpdir(), 'he-primary-'));
  cpSync(join(fixtureCases, 'mini'), join(dir, 'mini'), { recursive: true });
  const file = join(dir, 'mini/suite.json');
  const json = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  edit(json);
  writeFileSync(file, JSON.stringify(json));
  return dir;
}

describe('primaryCriterion: config field, suite.json field, default', () => {
  it("defaults to the suite's first criterion and is recorded on every planned cell", async () => {
    const cells = await plan({});
    expect(new Set(cells.map((c) => c.primaryCriterion))).toEqual(new Set(['correctness']));
  });

  it("suite.json's primaryCriterion is used, and the config overrides it", async () => {
    const dir = miniCopy((j) => (j.primaryCriterion = 'caveat_carrying'));
    const suites = await loadSuites(dir, 'all');
    const own = planCells(suites, resolveConfig({ casesDir: dir, reps: 1 }));
    expect(own[0]!.primaryCriterion).toBe('caveat_carrying');
    const over = planCells(
      suites,
      resolveConfig({ casesDir: dir, reps: 1, primaryCriterion: { mini: 'correctness' } }),
    );
    expect(over[0]!.primaryCriterion).toBe('correctness');
  });

  it('rejects a bad shape, an unknown suite and a criterion the suite does not score, naming the field', async () => {
    expect(() => resolveConfig({ primaryCriterion: 'correctness' as never }, {}, 'c.ts')).toThrow(
      'c.ts: primaryCriterion: must be an object (got "correctness")',
    );
    expect(() => resolveConfig({ primaryCriterion: { mini: 3 } as never }, {}, 'c.ts')).toThrow(
      'c.ts: primaryCriterion.mini: must be a non-empty string (got 3)',
    );
    await expect(plan({ primaryCriterion: { minny: 'correctness' } })).rejects.toThrow(
      'c.ts: primaryCriterion.minny: unknown suite; valid: mini',
    );
    await expect(plan({ primaryCriterion: { mini: 'restraint' } })).rejects.toThrow(
      `c.ts: primaryCriterion.mini: "restraint" is not one of the suite's criteria (correctness, caveat_carrying)`,
    );
  });

  it("rejects a suite.json primaryCriterion that is not one of the suite's criteria", async () => {
    const dir = miniCopy((j) => (j.primaryCriterion = 'restraint'));
    await expect(loadSuite(join(dir, 'mini'))).rejects.toThrow(
      /suite\.json.*primaryCriterion.*"restraint" is not one of/,
    );
  });
});

describe('primaryCriterion through a real run', () => {
  it('rows carry it, report.json builds the primary family on it, and a bad value exits 2', () => {
    const dir = mkdtempSync(join(tmpdir(), 'he-primary-run-'));
    writeFileSync(
      join(dir, 'primary.config.ts'),
      `export default { casesDir: ${JSON.stringify(fixtureCases)}, reps: 2, seed: 7, cache: false, primaryCriterion: { mini: 'caveat_carrying' } };\n`,
    );
    const out = join(dir, 'runs');
    const r = runCli(['run', '--config', join(dir, 'primary.config.ts'), '--out', out, '--quiet']);
    expect(r.code).toBe(0);
    const run = join(out, readdirSync(out)[0]!);
    const rows = readFileSync(join(run, 'results.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as ResultRow);
    expect(rows.every((x) => x.primary_criterion === 'caveat_carrying')).toBe(true);
    const summary = JSON.parse(readFileSync(join(run, 'report.json'), 'utf8')) as Summary;
    const suite = summary.suites[0]!;
    expect(suite.primaryCriterion).toBe('caveat_carrying');
    expect(suite.families.primary!.criteria).toEqual(['caveat_carrying']);
    expect(suite.families.secondary!.criteria).toEqual(['correctness']);
    expect(readFileSync(join(run, 'results.csv'), 'utf8').split('\n')[0]).toContain('primary_criterion');

    writeFileSync(
      join(dir, 'bad.config.ts'),
      `export default { casesDir: ${JSON.stringify(fixtureCases)}, primaryCriterion: { mini: 'restraint' } };\n`,
    );
    const bad = runCli(['run', '--config', join(dir, 'bad.config.ts'), '--out', out, '--quiet']);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim()).toBe(
      `handoff-eval: ${join(dir, 'bad.config.ts')}: primaryCriterion.mini: "restraint" is not one of the suite's criteria (correctness, caveat_carrying)`,
    );
    expect(readdirSync(out)).toHaveLength(1);
  });
});
