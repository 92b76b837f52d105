import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { ResultRow } from '../../harness/core/index.ts';
import { resolveConfig } from '../../harness/config/resolve-config.ts';
import { runExperiment } from '../../harness/runner/run.ts';
import { summarize } from '../../reports/summarize.ts';
import { renderMarkdown } from '../../reports/markdown.ts';
import { sourceConfound } from '../../reports/summary/confound.ts';
import { repoRoot } from '../support/cli.ts';
import { tempDir } from '../support/mock-run.ts';

/**
 * Issue 29 item 5: where an arm changes the live source's own work (the contract's extra look), the
 * report says so beside that arm's comparisons — and the sim rate that makes it, swept to 0 through
 * the config's sim rates, takes the declaration away.
 */
const cases = [
  'ledgerline-01',
  'ledgerline-02',
  'ledgerline-03',
  'ledgerline-04',
  'ledgerline-05',
  'ledgerline-06',
];

async function contractVsInline(extraLookWithCoverage?: number): Promise<ResultRow[]> {
  const config = resolveConfig(
    {
      suites: [{ id: 'ledgerline', arms: ['inline', 'structured-contract'] }],
      casesDir: join(repoRoot, 'cases'),
      reps: 1,
      cache: false,
      outDir: tempDir('confound'),
      ...(extraLookWithCoverage === undefined
        ? {}
        : { sim: { sizes: { large: { live: { extraLookWithCoverage } } } } }),
    },
    { mode: 'live', quiet: true, case: cases },
  );
  const { rows } = await runExperiment({ config });
  expect(rows.filter((r) => r.status === 'ok')).toHaveLength(2 * cases.length);
  return rows;
}

const contractOf = (rows: ResultRow[]) =>
  summarize(rows).suites[0]!.arms.find((a) => a.arm === 'structured-contract')!;

describe('confounds declared', () => {
  it('with the extra look on, every contract comparison carries the declaration; swept off, none does', async () => {
    const on = await contractVsInline();
    const arm = contractOf(on);
    expect(arm.live!.sourceVsBaseline!.declared).toBe(true);
    expect(arm.live!.sourceVsBaseline!.calls).toBeGreaterThan(0);
    const compared = Object.values(arm.scores).filter((s) => s.vsBaseline);
    expect(compared.length).toBeGreaterThan(0);
    for (const s of compared)
      expect(s.vsBaseline!.confound!.short).toMatch(
        /^the source did more work under this arm: \+\d\.\d\d calls$/,
      );
    const md = renderMarkdown(summarize(on));
    expect(md).toMatch(/\*\*(better|worse|within noise|not enough data)\*\* — ⚠ the source did more work/);
    expect(md).toContain('**Confounds declared**');
    expect(md).toMatch(/Live inline \(inline \(baseline\)\): its research ran like every arm's/);

    const off = await contractVsInline(0);
    const armOff = contractOf(off);
    expect(armOff.live!.sourceVsBaseline!.declared).toBe(false);
    expect(armOff.live!.sourceVsBaseline!.calls).toBe(0);
    for (const s of Object.values(armOff.scores)) expect(s.vsBaseline?.confound).toBeUndefined();
    expect(renderMarkdown(summarize(off))).not.toMatch(/Confounds declared|the source did more work/);
  });

  it('declares by the rule: an interval clustered by case that excludes 0; identical sources never', () => {
    const row = (arm: string, c: string, rep: number, calls: number) =>
      ({
        arm,
        case_id: c,
        rep,
        status: 'ok',
        source_mode: 'live',
        source_tool_calls: calls,
        source_loop_latency_ms: calls * 1000,
        orchestration_tool_calls: null,
      }) as unknown as ResultRow;
    const base = ['a', 'b', 'c', 'd'].map((c, i) => row('inline', c, 0, 5 + i));
    const same = base.map((r) => ({ ...r, arm: 'x' }));
    expect(sourceConfound(same, base, 'inline')!.declared).toBe(false);
    const more = base.map((r, i) => ({
      ...r,
      arm: 'x',
      source_tool_calls: r.source_tool_calls! + (i === 0 ? 0 : 1),
    }));
    const c = sourceConfound(more, base, 'inline')!;
    expect(c.calls).toBeCloseTo(0.75);
    expect(c.ci![0]).toBeLessThan(0); // 3 of 4 cases: t(3) interval still reaches 0 → not declared
    expect(c.declared).toBe(false);
    const all = base.map((r) => ({
      ...r,
      arm: 'x',
      source_tool_calls: r.source_tool_calls! + 1,
      source_loop_latency_ms: r.source_loop_latency_ms! + 1000,
    }));
    expect(sourceConfound(all, base, 'inline')!.declared).toBe(true);
    expect(sourceConfound(all, base, 'inline')!.loopLatencyMs).toBe(1000);
    const fewer = base.map((r) => ({ ...r, arm: 'x', source_tool_calls: r.source_tool_calls! - 2 }));
    expect(sourceConfound(fewer, base, 'inline')!.short).toBe(
      'the source did less work under this arm: −2.00 calls',
    );
    // A spawned child's cells re-run no source: no pairs, no confound.
    const spawn = (rs: ResultRow[]) => rs.map((r) => ({ ...r, orchestration_tool_calls: 0 }));
    expect(sourceConfound(spawn(all), spawn(base), 'inline')).toBeNull();
  });
});
