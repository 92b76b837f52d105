import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ResultRow } from '../../harness/core/index.ts';
import {
  createBaseline,
  evaluateGate,
  renderGateMarkdown,
  resolveGateThresholds,
  type GateCheck,
  type ResolvedGateThresholds,
} from '../../harness/gate/index.ts';
import { checkScopeNames } from '../../harness/gate/scopes.ts';
import { repoRoot, runCli } from '../support/cli.ts';
import { sharedDefaultRun } from '../support/shared-run.ts';
import { syntheticRows } from '../reports/synthetic.ts';
import { committedBaseline, gateConfig, removeTempDirs, runFixture, tempDir } from './helpers.ts';

/**
 * Thresholds scoped per suite and per arm (docs/ci.md): an arm whose low score is the point of the
 * comparison (spawn-isolated) is exempted from the absolute minimum, not the whole gate loosened.
 */
afterAll(removeTempDirs);

const base: ResolvedGateThresholds = {
  minMean: { correctness: 4.5 },
  maxDrop: 0.25,
  maxTokenGrowthPct: 10,
  maxErrorRate: 0.02,
  minCells: 6,
};
const rows = syntheticRows({
  seed: 5,
  cases: 8,
  reps: 2,
  arms: ['inline', 'summary'],
  suite: 'ledgerline',
  criteria: ['correctness', 'caveat_carrying'],
});
const baseline = createBaseline(rows);
const minMeans = (checks: GateCheck[]) =>
  checks.filter((c) => c.kind === 'min-mean').map((c) => `${c.suite}/${c.arm} ≥ ${c.limit}: ${c.verdict}`);

