import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CallRecord, ResultRow } from '../../harness/core/index.ts';
import { mergeRuns } from '../../harness/gate/index.ts';
import { resolveConfig } from '../../harness/config/resolve-config.ts';
import { runExperiment } from '../../harness/runner/run.ts';
import { InputError } from '../../harness/core/errors.ts';
import { repoRoot } from '../support/cli.ts';
import { readRows, removeTempDirs, tempDir, writeRows } from './helpers.ts';

/**
 * `merge` in-process (issue 32 item 2): the shard runs are made with runExperiment and merged with
 * mergeRuns, so the refusals, --allow-missing, the duplicate rule and the calls' merge are visible to
 * the mutation runner (merge.test.ts drives the same through the CLI in a second process).
 */
afterAll(removeTempDirs);

const casesDir = join(repoRoot, 'test/fixtures/gate/cases');
const config = (shard?: string) =>
  resolveConfig(
    { casesDir, reps: 1, seed: 11, provider: 'sim', cache: false, outDir: tempDir('shard-out') },
    { quiet: true, ...(shard ? { shard } : {}) },
  );

let shards: string[];
let whole: string;
beforeAll(async () => {
  shards = [];
  for (const s of ['1/2', '2/2'])
    shards.push((await runExperiment({ config: config(s), reporters: [] })).dir);
  whole = (await runExperiment({ config: config(), reporters: [] })).dir;
}, 120_000);

