import { describe, expect, it } from 'vitest';
import { copyFileSync, existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SqliteCache } from '../../harness/cache/sqlite-cache.ts';
import { openCache } from '../../harness/cache/index.ts';
import type { ModelResponse } from '../../harness/core/index.ts';
import { runCli } from '../support/cli.ts';
import { fixtureCases, rowsOf, tempDir } from '../support/mock-run.ts';

/**
 * A response cache on disk can be damaged (a full disk, a copy cut short, a bad sector, another tool
 * writing into it). It is only a cache: a file that cannot be opened is moved aside with one warning
 * and rebuilt; an entry that cannot be read, or is not a response, is a miss — never an error row.
 */
const response = (text: string): ModelResponse => ({
  text,
  toolCalls: [],
  stopReason: 'end_turn',
  usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 },
  latencyMs: 1,
  model: 'm',
  cached: false,
  retries: 0,
  costUsd: 0,
});

/** A project whose sim run makes enough calls to fill several SQLite pages. */
function project(): { dir: string; cacheDir: string; run: () => ReturnType<typeof runCli> } {
  const dir = tempDir('cache-bad');
  const cacheDir = join(dir, 'cache');
  writeFileSync(
    join(dir, 'eval.config.ts'),
    `export default ${JSON.stringify({ casesDir: fixtureCases, reps: 20, cache: { dir: cacheDir } })};\n`,
  );
  return { dir, cacheDir, run: () => runCli(['run', '--out', join(dir, 'runs'), '--quiet'], { cwd: dir }) };
}

const runDirs = (dir: string) =>
  existsSync(join(dir, 'runs'))
    ? readdirSync(join(dir, 'runs'))
        .sort()
        .map((d) => join(dir, 'runs', d))
    : [];

describe('a cache file that cannot be opened', () => {
  it.each([
    ['garbage (not a database)', (good: Buffer) => Buffer.alloc(good.length, 0x5a)],
    ['truncated to half', (good: Buffer) => good.subarray(0, good.length / 2)],
  ])('%s: moved aside with one warning line, rebuilt, the run completes', (_, damage) => {
    const p = project();
    expect(p.run().code).toBe(0);
    const file = join(p.cacheDir, 'responses.sqlite');
    const damaged = damage(readFileSync(file));
    writeFileSync(file, damaged);
    const r = p.run();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
    const warnings = r.stderr.split('\n').filter((l) => /response cache/.test(l));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/moved to .*responses\.sqlite\.corrupt-/);
    const aside = readdirSync(p.cacheDir).filter((f) => /^responses\.sqlite\.corrupt-[0-9TZ-]+$/.test(f));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(p.cacheDir, aside[0]!)).equals(damaged)).toBe(true);
    const [, second] = runDirs(p.dir);
    expect(rowsOf(second!).every((row) => row.status === 'ok')).toBe(true);
    // The rebuilt cache is a working cache: a third run is served from it.
    const third = p.run();
    expect(third.code, third.stderr).toBe(0);
    expect(third.stderr).not.toMatch(/response cache/);
    const rows = rowsOf(runDirs(p.dir)[2]!);
    expect(rows.every((row) => row.status === 'ok' && row.cached_calls === row.model_calls)).toBe(true);
  });

  it('a cache that cannot be created at all is one line, exit 2, and no run directory', () => {
    const p = project();
    writeFileSync(p.cacheDir, 'a file where the cache directory should be');
    const r = p.run();
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/response cache .*cache/);
    expect(r.stderr).not.toMatch(/internal error/);
    expect(runDirs(p.dir)).toEqual([]);
  });
});

