import { describe, expect, it } from 'vitest';
import { cpSync, readFileSync, writeFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveConfig } from '../../harness/config/resolve-config.ts';
import { doneCells, runExperiment } from '../../harness/runner/run.ts';
import { dryRun } from '../../harness/runner/dry-run.ts';
import { latestRows } from '../../reports/latest-rows.ts';
import { defineStrategy } from '../../strategies/define.ts';
import { strategies } from '../../strategies/index.ts';
import { summarize } from '../../reports/summarize.ts';
import { renderCsv } from '../../reports/csv.ts';
import { evaluateGate, createBaseline, resolveGateThresholds, mergeRuns } from '../../harness/gate/index.ts';
import type { ResultRow } from '../../harness/core/index.ts';
import { runCli } from '../support/cli.ts';
import { fixtureCases, rowsOf, tempDir } from '../support/mock-run.ts';

/**
 * One policy for a journal with several rows per cell: the latest row per cell_id, in journal order,
 * wins — in the runner (what is done, what a resume re-runs, the rows it reports), the report rebuild,
 * merge and the gate. `run --resume --retry-errors` relies on it: every attempt stays in the journal.
 */
let failing = true;
const flaky = defineStrategy({
  name: 'flaky',
  description: 'fails on rep 1 while `failing` is set',
  seed: 'test',
  params: {},
  async prepare(ctx) {
    if (failing && ctx.rep === 1) throw new Error('flaky on rep 1');
    return strategies.inline.prepare(ctx, { replay: 'full' });
  },
});

const config = (dir: string) =>
  resolveConfig(
    {
      casesDir: fixtureCases,
      reps: 2,
      seed: 11,
      cache: false,
      outDir: join(dir, 'runs'),
      strategies: { flaky },
      suites: [
        {
          id: 'mini',
          arms: ['inline', 'flaky'],
          extraArms: [{ name: 'flaky', strategy: 'flaky', models: { source: 'large', receiver: 'large' } }],
        },
      ],
    },
    { quiet: true },
  );

const statusOf = (rows: readonly ResultRow[]) =>
  Object.fromEntries(rows.map((r) => [r.cell_id, r.status]).sort(([a], [b]) => (a! < b! ? -1 : 1)));

