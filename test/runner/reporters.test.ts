import { afterEach, describe, expect, it, vi } from 'vitest';
import { PassThrough } from 'node:stream';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProgressReporter, progressLine, type Progress } from '../../harness/runner/reporters.ts';
import { report, reportersMap, resolveReporters } from '../../harness/runner/reporters-map.ts';
import { ConfigError } from '../../harness/core/errors.ts';
import { syntheticRows } from '../reports/synthetic.ts';

/**
 * The progress reporter and the reporter list in-process (issue 32 item 2): what `run` prints on
 * stderr, which the CLI tests only see through a second process.
 */
const p = (over: Partial<Progress> = {}): Progress => ({
  done: 0,
  total: 10,
  errors: 0,
  tokens: 0,
  costUsd: 0,
  calls: 0,
  cacheHits: 0,
  elapsedMs: 0,
  ...over,
});

function capture(isTTY: boolean) {
  const stream = new PassThrough() as unknown as NodeJS.WriteStream & PassThrough;
  (stream as { isTTY?: boolean }).isTTY = isTTY;
  const chunks: string[] = [];
  stream.on('data', (d) => chunks.push(String(d)));
  return { stream, chunks, text: () => chunks.join('') };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('progressLine', () => {
  it('shows cells, errors, ETA, tokens, cost and cache hits', () => {
    expect(progressLine(p())).toBe('0/10 cells · 0 errors · ETA ? · 0 tokens · $0.0000 · 0 cache hits');
    expect(
      progressLine(p({ done: 4, errors: 1, tokens: 999, costUsd: 0.12345, cacheHits: 3, elapsedMs: 8000 })),
    ).toBe('4/10 cells · 1 errors · ETA 12s · 999 tokens · $0.1235 · 3 cache hits');
    expect(progressLine(p({ done: 5, tokens: 1000, elapsedMs: 1000 }))).toContain('ETA 1s · 1.0k tokens');
    expect(progressLine(p({ done: 10, tokens: 1_250_000, elapsedMs: 1 }))).toContain('ETA 0s · 1.3M tokens');
    expect(progressLine(p({ tokens: 999_999 }))).toContain('1000.0k tokens');
    expect(progressLine(p({ tokens: 1_000_000 }))).toContain(' 1.0M tokens');
  });
});

describe('the progress reporter', () => {
  it('announces the run: its cells, the cells already done, and that the sim is a simulation', () => {
    const c = capture(false);
    const r = createProgressReporter(c.stream, false);
    r.onRunStart!({ runId: 'r1', dir: 'd', cells: 12, done: 0, simulated: false });
    r.onRunStart!({ runId: 'r2', dir: 'd', cells: 12, done: 5, simulated: true });
    expect(c.text()).toBe(
      'handoff-eval run r1: 12 cells\n' +
        'handoff-eval run r2: 12 cells (5 already done) — sim provider: a simulation, not a measurement of any model\n',
    );
  });

  it('off a TTY (or on CI): one plain line per tenth of the run, or every 10 s, and always the last', () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const c = capture(false);
    const r = createProgressReporter(c.stream, false);
    const row = syntheticRows({ seed: 1, cases: 1, reps: 1, arms: ['a'] })[0]!;
    for (let done = 1; done <= 20; done++) r.onCellEnd!(row, p({ done, total: 20 }));
    const lines = c.text().trim().split('\n');
    // 20 cells, 10 buckets: the first cell of each bucket (1, 2, 4, …, 18) and the last.
    expect(lines.map((l) => l.replace(/\/20 cells.*/, ''))).toEqual([
      'progress: 1',
      'progress: 2',
      'progress: 4',
      'progress: 6',
      'progress: 8',
      'progress: 10',
      'progress: 12',
      'progress: 14',
      'progress: 16',
      'progress: 18',
      'progress: 20',
    ]);
    expect(lines[0]).toBe(`progress: ${progressLine(p({ done: 1, total: 20 }))}`);
    // Within a bucket, a line again once 10 s have passed (not before).
    const c2 = capture(false);
    const r2 = createProgressReporter(c2.stream, false);
    r2.onCellEnd!(row, p({ done: 1, total: 100 }));
    vi.advanceTimersByTime(9_999);
    r2.onCellEnd!(row, p({ done: 2, total: 100 }));
    vi.advanceTimersByTime(1);
    r2.onCellEnd!(row, p({ done: 3, total: 100 }));
    expect(
      c2
        .text()
        .trim()
        .split('\n')
        .map((l) => l.split('/')[0]),
    ).toEqual(['progress: 1', 'progress: 3']);
  });

  it('on a TTY: a redrawn bar, at most every 100 ms but always the last; CI forces plain lines', () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const c = capture(true);
    const r = createProgressReporter(c.stream, false);
    const row = syntheticRows({ seed: 1, cases: 1, reps: 1, arms: ['a'] })[0]!;
    r.onCellEnd!(row, p({ done: 1, total: 4 }));
    r.onCellEnd!(row, p({ done: 2, total: 4 }));
    vi.advanceTimersByTime(99);
    r.onCellEnd!(row, p({ done: 3, total: 4 }));
    r.onCellEnd!(row, p({ done: 4, total: 4 }));
    expect(c.chunks).toEqual([
      `\r[${'='.repeat(6)}${' '.repeat(18)}] ${progressLine(p({ done: 1, total: 4 }))}\x1b[K`,
      `\r[${'='.repeat(24)}] ${progressLine(p({ done: 4, total: 4 }))}\x1b[K`,
    ]);
    vi.advanceTimersByTime(100);
    r.onCellEnd!(row, p({ done: 2, total: 4 }));
    expect(c.chunks).toHaveLength(3);
    r.onRunEnd!(p({ done: 4, total: 4 }), false);
    expect(c.chunks.at(-1)).toBe('\n');
    // A zero-cell plan draws an empty bar rather than dividing by zero.
    const z = capture(true);
    createProgressReporter(z.stream, false).onCellEnd!(row, p({ done: 0, total: 0 }));
    expect(z.chunks[0]).toMatch(/^\r\[ {24}\] 0\/0 cells/);
    const ci = capture(true);
    createProgressReporter(ci.stream, true).onCellEnd!(row, p({ done: 1, total: 4 }));
    expect(ci.text()).toBe(`progress: ${progressLine(p({ done: 1, total: 4 }))}\n`);
  });

  it('a batch line clears the bar on a TTY', () => {
    const c = capture(true);
    createProgressReporter(c.stream, false).onBatch!({
      provider: 'openai',
      batchId: 'b',
      state: 'validating',
    });
    expect(c.text()).toBe('\r\x1b[Kbatch openai b: validating\n');
  });

  it('one batch line per change of a batch: a poll that saw nothing new prints nothing', () => {
    const c = capture(false);
    const r = createProgressReporter(c.stream, true);
    const e = { provider: 'openai', batchId: 'b', state: 'in_progress', total: 4, succeeded: 1 } as const;
    r.onBatch!(e);
    r.onBatch!({ ...e });
    r.onBatch!({ ...e, batchId: 'c' });
    r.onBatch!({ ...e, succeeded: 2 });
    r.onBatch!({ ...e, succeeded: 2 });
    expect(c.text().trim().split('\n')).toEqual([
      'batch openai b: in_progress · 1/4 done (1 succeeded, 0 failed)',
      'batch openai c: in_progress · 1/4 done (1 succeeded, 0 failed)',
      'batch openai b: in_progress · 2/4 done (2 succeeded, 0 failed)',
    ]);
  });

  it('says how to resume when interrupted, and nothing more when not (off a TTY)', () => {
    const c = capture(false);
    const r = createProgressReporter(c.stream, false);
    r.onRunEnd!(p({ done: 3, total: 10 }), false);
    expect(c.text()).toBe('');
    r.onRunEnd!(p({ done: 3, total: 10 }), true);
    expect(c.text()).toBe(
      'interrupted after 3/10 cells; the journal holds every finished cell (resume with --resume)\n',
    );
  });
});

