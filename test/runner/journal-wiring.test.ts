import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Journal } from '../../harness/core/journal.ts';
import { resolveConfig } from '../../harness/config/resolve-config.ts';
import { runExperiment } from '../../harness/runner/run.ts';
import { fixtureCases, tempDir } from '../support/mock-run.ts';

/**
 * The runner's two journals, as wired in a real run (harness/runner/cell-pool.ts): whenever rows of
 * results.jsonl reach the disk, the calls of those cells are on disk already — so a crash at any moment
 * leaves no row whose calls are missing from calls.jsonl (a resumed run's cost and token figures and the
 * gate's call checks read both). journal-order.test.ts checks the Journal's hook; this checks the run
 * uses it: every write of results.jsonl is watched, and both files are read back at that moment.
 */
afterEach(() => vi.restoreAllMocks());

const cellIds = (file: string, field: 'cell_id' | 'cellId') =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => (JSON.parse(l) as Record<string, string>)[field])
    : [];

describe('the run wires calls.jsonl to flush before results.jsonl', () => {
  it('every time rows reach results.jsonl, each of their cells already has its calls in calls.jsonl', async () => {
    const dir = tempDir('journal-wiring');
    const flush = Journal.prototype.flush;
    const checks: { rows: number; withoutCalls: string[]; callsFlushedFirst: boolean }[] = [];
    let callsFlushes = 0;
    vi.spyOn(Journal.prototype, 'flush').mockImplementation(function (this: Journal<unknown>) {
      if (basename(this.path) === 'calls.jsonl') {
        callsFlushes++;
        return flush.call(this);
      }
      const pending = (this as unknown as { buffer: string[] }).buffer.length;
      const callsBefore = callsFlushes;
      flush.call(this);
      if (pending === 0) return;
      const rows = cellIds(this.path, 'cell_id');
      const called = new Set(cellIds(join(this.path, '..', 'calls.jsonl'), 'cellId'));
      checks.push({
        rows: rows.length,
        withoutCalls: rows.filter((id) => !called.has(id)),
        callsFlushedFirst: callsFlushes > callsBefore,
      });
    });
    // 3 arms × 30 reps = 90 rows: at least one flush by count (64 rows) and one more for the rest.
    const config = resolveConfig(
      { casesDir: fixtureCases, reps: 30, seed: 3, cache: false, outDir: join(dir, 'runs') },
      { quiet: true },
    );
    const out = await runExperiment({ config });
    expect(out.rows).toHaveLength(90);
    expect(checks.length).toBeGreaterThanOrEqual(2);
    expect(checks.at(-1)!.rows).toBe(90);
    for (const c of checks) {
      expect(c.withoutCalls, `a write of ${c.rows} rows`).toEqual([]);
      expect(c.callsFlushedFirst, `a write of ${c.rows} rows`).toBe(true);
    }
  });
});
