import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../support/cli.ts';
import {
  committedBaseline,
  gateConfig,
  readRows,
  regressedConfig,
  runFixture,
  removeTempDirs,
  tempDir,
  writeRows,
} from './helpers.ts';

/**
 * The harness's own CI gate: the gate fixture (two small self-contained suites on the sim) run
 * through the real CLI must pass against the committed baseline. When a change moves a strategy's
 * output on purpose, refresh it with `npm run gate:baseline` and review the diff (docs/ci.md).
 */
let runDir: string;
afterAll(removeTempDirs);
beforeAll(() => {
  runDir = runFixture();
});

const gate = (dir: string, o: { baseline?: string; config?: string; env?: NodeJS.ProcessEnv } = {}) =>
  runCli(['gate', dir, '--baseline', o.baseline ?? committedBaseline, '--config', o.config ?? gateConfig], {
    env: { GITHUB_STEP_SUMMARY: '', ...o.env },
  });

/** A copy of the fixture run with its journal edited. */
function doctored(edit: (rows: ReturnType<typeof readRows>) => ReturnType<typeof readRows>): string {
  const dir = join(tempDir('doctored'), 'run');
  cpSync(runDir, dir, { recursive: true });
  writeRows(dir, edit(readRows(dir)));
  return dir;
}

describe('handoff-eval gate against the committed baseline', () => {
  it('passes a fresh run of the gate fixture (exit 0)', () => {
    const r = gate(runDir);
    expect(
      r.code,
      `${r.stdout}\n${r.stderr}\nIf a strategy or the sim changed on purpose: npm run gate:baseline (docs/ci.md)`,
    ).toBe(0);
    expect(r.stdout).toMatch(/^## handoff-eval gate: pass/);
    expect(r.stdout).toMatch(/36 checks: 36 pass, 0 regression, 0 cannot evaluate/);
  });

  it('appends the verdict to $GITHUB_STEP_SUMMARY without overwriting it', () => {
    const file = join(tempDir('summary'), 'step-summary.md');
    writeFileSync(file, '## an earlier step\n\n');
    const r = gate(runDir, { env: { GITHUB_STEP_SUMMARY: file } });
    expect(r.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(`## an earlier step\n\n${r.stdout}`);
  });

  it('fails a strategy that silently loses hedges (exit 1)', () => {
    const r = gate(runFixture([], regressedConfig));
    expect(r.code, r.stdout).toBe(1);
    expect(r.stdout).toMatch(/^## handoff-eval gate: REGRESSION/);
    const failed = r.stdout.split('\n').filter((l) => l.includes('**regression**'));
    expect(failed.length).toBeGreaterThan(0);
    // Only the arms on the degraded strategy fail; inline and full-transcript arms are untouched.
    for (const l of failed)
      expect(l).toMatch(/^\| gate-(return \| brick|escalation \| esc-brick) \| caveat_carrying/);
  });

  it('fails a doctored journal whose handoff grew or whose cells failed (exit 1)', () => {
    const grown = gate(
      doctored((rows) =>
        rows.map((r) =>
          r.arm === 'full-transcript' ? { ...r, handoff_tokens: Math.round(r.handoff_tokens * 1.25) } : r,
        ),
      ),
    );
    expect(grown.code, grown.stdout).toBe(1);
    expect(grown.stdout).toMatch(
      /\| gate-return \| full-transcript \| handoff tokens \(mean\) \| \d+ \| \d+ \| \+2[45]\.\d% \| ≤ \+5% \| \*\*regression\*\*/,
    );
    const failing = gate(
      doctored((rows) =>
        rows.map((r, i) =>
          i === 0 ? { ...r, status: 'error', error: 'planted', error_code: 'internal' } : r,
        ),
      ),
    );
    expect(failing.code, failing.stdout).toBe(1);
    expect(failing.stdout).toMatch(/error rate .*\*\*regression\*\* — 1\/\d+ cells failed/);
  });

  it('cannot evaluate a run of another seed (exit 2), naming the mismatch', () => {
    const r = gate(runFixture(['--seed', '12']));
    expect(r.code).toBe(2);
    expect(r.stdout).toContain('- seed: run 12 vs baseline 11');
  });

  it('cannot evaluate a run missing an arm of the baseline, or with too few cells (exit 2)', () => {
    const partial = gate(doctored((rows) => rows.filter((r) => r.arm !== 'esc-brick')));
    expect(partial.code).toBe(2);
    expect(partial.stdout).toContain(
      '| gate-escalation | esc-brick | cells | 6 | 0 | – | – | **cannot evaluate** — arm in the baseline but not in the run |',
    );
    const dir = tempDir('cfg');
    writeFileSync(join(dir, 'gate.config.ts'), `export default { gate: { minCells: 50 } };\n`);
    const few = gate(runDir, { config: join(dir, 'gate.config.ts') });
    expect(few.code).toBe(2);
    expect(few.stdout).toMatch(/\*\*cannot evaluate\*\* — 8 paired cells < minCells 50/);
  });

  it('cannot evaluate a missing, malformed or other-schema baseline (exit 2, one line naming the file)', () => {
    const dir = tempDir('baselines');
    const text = readFileSync(committedBaseline, 'utf8');
    const cases: [string, string | null, RegExp][] = [
      ['missing.json', null, /missing\.json: not found/],
      [
        'old.json',
        text.replace('handoff-eval/baseline@1', 'handoff-eval/baseline@0'),
        /old\.json: schema: expected "handoff-eval\/baseline@1", got "handoff-eval\/baseline@0"/,
      ],
      [
        'shape.json',
        text.replace('"errorRate": 0,', '"errorRate": "none",'),
        /shape\.json: suites\[0\]\.arms\[0\]\.errorRate: must be number/,
      ],
    ]; // torn JSON and the other shapes: baseline.test.ts
    for (const [name, body, message] of cases) {
      if (body !== null) writeFileSync(join(dir, name), body);
      const r = gate(runDir, { baseline: join(dir, name) });
      expect(r.code, name).toBe(2);
      expect(r.stderr, name).toMatch(message);
      expect(r.stderr.trim().split('\n'), name).toHaveLength(1);
    }
    const noRun = gate(tempDir('empty'));
    expect(noRun.code).toBe(2);
    expect(noRun.stderr).toMatch(/results\.jsonl: not found/);
  });
});

describe('handoff-eval baseline', () => {
  it('rebuilds the committed baseline from a fresh run, up to the run id', () => {
    const out = join(tempDir('baseline'), 'baseline.json');
    const r = runCli(['baseline', runDir, '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/2 suite\(s\), 6 arm\(s\), 42 cells/);
    const strip = (t: string) => t.replace(/"runId": "[^"]*"/, '"runId": "…"');
    expect(
      strip(readFileSync(out, 'utf8')),
      'the committed baseline is stale: npm run gate:baseline (docs/ci.md)',
    ).toBe(strip(readFileSync(committedBaseline, 'utf8')));
  });
});
