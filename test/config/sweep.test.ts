import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  defineStrategy,
  finishHandoff,
  framings,
  replayable,
  resolveConfig,
  sweep,
} from '../../harness/index.ts';
import { ConfigError, InputError } from '../../harness/core/errors.ts';
import { runExperiment } from '../../harness/runner/run.ts';
import { summarize } from '../../reports/summarize.ts';
import { renderMarkdown } from '../../reports/markdown.ts';
import { renderHtml } from '../../reports/html/page.ts';
import { runCli } from '../support/cli.ts';

const temps: string[] = [];
const temp = (p: string) => (temps.push(mkdtempSync(join(tmpdir(), p))), temps[temps.length - 1]!);
afterAll(() => temps.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('sweep()', () => {
  it('gives one arm per combination, named deterministically, the last key varying fastest', () => {
    const arms = sweep('brick-only', { resultCap: [250, 500, 1500], markers: [false, true] });
    expect(arms.map((a) => a.name)).toEqual([
      'brick-only[resultCap=250,markers=false]',
      'brick-only[resultCap=250,markers=true]',
      'brick-only[resultCap=500,markers=false]',
      'brick-only[resultCap=500,markers=true]',
      'brick-only[resultCap=1500,markers=false]',
      'brick-only[resultCap=1500,markers=true]',
    ]);
    expect(arms[3]).toEqual({
      name: 'brick-only[resultCap=500,markers=true]',
      strategy: 'brick-only',
      params: { resultCap: 500, markers: true },
    });
    expect(
      sweep(
        'brick-only',
        { markers: [true] },
        { base: { framing: 'continuity' }, name: 'b', models: { source: 'small', receiver: 'large' } },
      ),
    ).toEqual([
      {
        name: 'b[markers=true]',
        strategy: 'brick-only',
        params: { framing: 'continuity', markers: true },
        models: { source: 'small', receiver: 'large' },
      },
    ]);
  });

  it('rejects a grid whose arms could not be named or read back', () => {
    expect(() => sweep('brick-only', {})).toThrow(/sweep\(brick-only\): the grid names no param/);
    expect(() => sweep('brick-only', { resultCap: [] })).toThrow(
      /resultCap: needs an array of at least one value/,
    );
    expect(() => sweep('brick-only', { framing: ['a,b'] })).toThrow(
      /value "a,b" is empty or holds , = \[ or \]/,
    );
    expect(() => sweep('brick-only', { resultCap: [500, 500] })).toThrow(/value "500" given twice/);
    expect(() => sweep('brick-only', { resultCap: [500] })).not.toThrow();
    expect(() => sweep('brick-only', { resultCap: [{}] as never })).toThrow(InputError);
  });

  it("checks each swept value against the strategy's param spec when the config resolves, naming the field", () => {
    const at = (arms: unknown) => () =>
      resolveConfig({ suites: [{ id: 'milk', extraArms: arms as never }] }, {}, 'eval.config.ts');
    expect(at([sweep('brick-only', { resultCap: ['lots'] })])).toThrow(
      'eval.config.ts: suites[0].extraArms[0][0].params.resultCap: arm brick-only[resultCap=lots]: must be a number (got "lots")',
    );
    expect(at([sweep('brick-only', { resultCapp: [5] })])).toThrow(
      /suites\[0\]\.extraArms\[0\]\[0\]\.params\.resultCapp: .*unknown param; valid: resultCap, /,
    );
    expect(at([sweep('brick-only', { framing: ['owner'] })])).toThrow(
      /params\.framing: .*must be one of handoff, continuity \(got "owner"\)/,
    );
    expect(at([sweep('no-such', { n: [1] })])).toThrow(
      /suites\[0\]\.extraArms\[0\]\[0\] \(no-such\[n=1\]\): strategy: unknown strategy "no-such"; valid: /,
    );
    expect(
      at([sweep('brick-only', { markers: [true] }, { models: { source: 'small', receiver: 'huge' } })]),
    ).toThrow(ConfigError);
    const ok = resolveConfig({
      suites: [{ id: 'milk', arms: ['milk-auto', sweep('brick-only', { markers: [false, true] })] }],
    });
    expect(ok.suites).toEqual([
      {
        id: 'milk',
        arms: ['milk-auto', 'brick-only[markers=false]', 'brick-only[markers=true]'],
        extraArms: sweep('brick-only', { markers: [false, true] }),
      },
    ]);
  });
});

describe('a run with a sweep', () => {
  it('builds each deterministic handoff once per case × swept arm, and reports the parameter response', async () => {
    let prepared = 0;
    const counted = defineStrategy({
      name: 'counted',
      description: 'Counts its preparations (deterministic, the own replay of the source).',
      seed: 'test',
      deterministic: true,
      params: {
        k: { type: 'number', default: 1, description: 'swept, unused' },
        label: { type: 'enum', values: ['a', 'b'], default: 'a', description: 'swept, unused' },
      },
      async prepare(ctx) {
        prepared++;
        return finishHandoff(ctx, {
          system: framings.parent,
          messages: replayable(ctx.case.source.messages),
        });
      },
    });
    const dir = temp('sweep-run-');
    const config = resolveConfig({
      casesDir: 'test/fixtures/cases',
      outDir: dir,
      reps: 3,
      cache: false,
      strategies: { counted },
      suites: [{ id: 'mini', arms: ['inline', sweep('counted', { k: [1, 2, 3], label: ['a', 'b'] })] }],
    });
    const outcome = await runExperiment({ config });
    expect(outcome.rows).toHaveLength(1 * 7 * 3);
    expect(prepared).toBe(1 * 6); // once per case × arm, not per rep
    const suite = summarize(outcome.rows).suites[0]!;
    expect(suite.sweeps).toHaveLength(1);
    const s = suite.sweeps![0]!;
    expect(s).toMatchObject({ base: 'counted', strategy: 'counted', criterion: 'correctness' });
    expect(
      s.params.map((p) => [p.param, p.points.map((v) => `${v.value}:${v.arms.length}:${v.cells}`)]),
    ).toEqual([
      ['k', ['1:2:6', '2:2:6', '3:2:6']],
      ['label', ['a:3:9', 'b:3:9']],
    ]);
    for (const v of s.params.flatMap((p) => p.points)) {
      expect(v.score?.n).toBe(v.cells);
      expect(v.handoffTokens!.mean).toBeGreaterThan(0);
      expect(v.payloadSurvival!.mean).toBeGreaterThanOrEqual(0);
      expect(v.payloadSurvival!.mean).toBeLessThanOrEqual(1);
    }
    const md = renderMarkdown(summarize(outcome.rows));
    expect(md).toContain('### Parameter response: `counted` (counted, 6 swept arms)');
    expect(md).toMatch(/\| k \| 2 \| 2 \| 6 \| \d\.\d\d( \[[\d.]+, [\d.]+\])? \| [\d,]+/);
    const html = renderHtml(summarize(outcome.rows), outcome.rows);
    expect(html).toContain('counted: score by swept value (mean, 95% CI clustered by case)');
    expect(html).toMatch(/<svg[^>]*aria-label="counted: handoff tokens by swept value/);
    // Two cases whose scores sit at the scale's two ends: the t interval on 1 df runs far past 1–5
    // (and the tokens' below 0); the section reports the part the scale allows, as the main tables do.
    const spread = outcome.rows.flatMap((r) => [
      { ...r, scores: { ...r.scores, correctness: 5 }, handoff_tokens: 10 },
      {
        ...r,
        case_id: `${r.case_id}-2`,
        cell_id: r.cell_id.replace(r.case_id, `${r.case_id}-2`),
        scores: { ...r.scores, correctness: 1 },
        handoff_tokens: 9000,
      },
    ]);
    const points = summarize(spread).suites[0]!.sweeps![0]!.params.flatMap((p) => p.points);
    for (const v of points) {
      expect(v.score!.ci![0]).toBe(1);
      expect(v.score!.ci![1]).toBe(5);
      expect(v.handoffTokens!.ci![0]).toBe(0);
    }
    // a run without a sweep carries no such section
    const plain = summarize(outcome.rows.filter((r) => !r.arm.includes('[')));
    expect(plain.suites[0]!.sweeps).toBeUndefined();
  });
});

describe('baselines and the gate treat swept arms like any other', () => {
  it('a baseline holds the swept arms; the gate passes a rerun and fails a regression in a swept arm', () => {
    const out = temp('sweep-gate-');
    const run = (config: string) => {
      const dir = join(out, config.replace(/\W+/g, '-'));
      const r = runCli(['run', '--config', config, '--out', dir, '--quiet']);
      expect(r.code, r.stderr).toBe(0);
      return join(dir, readdirSync(dir)[0]!);
    };
    const first = run('test/fixtures/sweep/eval.config.ts');
    const baseline = join(out, 'baseline.json');
    expect(runCli(['baseline', first, '--out', baseline]).code).toBe(0);
    const b = JSON.parse(readFileSync(baseline, 'utf8')) as {
      suites: { suite: string; arms: { arm: string }[] }[];
    };
    expect(b.suites[0]!.arms.map((a) => a.arm)).toEqual([
      'primary',
      'brick-only[resultCap=200,markers=false]',
      'brick-only[resultCap=200,markers=true]',
      'brick-only[resultCap=2000,markers=false]',
      'brick-only[resultCap=2000,markers=true]',
    ]);
    const gate = (dir: string, config: string) =>
      runCli(['gate', dir, '--baseline', baseline, '--config', config], { env: { GITHUB_STEP_SUMMARY: '' } });
    const pass = gate(run('test/fixtures/sweep/eval.config.ts'), 'test/fixtures/sweep/eval.config.ts');
    expect(pass.code, pass.stdout).toBe(0);
    const fail = gate(
      run('test/fixtures/sweep/regressed.config.ts'),
      'test/fixtures/sweep/regressed.config.ts',
    );
    expect(fail.code, fail.stdout).toBe(1);
    // Two cases: the exact sign-flip interval of a drop is unbounded, so the swept arm's regression is
    // caught by its minimum mean, and its drop stays "within noise" (docs/results.md#statistics).
    expect(fail.stdout).toMatch(
      /^\| gate-escalation \| brick-only\[resultCap=200,markers=false\] \| caveat_carrying \(mean\) \| .*\*\*regression\*\*/m,
    );
    expect(fail.stdout).toMatch(/^\| gate-escalation \| primary \| caveat_carrying \(drop\) \| .* \| pass/m);
  });
});
