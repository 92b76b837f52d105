import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { resolveConfig } from '../../harness/config/resolve-config.ts';
import { nothingToRun, runExperiment } from '../../harness/runner/run.ts';
import { loadExperiment } from '../../harness/runner/experiment.ts';
import type { Reporter } from '../../harness/runner/reporters.ts';
import { fixtureCases, miniCells, rowsOf, tempDir } from '../support/mock-run.ts';

/**
 * Stopping a run in-process (issue 32 item 2): the CLI's Ctrl-C / SIGTERM handler aborts the run's
 * signal; here the signal is aborted directly (no real signal is sent to the test process). The run
 * ends interrupted, tells its reporters so, writes no report, and `--resume` finishes it.
 */
const made: string[] = [];
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));
const config = (over: Record<string, unknown> = {}, flags: Record<string, unknown> = {}) => {
  const out = tempDir('interrupt');
  made.push(out);
  return resolveConfig(
    {
      casesDir: fixtureCases,
      suites: ['mini'],
      reps: 2,
      provider: 'sim',
      cache: false,
      outDir: out,
      concurrency: 1,
      ...over,
    },
    { quiet: true, ...flags },
  );
};

/** A reporter that records its hooks, and aborts after `after` cells when given a controller. */
function recorder(stop?: { controller: AbortController; after: number }) {
  const events: string[] = [];
  const r: Reporter = {
    onRunStart: (i) => void events.push(`start ${i.cells} ${i.done}`),
    onCellEnd: (_row, p) => {
      events.push(`cell ${p.done}/${p.total}`);
      if (stop && p.done >= stop.after) stop.controller.abort();
    },
    onRunEnd: (p, interrupted) => void events.push(`end ${p.done}/${p.total} ${interrupted}`),
    onReport: (c) => void events.push(`report ${c.rows.length}`),
  };
  return { r, events };
}

describe('an interrupted run', () => {
  it('stops starting cells, says it was interrupted, writes no report; --resume finishes it', async () => {
    const controller = new AbortController();
    const { r, events } = recorder({ controller, after: 2 });
    const cfg = config();
    const out = await runExperiment({ config: cfg, reporters: [r], signal: controller.signal });
    expect(out.interrupted).toBe(true);
    const total = miniCells(2).length;
    expect(out.progress.total).toBe(total);
    expect(out.rows.length).toBeGreaterThanOrEqual(2);
    expect(out.rows.length).toBeLessThan(total);
    expect(events[0]).toBe(`start ${total} 0`);
    expect(events.at(-1)).toBe(`end ${out.progress.done}/${total} true`);
    expect(events.some((e) => e.startsWith('report'))).toBe(false);
    expect(readdirSync(out.dir)).not.toContain('report.md');
    expect(rowsOf(out.dir)).toHaveLength(out.rows.length);
    expect(readdirSync(join(out.dir, 'run.lock')).some((f) => f.endsWith('.released'))).toBe(true);

    const again = recorder();
    const done = await runExperiment({ config: cfg, reporters: [again.r], resumeDir: out.dir });
    expect(done.interrupted).toBe(false);
    expect(done.rows.map((x) => x.cell_id).sort()).toEqual(miniCells(2));
    expect(again.events[0]).toBe(`start ${total} ${out.rows.length}`);
    expect(again.events.slice(-2)).toEqual([`end ${total}/${total} false`, `report ${total}`]);
    expect(done.resumeDiffers).toEqual([]);
  });

  it('a signal aborted before the start runs no cell and reports nothing', async () => {
    const controller = new AbortController();
    controller.abort();
    const { r, events } = recorder();
    const out = await runExperiment({ config: config(), reporters: [r], signal: controller.signal });
    expect(out.interrupted).toBe(true);
    expect(out.rows).toEqual([]);
    expect(events.filter((e) => e.startsWith('cell') || e.startsWith('report'))).toEqual([]);
    expect(events.at(-1)).toMatch(/ true$/);
    expect(existsSync(join(out.dir, 'report.md'))).toBe(false);
  });
});

describe('nothing to run', () => {
  it('names the shard that holds none of the planned cells, or the setting that emptied the plan', async () => {
    const cfg = config();
    const suites = await loadExperiment(cfg);
    const all = miniCells(2).length;
    expect(nothingToRun(suites, { ...cfg, shard: { index: 3, count: 7 } }).message).toBe(
      `--shard 3/7: none of the ${all} planned cells falls in this shard`,
    );
    const e = nothingToRun([], { ...cfg, configFile: 'my.config.ts' });
    expect(e.code).toBe('nothing_to_run');
    expect(e.message).toBe(
      `my.config.ts: suites: no cells to run (no suites or cases under "${cfg.casesDir}", or every arm filtered out)`,
    );
    expect(nothingToRun([], { ...cfg, configFile: null, shard: { index: 1, count: 2 } }).message).toMatch(
      /^config: suites: no cells to run/,
    );
  });

  it('a run whose plan is empty is refused before its run directory is made', async () => {
    const cfg = config({}, { shard: '7/7' });
    const cells = miniCells(2).length;
    expect(cells).toBeLessThan(7);
    await expect(runExperiment({ config: cfg, reporters: [] })).rejects.toMatchObject({
      code: 'nothing_to_run',
      message: `--shard 7/7: none of the ${cells} planned cells falls in this shard`,
    });
    expect(existsSync(cfg.outDir) ? readdirSync(cfg.outDir) : []).toEqual([]);
  });
});