describe('entries that cannot be read are misses', () => {
  it('corrupt pages mid-file: the run completes with no error row (a read error is a miss)', () => {
    const p = project();
    expect(p.run().code).toBe(0);
    const file = join(p.cacheDir, 'responses.sqlite');
    const bytes = readFileSync(file);
    // Keep the header page (the file still opens); overwrite every other page's b-tree header.
    for (let page = 1; page * 4096 < bytes.length; page++) bytes.fill(0xde, page * 4096, page * 4096 + 64);
    writeFileSync(file, bytes);
    const r = p.run();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
    const rows = rowsOf(runDirs(p.dir)[1]!);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.filter((row) => row.status === 'error').map((row) => row.error)).toEqual([]);
  });

  it('mis-shaped entries (valid JSON, not a response) are misses: no error row, the provider is asked', () => {
    const p = project();
    expect(p.run().code).toBe(0);
    const file = join(p.cacheDir, 'responses.sqlite');
    const db = new Database(file);
    db.prepare('UPDATE responses SET value = \'{"text":5}\' WHERE rowid % 3 = 0').run();
    db.prepare("UPDATE responses SET value = '[]' WHERE rowid % 3 = 1").run();
    db.close();
    const r = p.run();
    expect(r.code, r.stderr).toBe(0);
    const rows = rowsOf(runDirs(p.dir)[1]!);
    expect(rows.filter((row) => row.status === 'error').map((row) => row.error)).toEqual([]);
    // Two thirds of the entries were unusable, so those calls went to the provider again ...
    expect(rows.reduce((n, row) => n + row.model_calls - row.cached_calls, 0)).toBeGreaterThan(0);
    // ... and their fresh answers replaced the bad entries: the next run is served entirely from the cache.
    expect(p.run().code).toBe(0);
    const third = rowsOf(runDirs(p.dir)[2]!);
    expect(third.every((row) => row.status === 'ok' && row.cached_calls === row.model_calls)).toBe(true);
  });

  it('get() validates the stored shape before returning it', () => {
    const dir = tempDir('cache-shape');
    const cache = new SqliteCache(dir);
    cache.set('good', response('fine'));
    cache.close();
    const db = new Database(join(dir, 'responses.sqlite'));
    const put = db.prepare('INSERT INTO responses (key, value, created_at) VALUES (?, ?, 0)');
    const { usage: _u, ...noUsage } = response('x');
    const bad: Record<string, unknown> = {
      notJson: '{"text":',
      null: 'null',
      string: '"text"',
      array: '[]',
      textNotString: JSON.stringify({ ...response('x'), text: 5 }),
      noUsage: JSON.stringify(noUsage),
      badToolCall: JSON.stringify({ ...response('x'), toolCalls: [{ id: 1 }] }),
      nanTokens: JSON.stringify({ ...response('x'), usage: { ...response('x').usage, inputTokens: 'many' } }),
    };
    for (const [k, v] of Object.entries(bad)) put.run(k, v);
    db.close();
    const again = new SqliteCache(dir);
    expect(again.get('good')?.text).toBe('fine');
    for (const k of Object.keys(bad)) expect(again.get(k), k).toBeUndefined();
    again.close();
  });

  it('openCache moves aside the -wal and -shm files with the database they belong to', () => {
    const dir = tempDir('cache-wal');
    // A damaged database with its WAL and shared-memory files: left in place, SQLite would replay that
    // WAL into the new file (a WAL carries its own pages), so they must go with it.
    writeFileSync(join(dir, 'responses.sqlite'), Buffer.alloc(8192, 0x5a));
    writeFileSync(join(dir, 'responses.sqlite-wal'), Buffer.alloc(4128, 0x33));
    writeFileSync(join(dir, 'responses.sqlite-shm'), Buffer.alloc(32768, 0x44));
    const warnings: string[] = [];
    const fresh = openCache(dir, (line) => warnings.push(line));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/SQLITE_NOTADB/);
    fresh.set('k2', response('v2'));
    fresh.close();
    const files = readdirSync(dir);
    const aside = files.find((f) => /^responses\.sqlite\.corrupt-[0-9TZ-]+$/.test(f))!;
    expect(readFileSync(join(dir, `${aside}-wal`)).equals(Buffer.alloc(4128, 0x33))).toBe(true);
    // The -shm is SQLite's scratch index (it rewrites it on open); it goes along, its bytes do not matter.
    expect(existsSync(join(dir, `${aside}-shm`))).toBe(true);
    const reopened = openCache(dir, (line) => warnings.push(line));
    expect(reopened.get('k2')?.text).toBe('v2');
    reopened.close();
    expect(warnings).toHaveLength(1);
  });
});
