import { afterAll, describe, expect, it } from 'vitest';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ResultRow } from '../../harness/core/index.ts';
import { createBaseline, evaluateGate } from '../../harness/gate/index.ts';
import { resolveConfig } from '../../harness/config/resolve-config.ts';
import { loadExperiment } from '../../harness/runner/experiment.ts';
import { gate } from '../../harness/cli/commands/gate.ts';
import { repoRoot, runCli } from '../support/cli.ts';
import { syntheticRows } from '../reports/synthetic.ts';
import { removeTempDirs, tempDir } from './helpers.ts';
import { thresholds } from './thresholds.ts';

/**
 * Issue 27 item 4: a CI user changes a shipped arm's settings from the config (an arm named like the
 * suite's redefines it), and the gate compares the changed arm with the baseline's arm of that name —
 * a drop beyond noise is a regression (exit 1), not "cannot evaluate"; `--like-for-like` restores the
 * strict refusal.
 */
afterAll(removeTempDirs);

describe('the gate and an arm changed since the baseline', () => {
  const spec = { seed: 9, cases: 12, reps: 2, arms: ['inline', 'summary'], suite: 'ledgerline' };
  const before = syntheticRows(spec).map((r) =>
    r.arm === 'summary' ? { ...r, params: { maxTokens: 400 } } : r,
  );
  // The same cells with summary's budget cut: every score one point lower.
  const after = before.map((r): ResultRow =>
    r.arm === 'summary'
      ? { ...r, params: { maxTokens: 200 }, scores: { correctness: Math.max(1, r.scores.correctness! - 1) } }
      : r,
  );

  it('a drop beyond noise of a changed arm is a regression, the change listed', () => {
    const r = evaluateGate(after, createBaseline(before), thresholds);
    expect(r.verdict).toBe('regression');
    const summary = r.checks.filter((c) => c.arm === 'summary');
    expect(summary.find((c) => c.kind === 'drop')).toMatchObject({ verdict: 'regression' });
    expect(summary.find((c) => c.kind === 'config')?.reason).toBe(
      'changed since the baseline, compared by name: params.maxTokens 400 → 200',
    );
  });

  it('--like-for-like: the changed arm is not compared (cannot evaluate)', () => {
    const r = evaluateGate(after, createBaseline(before), thresholds, { likeForLike: true });
    expect(r.verdict).toBe('cannot evaluate');
    expect(r.checks.filter((c) => c.arm === 'summary').map((c) => c.kind)).toEqual(['error-rate', 'config']);
  });
});

describe('a config arm named like a suite arm redefines it', () => {
  const cfg = (extraArms: unknown[]) =>
    resolveConfig({ suites: [{ id: 'ledgerline', extraArms: extraArms as never }] }, {}, 'eval.config.ts');

  it('params merge over the suite arm, strategy and models kept, in the arm’s own place', async () => {
    const [suite] = await loadExperiment(cfg([{ name: 'summary', params: { maxTokens: 200 } }]));
    const names = suite!.arms.map((a) => a.name);
    expect(names).toEqual(['inline', 'full-transcript', 'final-message', 'summary', 'structured-contract']);
    const summary = suite!.arms.find((a) => a.name === 'summary')!;
    expect(summary).toMatchObject({ strategy: 'summary', params: { maxTokens: 200 } });
    expect(summary.models).toEqual(suite!.arms.find((a) => a.name === 'inline')!.models);
  });

  it('another strategy takes only its own params; an added arm must name a strategy; two redefinitions clash', async () => {
    const [s] = await loadExperiment(cfg([{ name: 'summary', strategy: 'inline' }]));
    expect(s!.arms.find((a) => a.name === 'summary')).toMatchObject({ strategy: 'inline', params: {} });
    await expect(loadExperiment(cfg([{ name: 'sumary', params: { maxTokens: 200 } }]))).rejects.toThrow(
      /eval\.config\.ts: suites\[0\]\.extraArms \(sumary\)\.strategy: arm sumary: must name a strategy — or be named like an arm of suite ledgerline to redefine it \(inline, .*summary/,
    );
    await expect(
      loadExperiment(
        cfg([
          { name: 'summary', params: { maxTokens: 200 } },
          { name: 'summary', strategy: 'inline' },
        ]),
      ),
    ).rejects.toThrow(/duplicate arm name "summary"/);
  });

  it('a redefined arm’s params are checked against its strategy', async () => {
    await expect(loadExperiment(cfg([{ name: 'summary', params: { maxTokens: 'x' } }]))).rejects.toThrow(
      /summary.*maxTokens/,
    );
  });
});

describe('through the CLI: the summary arm’s maxTokens cut in the config', () => {
  it('gate exits 1 on the drop; --like-for-like exits 2', async () => {
    const out = tempDir('changed');
    const common = ['--suite', 'ledgerline', '--arm', 'summary', '--reps', '1', '--no-cache', '--quiet'];
    const base = runCli(['run', ...common, '--out', join(out, 'base')]);
    expect(base.code, base.stderr).toBe(0);
    const config = join(out, 'cut.config.ts');
    writeFileSync(
      config,
      `export default { seed: 1, suites: [{ id: 'ledgerline', extraArms: [{ name: 'summary', params: { maxTokens: 200 } }] }], gate: { maxDrop: 0.25 } };\n`,
    );
    const cut = runCli(['run', '--config', config, ...common, '--out', join(out, 'cut')]);
    expect(cut.code, cut.stderr).toBe(0);
    const dir = (d: string) => join(out, d, readdirSync(join(out, d))[0]!);
    const file = join(out, 'baseline.json');
    expect(runCli(['baseline', dir('base'), '--out', file]).code).toBe(0);
    const r = await gate({ dir: dir('cut'), baseline: file, config }, repoRoot);
    expect(r.code, r.markdown).toBe(1);
    expect(r.markdown).toMatch(/summary \| correctness \(drop\) .*\*\*regression\*\*/);
    expect(r.markdown).toContain('- ledgerline/summary: params.maxTokens 400 → 200');
    const strict = await gate({ dir: dir('cut'), baseline: file, config, likeForLike: true }, repoRoot);
    expect(strict.code).toBe(2);
  });
});