describe('run --resume --retry-errors', () => {
  it('runs the error cells again, keeps every attempt in the journal, and reports the latest row per cell', async () => {
    failing = true;
    const dir = tempDir('retry');
    const first = await runExperiment({ config: config(dir) });
    expect(first.rows.filter((r) => r.status === 'error').map((r) => r.cell_id)).toEqual([
      'mini/deprecation-1/flaky/1',
    ]);
    // Without --retry-errors a resume leaves error cells as they are.
    const plain = await runExperiment({ config: config(dir), resumeDir: first.dir });
    expect(rowsOf(first.dir)).toHaveLength(4);
    expect(plain.rows.filter((r) => r.status === 'error')).toHaveLength(1);

    failing = false;
    const retried = await runExperiment({ config: config(dir), resumeDir: first.dir, retryErrors: true });
    const journal = rowsOf(first.dir);
    expect(journal).toHaveLength(5);
    expect(journal.filter((r) => r.cell_id === 'mini/deprecation-1/flaky/1').map((r) => r.status)).toEqual([
      'error',
      'ok',
    ]);
    expect(retried.rows).toHaveLength(4);
    expect(retried.rows.every((r) => r.status === 'ok')).toBe(true);
    const report = JSON.parse(readFileSync(join(first.dir, 'report.json'), 'utf8'));
    expect(report).toMatchObject({ cells: 4, ok: 4, errors: 0, duplicates: 1 });
    const csv = readFileSync(join(first.dir, 'results.csv'), 'utf8').trim().split('\n');
    expect(csv).toHaveLength(5);
    expect(csv.filter((l) => l.includes('flaky/1'))).toHaveLength(1);
    expect(csv.find((l) => l.includes('flaky/1'))).toContain(',ok,');
  });

  it('the report a run writes equals the rebuilt one when the journal holds a cell twice', async () => {
    failing = false;
    const dir = tempDir('dup');
    const first = await runExperiment({ config: config(dir) });
    // A cell journalled twice (from outside: an old harness, a hand-joined journal): ok, then error.
    const ok = rowsOf(first.dir).find((r) => r.cell_id === 'mini/deprecation-1/inline/0')!;
    appendFileSync(
      join(first.dir, 'results.jsonl'),
      `${JSON.stringify({ ...ok, status: 'error', error: 'later attempt', error_code: 'x' })}\n`,
    );
    // Drop the last cell so the resume has something to do and writes the reports.
    const rows = rowsOf(first.dir).filter((r) => r.cell_id !== 'mini/deprecation-1/flaky/1');
    writeFileSync(join(first.dir, 'results.jsonl'), rows.map((r) => `${JSON.stringify(r)}\n`).join(''));
    const resumed = await runExperiment({ config: config(dir), resumeDir: first.dir });
    expect(statusOf(resumed.rows)['mini/deprecation-1/inline/0']).toBe('error');
    const written = readFileSync(join(first.dir, 'report.json'), 'utf8');
    const rebuilt = runCli(['report', first.dir, '--format', 'json']);
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    expect(readFileSync(join(first.dir, 'report.json'), 'utf8')).toBe(written);
    expect(JSON.parse(written)).toMatchObject({ errors: 1, duplicates: 1 });
  });

  it('a dry run of the resume prices exactly the cells it would run', async () => {
    failing = true;
    const dir = tempDir('retry-dry');
    const first = await runExperiment({ config: config(dir) });
    const journal = rowsOf(first.dir);
    const plan = async (retryErrors: boolean) =>
      (await dryRun(config(dir), { skip: doneCells(journal, retryErrors) })).cells;
    expect(await plan(false)).toBe(0);
    expect(await plan(true)).toBe(1);
  });

  it('--retry-errors without --resume is a usage error (exit 2)', () => {
    const r = runCli(['run', '--config', 'test/fixtures/eval.config.ts', '--retry-errors', '--quiet']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe('handoff-eval: --retry-errors: only with --resume <run-dir>');
  });
});

const row = (cell: string, status: 'ok' | 'error', extra: Partial<ResultRow> = {}): ResultRow =>
  ({
    run_id: 'r',
    cell_id: `s/${cell}`,
    suite: 's',
    case_id: cell.split('/')[0]!,
    arm: cell.split('/')[1]!,
    strategy: 'inline',
    params: {},
    rep: Number(cell.split('/')[2]),
    status,
    error: status === 'error' ? 'boom' : null,
    error_code: status === 'error' ? 'internal' : null,
    source_model: 'sim:sim-large',
    receiver_model: 'sim:sim-large',
    judge_model: 'sim:sim-judge',
    provider: 'sim',
    seed: 1,
    harness_version: '0',
    baseline_arm: 'a',
    handoff_tokens: 10,
    handoff_chars: 40,
    receiver_window_tokens_before: 0,
    receiver_window_tokens_after: 20,
    source_output_tokens: 0,
    input_tokens: 20,
    output_tokens: 5,
    cache_read_tokens: 0,
    latency_ms: 1,
    cost_usd: 0,
    judge_cost_usd: 0,
    cached_calls: 0,
    model_calls: 2,
    markers_count: 0,
    tool_calls_visible: 0,
    overstated_count: 0,
    judge_errors: 0,
    scores: status === 'ok' ? { correctness: 4 } : {},
    survival: { payload: {}, answer: {} },
    checks: [],
    ...extra,
  }) as ResultRow;

describe('the latest row per cell wins, for every consumer', () => {
  const cells = ['c1/a/0', 'c2/a/0', 'c3/a/0', 'c4/a/0', 'c5/a/0', 'c6/a/0'];
  const okRows = cells.map((c) => row(c, 'ok'));
  // c1 failed first and was retried; c2 was ok and a later attempt failed.
  const journal = [row('c1/a/0', 'error'), ...okRows, row('c2/a/0', 'error')];

  it('latestRows: journal order decides, not status', () => {
    const { rows, superseded } = latestRows(journal);
    expect(superseded).toBe(2);
    expect(statusOf(rows)).toMatchObject({ 's/c1/a/0': 'ok', 's/c2/a/0': 'error' });
  });

  it('summarize and the CSV', () => {
    const s = summarize(journal);
    expect(s).toMatchObject({ cells: 6, ok: 5, errors: 1, duplicates: 2 });
    const csv = renderCsv(journal).trim().split('\n');
    expect(csv).toHaveLength(7);
    expect(csv.find((l) => l.includes('s/c2/a/0'))).toContain(',error,');
    expect(csv.find((l) => l.includes('s/c1/a/0'))).toContain(',ok,');
  });

  it('the gate and the baseline', () => {
    const baseline = createBaseline(okRows);
    const gate = evaluateGate(
      journal,
      baseline,
      resolveGateThresholds(
        { minMean: {}, maxDrop: 0.25, maxTokenGrowthPct: 10, maxErrorRate: 0, minCells: 1 },
        null,
      ),
    );
    const errorRate = gate.checks.find((c) => c.kind === 'error-rate')!;
    expect(errorRate.current).toBeCloseTo(1 / 6);
    expect(errorRate.verdict).toBe('regression');
    expect(createBaseline(journal).suites[0]!.arms[0]).toMatchObject({ cells: 6, ok: 5, errors: 1 });
  });

  it('merge: the shard journalled later wins for a cell both hold, whatever its status', async () => {
    failing = false;
    const dir = tempDir('merge-latest');
    const base = await runExperiment({ config: config(dir) });
    const copy = (name: string, runId: string, status: 'ok' | 'error') => {
      const to = join(dir, name);
      cpSync(base.dir, to, { recursive: true });
      const cfg = JSON.parse(readFileSync(join(to, 'config.json'), 'utf8'));
      writeFileSync(join(to, 'config.json'), JSON.stringify({ ...cfg, runId }));
      const rows = rowsOf(to).map((r) =>
        r.cell_id === 'mini/deprecation-1/inline/0'
          ? { ...r, run_id: runId, status, error: status === 'error' ? 'retry failed' : null }
          : { ...r, run_id: runId },
      );
      writeFileSync(join(to, 'results.jsonl'), rows.map((r) => `${JSON.stringify(r)}\n`).join(''));
      return to;
    };
    const earlierOk = copy('a', '2026-01-01T00-00-00-000-aaaa', 'ok');
    const laterError = copy('b', '2026-01-02T00-00-00-000-bbbb', 'error');
    const cfg = config(dir);
    const m = await mergeRuns([laterError, earlierOk], { out: join(dir, 'merged-1'), config: cfg });
    expect(m.duplicates).toBe(4);
    expect(statusOf(m.rows)['mini/deprecation-1/inline/0']).toBe('error');
    const earlierError = copy('c', '2026-01-01T00-00-00-000-cccc', 'error');
    const laterOk = copy('d', '2026-01-02T00-00-00-000-dddd', 'ok');
    const m2 = await mergeRuns([laterOk, earlierError], { out: join(dir, 'merged-2'), config: cfg });
    expect(statusOf(m2.rows)['mini/deprecation-1/inline/0']).toBe('ok');
  });
});