describe('the reporter list', () => {
  const config = (reporters: unknown[]) =>
    ({ reporters, configFile: 'eval.config.ts' }) as Parameters<typeof resolveReporters>[0];

  it('names: progress and one per report format; an unknown name fails naming the entry and the valid ones', () => {
    expect(Object.keys(reportersMap)).toEqual(['progress', 'md', 'csv', 'json', 'html']);
    const err = (() => {
      try {
        resolveReporters(config(['md', 'nope']), { progress: true });
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toBe(
      'eval.config.ts: reporters[1]: unknown reporter "nope"; valid: progress, md, csv, json, html, or a reporter object',
    );
    // Names inherited from Object.prototype are not reporters.
    expect(() => resolveReporters(config(['toString']), { progress: true })).toThrow(/reporters\[0\]/);
    expect(() =>
      resolveReporters({ reporters: ['x'] } as Parameters<typeof resolveReporters>[0], { progress: true }),
    ).toThrow(/^config: reporters\[0\]: unknown reporter "x"/);
  });

  it('keeps objects as given and in order; progress: false drops only the progress line', () => {
    const mine = { name: 'mine' };
    const all = resolveReporters(config(['progress', mine, 'md']), { progress: true });
    expect(all).toHaveLength(3);
    expect(all[0]!.onCellEnd).toBeTypeOf('function');
    expect(all[1]).toBe(mine);
    expect(all[2]!.name).toBe('md');
    const quiet = resolveReporters(config(['progress', mine, 'md']), { progress: false });
    expect(quiet.map((r) => r.name)).toEqual(['mine', 'md']);
  });

  it('report(): every onReport in order with one summary; the format reporters write their file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'he-reporters-'));
    try {
      const rows = syntheticRows({ seed: 2, cases: 3, reps: 1, arms: ['a', 'b'] });
      const seen: string[] = [];
      const summaries: unknown[] = [];
      const a = { onReport: (c: { summary: unknown }) => void (seen.push('a'), summaries.push(c.summary)) };
      const b = {
        onReport: (c: { summary: unknown; dir: string; runId: string }) => {
          seen.push(`b ${c.runId} ${c.dir === dir}`);
          summaries.push(c.summary);
        },
      };
      const [md, csv] = resolveReporters(config(['md', 'csv']), { progress: true });
      await report([a, { name: 'silent' }, b, md!, csv!], { runId: 'r9', dir, rows });
      expect(seen).toEqual(['a', `b r9 true`]);
      expect(summaries[0]).toBe(summaries[1]);
      expect(summaries[0]).toMatchObject({ cells: rows.length });
      expect(readFileSync(join(dir, 'report.md'), 'utf8')).toContain('a');
      expect(readFileSync(join(dir, 'results.csv'), 'utf8').trim().split('\n')).toHaveLength(rows.length + 1);
      expect(existsSync(join(dir, 'report.json'))).toBe(false);
      // No reporter wants a report: nothing is summarised (an empty journal would otherwise be summarised).
      await expect(report([{ name: 'x' }], { runId: 'r', dir, rows: [] })).resolves.toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