const out = () => join(tempDir('merged'), 'merged-run');
const calls = (dir: string) =>
  readFileSync(join(dir, 'calls.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as CallRecord);
/** A copy of a run directory (to doctor it). */
function copy(dir: string): string {
  const to = join(
    tempDir('copy'),
    readdirSync(join(dir, '..')).find((d) => join(dir, '..', d) === dir)!,
  );
  cpSync(dir, to, { recursive: true });
  return to;
}
async function refusal(p: Promise<unknown>): Promise<Error> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(InputError);
  return e as Error;
}

describe('mergeRuns', () => {
  it('joins the shards into the unsharded run: its rows and calls, under the merged run id', async () => {
    const to = out();
    const r = await mergeRuns([shards[1]!, shards[0]!], { out: to, config: config() });
    expect(r.runId).toBe('merged-run');
    expect(r.dir).toBe(to);
    expect(r.duplicates).toBe(0);
    expect(r.missing).toEqual([]);
    expect(r.unplanned).toEqual([]);
    expect(r.planError).toBeNull();
    // Shards in index order whatever the argument order, each with its row count.
    expect(r.shards.map((s) => [s.dir, s.shard])).toEqual([
      [shards[0], '1/2'],
      [shards[1], '2/2'],
    ]);
    expect(r.shards.map((s) => s.rows)).toEqual(shards.map((d) => readRows(d).length));
    const strip = (rows: ResultRow[]) => rows.map((x) => ({ ...x, run_id: '' })).sort(byCell);
    expect(strip(readRows(to))).toEqual(strip(readRows(whole)));
    expect(r.rows.every((x) => x.run_id === 'merged-run')).toBe(true);
    expect(readRows(to).map((x) => x.cell_id)).toEqual(r.rows.map((x) => x.cell_id));
    const merged = calls(to);
    expect(merged.every((c) => c.runId === 'merged-run')).toBe(true);
    expect(merged.map((c) => c.cellId).sort()).toEqual(
      calls(whole)
        .map((c) => c.cellId)
        .sort(),
    );
    // In the rows' order: a cell's calls follow the cell before them.
    const firstAt = (id: string) => merged.findIndex((c) => c.cellId === id);
    const order = r.rows.map((x) => firstAt(x.cell_id)).filter((i) => i >= 0);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    const record = JSON.parse(readFileSync(join(to, 'config.json'), 'utf8')) as Record<string, unknown>;
    expect(record).toMatchObject({ runId: 'merged-run', shard: null, outDir: join(to, '..') });
    expect(record.merged).toEqual({
      from: r.shards,
      duplicates: 0,
      missing: [],
      unplanned: [],
    });
    expect(r.written.length).toBeGreaterThan(0);
    for (const f of r.written) expect(readdirSync(to)).toContain(f.replace(/.*\//, ''));
  });

  it('a cell journalled by two shards keeps the later run’s row and that run’s calls', async () => {
    const again = copy(shards[0]!);
    // The same shard run again: a later run id, and a row that says so.
    const cfg = JSON.parse(readFileSync(join(again, 'config.json'), 'utf8')) as { runId: string };
    writeFileSync(join(again, 'config.json'), JSON.stringify({ ...cfg, runId: `${cfg.runId}-z` }));
    const rows = readRows(again);
    writeRows(
      again,
      rows.map((x, i) => (i === 0 ? { ...x, params: { ...x.params, attempt: 'later' } } : x)),
    );
    const kept = rows[0]!.cell_id;
    const mine = calls(again).map((c) => (c.cellId === kept ? { ...c, purpose: 'later' } : c));
    writeFileSync(join(again, 'calls.jsonl'), mine.map((c) => `${JSON.stringify(c)}\n`).join(''));
    const to = out();
    const r = await mergeRuns([shards[0]!, again, shards[1]!], { out: to, config: config() });
    expect(r.duplicates).toBe(rows.length);
    expect(r.rows).toHaveLength(readRows(whole).length);
    expect(r.rows.find((x) => x.cell_id === kept)!.params.attempt).toBe('later');
    const forKept = calls(to).filter((c) => c.cellId === kept);
    expect(forKept.length).toBeGreaterThan(0);
    expect(forKept.every((c) => (c.purpose as string) === 'later')).toBe(true);
    expect(r.shards.map((s) => s.runId)).toEqual([cfg.runId, `${cfg.runId}-z`, r.shards[2]!.runId]);
  });

  it('refuses a missing shard naming the count, the cells and the way out; --allow-missing merges them', async () => {
    const to = out();
    const e = await refusal(mergeRuns([shards[0]!], { out: to, config: config() }));
    const missing = readRows(shards[1]!).map((x) => x.cell_id);
    expect(e.message).toMatch(
      new RegExp(
        `^merge: ${missing.length} planned cell\\(s\\) are in no shard: .*; rerun the missing shard, or merge with --allow-missing and fill them in with run --resume ${to}$`,
      ),
    );
    const listed = e.message.split(': ')[2]!.split(';')[0]!;
    if (missing.length > 8) expect(listed).toMatch(new RegExp(`… \\(\\+${missing.length - 8}\\)$`));
    expect(listed.split(', ').slice(0, Math.min(8, missing.length))).toEqual(
      expect.arrayContaining([expect.stringMatching(/^gate-/)]),
    );
    expect(readdirSync(join(to, '..'))).toEqual([]);
    const r = await mergeRuns([shards[0]!], { out: to, config: config(), allowMissing: true });
    expect([...r.missing!].sort()).toEqual([...missing].sort());
    expect(r.rows).toHaveLength(readRows(shards[0]!).length);
  });

  it('a journalled cell the plan lacks is listed as unplanned', async () => {
    const extra = copy(shards[1]!);
    const rows = readRows(extra);
    writeRows(extra, [...rows, { ...rows[0]!, cell_id: 'zz-not-planned', case_id: 'zz' }]);
    const r = await mergeRuns([shards[0]!, extra], { out: out(), config: config() });
    expect(r.unplanned).toEqual(['zz-not-planned']);
    expect(r.missing).toEqual([]);
  });

  it('a plan that cannot be rebuilt: refused naming why, unless --allow-missing', async () => {
    const lost = copy(shards[0]!);
    const cfg = JSON.parse(readFileSync(join(lost, 'config.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(lost, 'config.json'), JSON.stringify({ ...cfg, suites: ['no-such-suite'] }));
    const to = out();
    const e = await refusal(mergeRuns([lost], { out: to, config: config() }));
    expect(e.message).toMatch(
      /^merge: cannot rebuild the plan to check for missing cells \(.*: unknown suite .*\); --allow-missing merges without the check$/,
    );
    const r = await mergeRuns([lost], { out: to, config: config(), allowMissing: true });
    expect(r.missing).toBeNull();
    expect(r.planError).toMatch(/unknown suite/);
    expect(r.unplanned).toEqual([]);
  });

  it('refuses no directories, an --out that holds files, and a run without a run id', async () => {
    expect((await refusal(mergeRuns([], { out: out(), config: config() }))).message).toBe(
      'merge: name at least one shard run directory',
    );
    const busy = out();
    mkdirSync(busy, { recursive: true });
    writeFileSync(join(busy, 'x'), '');
    expect((await refusal(mergeRuns(shards, { out: busy, config: config() }))).message).toBe(
      `--out: ${busy} exists and is not empty; merge writes a new run directory`,
    );
    // An empty directory is fine.
    const empty = out();
    mkdirSync(empty, { recursive: true });
    await expect(mergeRuns(shards, { out: empty, config: config() })).resolves.toMatchObject({
      runId: 'merged-run',
    });
    const noId = copy(shards[0]!);
    const cfg = JSON.parse(readFileSync(join(noId, 'config.json'), 'utf8')) as Record<string, unknown>;
    delete cfg.runId;
    writeFileSync(join(noId, 'config.json'), JSON.stringify(cfg));
    expect((await refusal(mergeRuns([noId], { out: out(), config: config() }))).message).toBe(
      `${noId}/config.json: runId: missing`,
    );
  });
});

const byCell = (a: ResultRow, b: ResultRow) => (a.cell_id < b.cell_id ? -1 : a.cell_id > b.cell_id ? 1 : 0);
