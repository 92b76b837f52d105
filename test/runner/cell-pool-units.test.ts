import { afterAll, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ModelRequest, Provider, ResultRow } from '../../harness/core/index.ts';
import type { ResolvedConfig } from '../../harness/config/types.ts';
import { resolveConfig } from '../../harness/config/resolve-config.ts';
import { createProviders } from '../../harness/providers/index.ts';
import { ProviderError } from '../../harness/core/errors.ts';
import { doneCells, executeCells, type ExecuteArgs } from '../../harness/runner/cell-pool.ts';
import type { PlannedCell } from '../../harness/runner/plan.ts';
import type { Progress, Reporter, RunStartInfo } from '../../harness/runner/reporters.ts';
import { miniCase } from '../strategies/helpers.ts';
import { memoryCache } from '../support/memory-cache.ts';

/**
 * Executing a plan in process (issue 32 item 2): the progress counters the reporters show, what a
 * resume skips, the journals written, the batch run's cells in flight, a fatal error handed back. The
 * CLI tests see these only as a child process's output.
 */
const made: string[] = [];
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

async function cellsOf(n: number): Promise<PlannedCell[]> {
  const c = await miniCase();
  return Array.from({ length: n }, (_, rep) => ({
    id: `mini/${c.id}/full/${rep}`,
    suite: 'mini',
    caseId: c.id,
    arm: 'full',
    rep,
    case: c,
    armSpec: { name: 'full', strategy: 'full-transcript', models: { source: 'large', receiver: 'small' } },
    params: {},
    baselineArm: 'full',
    primaryCriterion: 'correctness',
  }));
}

/** The sim, priced (so cost is counted), slowed by a turn (so cells overlap), failing where told. */
function provider(
  sim: Provider,
  o: { fail?: (req: ModelRequest) => Error | undefined; inFlight?: { now: number; most: number } } = {},
): Provider {
  return {
    ...sim,
    generate: async (req, g) => {
      const f = o.inFlight;
      if (f) f.most = Math.max(f.most, ++f.now);
      await new Promise((r) => setImmediate(r));
      if (f) f.now--;
      const err = o.fail?.(req);
      if (err) throw err;
      const raw = await sim.generate(req, g);
      return { ...raw, costUsd: 0.5 };
    },
  };
}