describe('gate thresholds scoped per suite and arm', () => {
  it('a global minimum applies to every arm', () => {
    const r = evaluateGate(rows, baseline, base);
    expect(minMeans(r.checks)).toEqual([
      'ledgerline/inline ≥ 4.5: regression',
      'ledgerline/summary ≥ 4.5: regression',
    ]);
  });

  it("a suite's exempt arms get no minimum, and the verdict says so", () => {
    const t = { ...base, suites: { ledgerline: { exempt: ['summary'] } } };
    const r = evaluateGate(rows, baseline, resolveGateThresholds(t, 'x.ts'));
    expect(minMeans(r.checks)).toEqual(['ledgerline/inline ≥ 4.5: regression']);
    expect(r.notes).toContainEqual(
      expect.stringMatching(/ledgerline\/summary: exempt from minMean .*gate\.suites\.ledgerline\.exempt/),
    );
    // Every other check of the exempt arm still runs against the baseline.
    expect(
      r.checks
        .filter((c) => c.arm === 'summary')
        .map((c) => c.kind)
        .sort(),
    ).toEqual(['drop', 'drop', 'error-rate', 'token-growth']);
  });

  it('precedence: global < suite < arm < suite.arms.<arm>; a null minimum removes it', () => {
    const t = resolveGateThresholds(
      {
        ...base,
        suites: {
          ledgerline: { minMean: { correctness: 1 }, arms: { summary: { minMean: { correctness: 2 } } } },
        },
        arms: {
          inline: { minMean: { correctness: null, caveat_carrying: 1.5 } },
          summary: { minMean: { correctness: 4.9 } },
        },
      },
      'x.ts',
    );
    const r = evaluateGate(rows, baseline, t);
    expect(minMeans(r.checks).sort()).toEqual([
      'ledgerline/inline ≥ 1.5: pass',
      'ledgerline/summary ≥ 2: pass',
    ]);
    expect(r.verdict).toBe('pass');
  });

  it('maxDrop, maxTokenGrowthPct, maxErrorRate and minCells can be scoped too', () => {
    const run = rows.map((r) =>
      r.arm === 'summary' ? { ...r, handoff_tokens: r.handoff_tokens * 1.5 } : structuredClone(r),
    );
    const global = evaluateGate(run, baseline, { ...base, minMean: {} });
    expect(global.checks.find((c) => c.arm === 'summary' && c.kind === 'token-growth')!.verdict).toBe(
      'regression',
    );
    const scoped = evaluateGate(
      run,
      baseline,
      resolveGateThresholds({ ...base, minMean: {}, arms: { summary: { maxTokenGrowthPct: 60 } } }, 'x.ts'),
    );
    const tokens = scoped.checks.find((c) => c.arm === 'summary' && c.kind === 'token-growth')!;
    expect(tokens).toMatchObject({ verdict: 'pass', limit: 60 });
    expect(scoped.verdict).toBe('pass');
  });

  it('a scope naming a suite or arm in neither the run nor the baseline is a note; a criterion the suite does not score cannot evaluate', () => {
    const t = resolveGateThresholds(
      {
        ...base,
        minMean: {},
        suites: {
          ledgerlien: { maxDrop: 1 },
          ledgerline: { exempt: ['sumary'], minMean: { corectness: 3 } },
        },
        arms: { inlne: { maxDrop: 1 } },
      },
      'x.ts',
    );
    const r = evaluateGate(rows, baseline, t);
    expect(r.verdict).toBe('cannot evaluate');
    const reasons = r.checks.filter((c) => c.verdict === 'cannot evaluate').map((c) => c.reason);
    expect(reasons).toEqual([
      'gate.suites.ledgerline.minMean.corectness: ledgerline does not score corectness',
    ]);
    expect(r.notes).toEqual(
      expect.arrayContaining([
        'gate.suites.ledgerlien: suite ledgerlien is in neither the run nor the baseline; not applied',
        'gate.suites.ledgerline.exempt: arm sumary of suite ledgerline is in neither the run nor the baseline; not applied',
        'gate.arms.inlne: arm inlne is in neither the run nor the baseline; not applied',
      ]),
    );
  });

  it('a subset run: a scoped suite absent from run and baseline is a note (pass); absent from the run only, cannot evaluate naming it', () => {
    const scoped = resolveGateThresholds(
      {
        ...base,
        minMean: {},
        suites: { 'spawn-context': { exempt: ['spawn-isolated'], minMean: { correctness: 2.5 } } },
        arms: { 'spawn-summary': { maxDrop: 1 } },
      },
      'eval.config.ts',
    );
    const subset = evaluateGate(rows, baseline, scoped);
    expect(subset.verdict).toBe('pass');
    expect(subset.checks.filter((c) => c.kind === 'scope')).toEqual([]);
    expect(subset.notes).toContain(
      'gate.suites.spawn-context: suite spawn-context is in neither the run nor the baseline; not applied',
    );
    // The baseline has spawn-context (with spawn-summary), the run does not.
    const other = syntheticRows({
      seed: 6,
      cases: 8,
      reps: 2,
      arms: ['spawn-isolated', 'spawn-summary'],
      suite: 'spawn-context',
      criteria: ['correctness'],
    });
    const wider = createBaseline([...rows, ...other]);
    const r = evaluateGate(rows, wider, scoped);
    expect(r.verdict).toBe('cannot evaluate');
    expect(r.checks.filter((c) => c.kind === 'scope').map((c) => c.reason)).toEqual([
      'gate.suites.spawn-context: suite spawn-context is in the baseline but not in the run: cannot evaluate',
      'gate.arms.spawn-summary: arm spawn-summary is in the baseline but not in the run: cannot evaluate',
    ]);
  });

  it('validates the scoped shape with errors naming the field', () => {
    const bad = (gate: unknown) => () =>
      resolveGateThresholds({ ...base, ...(gate as object) }, 'eval.config.ts');
    expect(bad({ suites: [] })).toThrow(/eval\.config\.ts: gate\.suites: must be an object/);
    expect(bad({ suites: { 'spawn-context': { minMean: { correctness: 9 } } } })).toThrow(
      /gate\.suites\.spawn-context\.minMean\.correctness: must be a number from 1 to 5 or null/,
    );
    expect(bad({ suites: { s: { exempt: 'spawn-isolated' } } })).toThrow(
      /gate\.suites\.s\.exempt: must be an array of arm names/,
    );
    expect(bad({ suites: { s: { maxdrop: 1 } } })).toThrow(
      /gate\.suites\.s\.maxdrop: unknown field; valid: /,
    );
    expect(bad({ suites: { s: { arms: { a: { minCells: 0 } } } } })).toThrow(
      /gate\.suites\.s\.arms\.a\.minCells: must be a positive integer/,
    );
    expect(bad({ arms: { a: { exempt: ['x'] } } })).toThrow(/gate\.arms\.a\.exempt: unknown field/);
    expect(bad({ arms: { a: { maxErrorRate: 3 } } })).toThrow(
      /gate\.arms\.a\.maxErrorRate: must be a number from 0 to 1/,
    );
    expect(bad({ minMean: { correctness: null } })).toThrow(
      /gate\.minMean\.correctness: must be a number from 1 to 5/,
    );
  });
});

