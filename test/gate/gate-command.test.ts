import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createBaseline, renderBaseline } from '../../harness/gate/index.ts';
import { gate } from '../../harness/cli/commands/gate.ts';
import { InputError } from '../../harness/core/errors.ts';
import { syntheticRows } from '../reports/synthetic.ts';
import { removeTempDirs, tempDir, writeRows } from './helpers.ts';

/**
 * The gate command in-process (issue 27 item 5, issue 32 item 2): it says which config its thresholds
 * came from, and refuses to gate with none unless `--thresholds default` asks for the defaults.
 */
afterAll(removeTempDirs);

const rows = syntheticRows({ seed: 3, cases: 8, reps: 2, arms: ['inline', 'summary'], suite: 'ledgerline' });

function fixture(): { cwd: string; dir: string; baseline: string } {
  const cwd = tempDir('cmd');
  const dir = join(cwd, 'run');
  mkdirSync(dir);
  writeRows(dir, rows);
  const baseline = join(cwd, 'baseline.json');
  writeFileSync(baseline, renderBaseline(createBaseline(rows)));
  return { cwd, dir, baseline };
}

describe('gate: which thresholds', () => {
  it('refuses with no config in the working directory, naming it and the way out', async () => {
    const f = fixture();
    const err = await gate({ dir: f.dir, baseline: f.baseline }, f.cwd).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as Error).message).toBe(
      `gate: no config file in ${f.cwd} (eval.config.ts, .mts, .js or .mjs): the thresholds come from its \`gate\` section. Name it with --config <file>, or gate with the default thresholds with --thresholds default`,
    );
  });

  it('--thresholds default gates on the defaults and says so; it takes no --config', async () => {
    const f = fixture();
    const r = await gate({ dir: f.dir, baseline: f.baseline, thresholds: 'default' }, f.cwd);
    expect(r.code).toBe(0);
    expect(r.thresholdsFrom).toBe('the default thresholds (--thresholds default)');
    expect(r.markdown).toContain(
      'Thresholds (from the default thresholds (--thresholds default)): min mean –',
    );
    await expect(
      gate({ dir: f.dir, baseline: f.baseline, thresholds: 'default', config: 'x.ts' }, f.cwd),
    ).rejects.toThrow(/--thresholds default: takes no --config/);
    await expect(gate({ dir: f.dir, baseline: f.baseline, thresholds: 'defaults' }, f.cwd)).rejects.toThrow(
      /--thresholds: must be config or default \(got defaults\)/,
    );
  });

  it('names the config it read: the working directory’s, or --config', async () => {
    const f = fixture();
    writeFileSync(
      join(f.cwd, 'eval.config.ts'),
      'export default { gate: { minMean: { correctness: 5 } } };\n',
    );
    const r = await gate({ dir: f.dir, baseline: f.baseline }, f.cwd);
    expect(r.thresholdsFrom).toBe(join(f.cwd, 'eval.config.ts'));
    expect(r.markdown).toContain(
      `Thresholds (from ${join(f.cwd, 'eval.config.ts')}): min mean correctness ≥ 5`,
    );
    expect(r.code).toBe(1);
    writeFileSync(join(f.cwd, 'other.config.ts'), 'export default { gate: { maxDrop: 1 } };\n');
    const other = await gate({ dir: f.dir, baseline: f.baseline, config: 'other.config.ts' }, f.cwd);
    expect(other.thresholdsFrom).toBe(join(f.cwd, 'other.config.ts'));
    expect(other.code).toBe(0);
  });
});