async function execute(
  o: Partial<ExecuteArgs> & { cells: PlannedCell[]; wrap?: (sim: Provider) => Provider } = { cells: [] },
) {
  const config: ResolvedConfig = {
    ...resolveConfig({ cache: false, seed: 5 }, {}, 'eval.config.ts'),
    ...o.config,
  };
  const sim = (await createProviders(resolveConfig({ cache: false }, {}, 'eval.config.ts'))).sim!;
  const dir = o.dir ?? mkdtempSync(join(tmpdir(), 'he-cell-pool-'));
  made.push(dir);
  const starts: RunStartInfo[] = [];
  const ends: { row: ResultRow; p: Progress }[] = [];
  const reporter: Reporter = {
    onRunStart: (s) => void starts.push(s),
    onCellEnd: (row, p) => void ends.push({ row, p: { ...p } }),
  };
  const out = await executeCells({
    config,
    providers: { sim: (o.wrap ?? ((s) => provider(s)))(sim) },
    batched: new Set(),
    runId: 'pool-units',
    dir,
    journalPath: join(dir, 'results.jsonl'),
    cache: null,
    reporters: [reporter],
    retryErrors: false,
    ...o,
  });
  const lines = (f: string) =>
    readFileSync(join(dir, f), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
  return { out, starts, ends, dir, lines };
}

describe('executeCells', () => {
  it('counts done, errors, tokens, calls and money as each cell ends; journals rows and calls', async () => {
    const cells = await cellsOf(3);
    const { out, starts, ends, lines, dir } = await execute({
      cells,
      wrap: (sim) =>
        provider(sim, {
          fail: (req) =>
            req.seed.includes('/1/answer') ? new Error('boom at http://u:pw@h.example/x') : undefined,
        }),
    });
    expect(starts).toEqual([{ runId: 'pool-units', dir, cells: 3, done: 0, simulated: true }]);
    expect(ends.map((e) => e.p.done)).toEqual([1, 2, 3]);
    const rows = out.rows;
    expect(rows.map((r) => r.status).sort()).toEqual(['error', 'ok', 'ok']);
    const last = out.progress;
    expect(last).toMatchObject({ done: 3, total: 3, errors: 1, cacheHits: 0 });
    expect(last.tokens).toBe(rows.reduce((n, r) => n + r.input_tokens + r.output_tokens, 0));
    expect(last.tokens).toBeGreaterThan(0);
    const calls = lines('calls.jsonl');
    expect(last.calls).toBe(calls.length);
    expect(last.costUsd).toBe(0.5 * calls.filter((c) => !c.error).length);
    expect(last.elapsedMs).toBeGreaterThanOrEqual(0);
    expect(last.elapsedMs).toBeLessThan(60_000);
    // The journal holds every row, with the error's credentials masked.
    expect(lines('results.jsonl').map((r) => r.cell_id)).toEqual(rows.map((r) => r.cell_id));
    const failed = rows.find((r) => r.status === 'error')!;
    expect(failed.error).toContain('[redacted]@h.example');
    expect(failed.error).not.toContain('u:pw');
    // Every journalled cell has its calls on disk (calls.jsonl is flushed before results.jsonl).
    for (const r of rows) expect(calls.some((c) => c.cellId === r.cell_id)).toBe(true);
    expect(out.prior).toEqual([]);
    expect(out.stoppedBy).toBeUndefined();
    expect('stoppedBy' in out).toBe(false);
  });

  it('when results.jsonl flushes (every 64 rows), calls.jsonl is flushed first: no row on disk without its calls', async () => {
    // The journals' timers held still, so only the row count flushes them.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const cells = await cellsOf(64);
      const seen: { rows: number; calls: number }[] = [];
      const dir = mkdtempSync(join(tmpdir(), 'he-cell-pool-'));
      const { out } = await execute({
        cells,
        dir,
        reporters: [
          {
            onCellEnd: (_row, p) => {
              if (p.done !== 64) return;
              const count = (f: string) => readFileSync(join(dir, f), 'utf8').split('\n').filter(Boolean);
              seen.push({ rows: count('results.jsonl').length, calls: count('calls.jsonl').length });
            },
          },
        ],
      });
      expect(seen).toEqual([{ rows: 64, calls: out.progress.calls }]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a resume runs only the cells without a row; with retryErrors, also those whose latest row is an error', async () => {
    const cells = await cellsOf(3);
    const first = await execute({ cells: cells.slice(0, 2) });
    const prior = first.lines('results.jsonl') as ResultRow[];
    // Cell 1's latest row: an error.
    writeFileSync(
      join(first.dir, 'results.jsonl'),
      [...prior, { ...prior[1]!, status: 'error', error: 'x' }].map((r) => JSON.stringify(r)).join('\n') +
        '\n',
    );
    const resumed = await execute({ cells, dir: first.dir });
    expect(resumed.starts[0]!.done).toBe(2);
    expect(resumed.out.prior.length).toBe(3);
    expect(resumed.out.rows.map((r) => r.rep)).toEqual([2]);
    expect(resumed.out.progress).toMatchObject({ done: 3, total: 3 });
    const retried = await execute({ cells, dir: first.dir, retryErrors: true });
    expect(retried.starts[0]!.done).toBe(2);
    expect(retried.out.rows.map((r) => r.rep)).toEqual([1]);
  });

  it('cache hits are counted and cost nothing now', async () => {
    const cells = await cellsOf(2);
    const { cache, m } = memoryCache();
    const cold = await execute({ cells, cache });
    expect(cold.out.progress.cacheHits).toBe(0);
    expect(m.size).toBe(cold.out.progress.calls);
    const warm = await execute({ cells, cache });
    expect(warm.out.progress.calls).toBe(cold.out.progress.calls);
    expect(warm.out.progress.cacheHits).toBe(warm.out.progress.calls);
    expect(warm.out.progress.costUsd).toBe(0);
  });

  it('a batch run puts every cell in flight at once; otherwise `concurrency` bounds them', async () => {
    const cells = await cellsOf(6);
    const batch = { now: 0, most: 0 };
    await execute({
      cells,
      batched: new Set(['sim']),
      config: { ...resolveConfig({ cache: false, concurrency: 1 }, {}, 'eval.config.ts') },
      wrap: (sim) => provider(sim, { inFlight: batch }),
    });
    expect(batch.most).toBe(6);
    const bounded = { now: 0, most: 0 };
    await execute({
      cells,
      config: { ...resolveConfig({ cache: false, concurrency: 2 }, {}, 'eval.config.ts') },
      wrap: (sim) => provider(sim, { inFlight: bounded }),
    });
    expect(bounded.most).toBe(2);
  });

  it('a fatal provider error is handed back and the journals are closed with what finished', async () => {
    const cells = await cellsOf(4);
    const fatal = new ProviderError('sim', 'key rejected', 401, undefined, { fatal: true });
    const { out, lines } = await execute({
      cells,
      config: { ...resolveConfig({ cache: false, concurrency: 1 }, {}, 'eval.config.ts') },
      wrap: (sim) => provider(sim, { fail: (req) => (req.seed.includes('/2/') ? fatal : undefined) }),
    });
    expect(out.stoppedBy).toBe(fatal);
    expect(out.rows.map((r) => r.rep)).toEqual([0, 1]);
    expect(lines('results.jsonl').length).toBe(2);
  });

  it('a run on no simulated provider is announced as real; an empty plan still starts and ends', async () => {
    const base = resolveConfig({ cache: false }, {}, 'eval.config.ts');
    const { starts, out } = await execute({
      cells: [],
      config: { ...base, provider: { source: 'openai', receiver: 'anthropic', judge: 'openai' } },
    });
    expect(starts.map((s) => s.simulated)).toEqual([false]);
    expect(out.progress).toEqual({
      done: 0,
      total: 0,
      errors: 0,
      tokens: 0,
      costUsd: 0,
      calls: 0,
      cacheHits: 0,
      elapsedMs: 0,
    });
  });
});

describe('doneCells', () => {
  const row = (cell_id: string, status: 'ok' | 'error', attempt = 0) =>
    ({ cell_id, status, run_id: 'r', attempt }) as unknown as ResultRow;

  it('every cell with a row; with retryErrors only those whose latest row is ok', () => {
    const journal = [
      row('a', 'ok'),
      row('b', 'error'),
      row('c', 'error'),
      row('c', 'ok'),
      row('d', 'ok'),
      row('d', 'error'),
    ];
    expect([...doneCells(journal, false)].sort()).toEqual(['a', 'b', 'c', 'd']);
    expect([...doneCells(journal, true)].sort()).toEqual(['a', 'c']);
    expect(doneCells([], true).size).toBe(0);
  });
});