describe('validate', () => {
  it('names a scoped threshold whose suite or arm is not among the suites on disk (exit 2)', () => {
    const dir = tempDir('validate');
    const write = (gate: unknown) =>
      writeFileSync(
        join(dir, 'eval.config.ts'),
        `export default ${JSON.stringify({ casesDir: join(repoRoot, 'cases'), gate })};\n`,
      );
    write({ suites: { 'spawn-context': { exempt: ['spawn-isolatd'] } } });
    let r = runCli(['validate'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(
      /ERR .*eval\.config\.ts: gate\.suites\.spawn-context\.exempt: no arm "spawn-isolatd" in suite spawn-context; valid: spawn-isolated/,
    );
    const suites = [{ id: 's', arms: [{ name: 'a' }] }];
    expect(() => checkScopeNames({ ...base, arms: { b: { maxDrop: 1 } } }, suites, 'x.ts')).toThrow(
      /x\.ts: gate\.arms\.b: no arm "b" in any suite; valid: a/,
    );
    expect(() => checkScopeNames({ ...base, suites: { t: {} } }, suites, 'x.ts')).toThrow(
      /gate\.suites\.t: no suite "t"; valid: s/,
    );
    write({ suites: { 'spawn-context': { exempt: ['spawn-isolated'] } } });
    r = runCli(['validate'], { cwd: dir });
    expect(r.code, r.stdout).toBe(0);
  });
});

describe('the shipped config', () => {
  it('baseline then gate on the same unchanged default run passes (exit 0)', async () => {
    // `run --no-cache` of the shipped config through the CLI, made once for the files that read it.
    const dir = await sharedDefaultRun();
    const file = join(tempDir('default'), 'baseline.json');
    expect(runCli(['baseline', dir, '--out', file]).code).toBe(0);
    const gate = runCli(['gate', dir, '--baseline', file], { env: { GITHUB_STEP_SUMMARY: '' } });
    expect(gate.code, gate.stdout).toBe(0);
    expect(gate.stdout).toMatch(/^## handoff-eval gate: pass/);
    // The exemption is visible, not silent.
    expect(gate.stdout).toMatch(/spawn-context\/spawn-isolated: exempt from minMean/);
  }, 900_000);

  it('gates a subset run: run --suite ledgerline, baseline, gate passes (exit 0)', () => {
    const out = tempDir('subset');
    const run = runCli([
      'run',
      '--suite',
      'ledgerline',
      '--reps',
      '1',
      '--out',
      out,
      '--no-cache',
      '--quiet',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const dir = join(out, readdirSync(out)[0]!);
    const file = join(out, 'baseline.json');
    expect(runCli(['baseline', dir, '--out', file]).code).toBe(0);
    const gate = runCli(['gate', dir, '--baseline', file], { env: { GITHUB_STEP_SUMMARY: '' } });
    expect(gate.code, gate.stdout).toBe(0);
    expect(gate.stdout).toMatch(
      /gate\.suites\.spawn-context: suite spawn-context is in neither the run nor the baseline/,
    );
  }, 300_000); // a whole suite through the CLI: minutes on a loaded machine
});

describe('arms whose strategy, params or models differ from the baseline', () => {
  const edited = (edit: (b: ReturnType<typeof createBaseline>) => void) => {
    const b = structuredClone(baseline);
    edit(b);
    return b;
  };
  const summaryArm = (b: ReturnType<typeof createBaseline>) =>
    b.suites[0]!.arms.find((a) => a.arm === 'summary')!;

  it('under likeForLike (gate --like-for-like) are not compared with the baseline: cannot evaluate, with what differs', () => {
    const withParams = (r: ResultRow) => (r.arm === 'summary' ? { ...r, params: { maxTokens: 600 } } : r);
    const b = edited((x) => {
      summaryArm(x).params = { maxTokens: 400 };
    });
    const r = evaluateGate(rows.map(withParams), b, { ...base, minMean: {} }, { likeForLike: true });
    expect(r.verdict).toBe('cannot evaluate');
    const config = r.checks.filter((c) => c.kind === 'config');
    expect(config).toHaveLength(1);
    expect(config[0]).toMatchObject({ arm: 'summary', verdict: 'cannot evaluate' });
    expect(config[0]!.reason).toMatch(/params\.maxTokens 400 → 600/);
    // Nothing of that arm is compared with the baseline; the absolute checks still run.
    expect(
      r.checks
        .filter((c) => c.arm === 'summary')
        .map((c) => c.kind)
        .sort(),
    ).toEqual(['config', 'error-rate']);
    const md = renderGateMarkdown(r);
    expect(md).toMatch(
      /Not like-for-like with the baseline[^]*ledgerline\/summary: params\.maxTokens 400 → 600/,
    );
  });

  it('by default are compared by name, the change listed beside the checks', () => {
    const withParams = (r: ResultRow) => (r.arm === 'summary' ? { ...r, params: { maxTokens: 600 } } : r);
    const b = edited((x) => {
      summaryArm(x).params = { maxTokens: 400 };
    });
    const r = evaluateGate(rows.map(withParams), b, { ...base, minMean: {} });
    expect(r.verdict).toBe('pass');
    const summary = r.checks.filter((c) => c.arm === 'summary');
    expect(summary.map((c) => c.kind).sort()).toEqual([
      'config',
      'drop',
      'drop',
      'error-rate',
      'token-growth',
    ]);
    expect(summary.find((c) => c.kind === 'config')).toMatchObject({
      verdict: 'pass',
      reason: 'changed since the baseline, compared by name: params.maxTokens 400 → 600',
    });
    expect(renderGateMarkdown(r)).toMatch(
      /Changed since the baseline[^]*- ledgerline\/summary: params\.maxTokens 400 → 600/,
    );
  });

  it('a strategy or a per-arm model that differs is listed the same way', () => {
    const b = edited((x) => {
      summaryArm(x).strategy = 'structured-contract';
      x.suites[0]!.arms.find((a) => a.arm === 'inline')!.models!.receiver = ['sim:sim-small'];
    });
    const r = evaluateGate(rows, b, { ...base, minMean: {} });
    const reasons = r.checks.filter((c) => c.kind === 'config').map((c) => `${c.arm}: ${c.reason}`);
    expect(reasons).toEqual([
      expect.stringMatching(/^inline: .*models\.receiver sim:sim-small → sim:sim-large/),
      expect.stringMatching(/^summary: .*strategy structured-contract → summary/),
    ]);
  });

  it('a param present on one side only (a param added since, at its default) is a note, not a failure', () => {
    const run = rows.map((r) => (r.arm === 'summary' ? { ...r, params: { history: 'text' } } : r));
    const r = evaluateGate(run, baseline, { ...base, minMean: {} });
    expect(r.verdict).toBe('pass');
    expect(r.notes).toContainEqual(
      expect.stringMatching(/ledgerline\/summary: params\.history only in the run \("text"\)/),
    );
  });

  it('through the CLI: compared by name (exit 0, the change listed); --like-for-like exit 2', () => {
    const dir = runFixture();
    const b = JSON.parse(readFileSync(committedBaseline, 'utf8'));
    const arm = b.suites[0].arms.find((a: { strategy: string }) => a.strategy === 'brick-only');
    arm.params.resultCap = 400;
    const file = join(tempDir('params'), 'baseline.json');
    writeFileSync(file, JSON.stringify(b));
    const byName = runCli(['gate', dir, '--baseline', file, '--config', gateConfig], {
      env: { GITHUB_STEP_SUMMARY: '' },
    });
    expect(byName.code, byName.stdout).toBe(0);
    expect(byName.stdout).toContain(`${b.suites[0].suite}/${arm.arm}: params.resultCap 400 → 500`);
    const r = runCli(['gate', dir, '--baseline', file, '--config', gateConfig, '--like-for-like'], {
      env: { GITHUB_STEP_SUMMARY: '' },
    });
    expect(r.code, r.stdout).toBe(2);
    expect(r.stdout).toMatch(/^## handoff-eval gate: cannot evaluate/);
    expect(r.stdout).toContain(`${b.suites[0].suite}/${arm.arm}: params.resultCap 400 → 500`);
  });
});
