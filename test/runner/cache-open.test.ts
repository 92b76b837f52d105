import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import Database from 'better-sqlite3';
import { CacheError } from '../../harness/core/errors.ts';
import { openCache, openCacheLazily } from '../../harness/cache/index.ts';
import { moveAside } from '../../harness/cache/move-aside.ts';
import { isCorruption, SqliteCache, sqliteReason } from '../../harness/cache/sqlite-cache.ts';
import { tempDir } from '../support/mock-run.ts';
import { plainResponse } from '../support/model-response.ts';

/**
 * Opening the response cache, in-process: what cache-corrupt.test.ts and cache.test.ts check through the
 * CLI or a second process (where a mutant cannot be seen), here against the functions themselves —
 * which failures move a file aside and which are errors, what the warning and the aside name say, the
 * lazy cache that leaves no directory behind, and the store's default batch and timer.
 */
afterEach(() => vi.useRealTimers());

const answer = plainResponse;
const rowsOnDisk = (dir: string): number => {
  const db = new Database(join(dir, 'responses.sqlite'), { readonly: true });
  try {
    return db.prepare('SELECT count(*) FROM responses').pluck().get() as number;
  } finally {
    db.close();
  }
};
/** The aside name: `<file>.corrupt-` and an ISO timestamp with `:` and `.` made file-safe. */
const ASIDE = /^responses\.sqlite\.corrupt-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;

describe('openCache', () => {
  it('moves a file that is not a database aside, says so in one line naming both files, and starts empty', () => {
    const dir = tempDir('open-notadb');
    mkdirSync(dir, { recursive: true });
    const garbage = Buffer.alloc(8192, 0x5a);
    writeFileSync(join(dir, 'responses.sqlite'), garbage);
    const warnings: string[] = [];
    const cache = openCache(dir, (l) => warnings.push(l));
    const aside = readdirSync(dir).filter((f) => f.includes('.corrupt-'));
    expect(aside).toHaveLength(1);
    expect(aside[0]).toMatch(ASIDE);
    expect(readFileSync(join(dir, aside[0]!)).equals(garbage)).toBe(true);
    expect(warnings).toEqual([
      `handoff-eval: warning: response cache ${join(dir, 'responses.sqlite')} cannot be opened (SQLITE_NOTADB: file is not a database); moved to ${join(dir, aside[0]!)}, starting an empty cache`,
    ]);
    // The new cache works and is empty.
    const key = cache.keyOf('sim', { model: 'm', messages: [], maxTokens: 1, seed: 's', purpose: 'answer' });
    expect(cache.get(key)).toBeUndefined();
    cache.set(key, answer('fresh'));
    cache.close();
    expect(rowsOnDisk(dir)).toBe(1);
  });

  it('a cache that cannot be opened for another reason is a CacheError naming the directory, and nothing is moved', () => {
    const parent = tempDir('open-notdir');
    const dir = join(parent, 'cache');
    writeFileSync(dir, 'a file where the cache directory should be');
    const warn = vi.fn();
    let error: unknown;
    try {
      openCache(dir, warn);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(CacheError);
    expect(String((error as Error).message)).toMatch(/cannot be opened: .*(EEXIST|ENOTDIR)/);
    expect((error as Error).message).toContain(dir);
    expect(warn).not.toHaveBeenCalled();
    expect(readFileSync(dir, 'utf8')).toBe('a file where the cache directory should be');
    expect(readdirSync(parent)).toEqual(['cache']);
  });

  it('SqliteCache alone throws the SQLite error and moves nothing unless asked to', () => {
    const dir = tempDir('open-plain');
    writeFileSync(join(dir, 'responses.sqlite'), Buffer.alloc(4096, 0x5a));
    expect(() => new SqliteCache(dir)).toThrow(/not a database/);
    expect(readdirSync(dir)).toEqual(['responses.sqlite']);
  });
});

describe('openCacheLazily', () => {
  it('creates nothing until the cache is used; flush and close before then are no-ops', () => {
    const dir = join(tempDir('lazy'), 'cache');
    const cache = openCacheLazily(dir);
    cache.flush?.();
    cache.close();
    expect(existsSync(dir)).toBe(false);
  });

  it('opens on first use and is then the cache: what is set is read back and written on close', () => {
    const dir = join(tempDir('lazy-used'), 'cache');
    const cache = openCacheLazily(dir);
    const key = cache.keyOf('sim', { model: 'm', messages: [], maxTokens: 1, seed: 's', purpose: 'answer' });
    expect(existsSync(join(dir, 'responses.sqlite'))).toBe(true);
    expect(cache.get(key)).toBeUndefined();
    cache.set(key, answer('kept'));
    expect(cache.get(key)?.text).toBe('kept');
    cache.flush?.();
    expect(rowsOnDisk(dir)).toBe(1);
    cache.set('second', answer('written by close'));
    cache.close();
    expect(rowsOnDisk(dir)).toBe(2);
    const again = openCacheLazily(dir);
    expect(again.get(key)?.text).toBe('kept');
    again.close();
  });
});

describe('moveAside', () => {
  it('moves the database with its -wal and -shm under one timestamped name; absent companions are skipped', () => {
    const dir = tempDir('aside');
    const file = join(dir, 'responses.sqlite');
    writeFileSync(file, 'db');
    writeFileSync(`${file}-wal`, 'wal');
    const aside = moveAside(file);
    expect(aside.startsWith(`${file}.corrupt-`)).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(
      [aside, `${aside}-wal`].map((f) => f.slice(dir.length + 1)).sort(),
    );
    expect(readFileSync(`${aside}-wal`, 'utf8')).toBe('wal');
    // Nothing there (another shard moved it first): no error, nothing created.
    const gone = moveAside(join(dir, 'missing.sqlite'));
    expect(gone).toMatch(/missing\.sqlite\.corrupt-/);
    expect(readdirSync(dir)).toHaveLength(2);
  });
});

describe("SQLite's verdicts", () => {
  it('isCorruption: only SQLite saying the file is damaged or not a database', () => {
    expect(isCorruption({ code: 'SQLITE_CORRUPT' })).toBe(true);
    expect(isCorruption({ code: 'SQLITE_CORRUPT_VTAB' })).toBe(true);
    expect(isCorruption({ code: 'SQLITE_NOTADB' })).toBe(true);
    expect(isCorruption({ code: 'SQLITE_BUSY' })).toBe(false);
    expect(isCorruption({ code: 'SQLITE_CANTOPEN' })).toBe(false);
    expect(isCorruption({ code: 'XSQLITE_CORRUPT' })).toBe(false);
    expect(isCorruption({})).toBe(false);
    expect(isCorruption(null)).toBe(false);
  });

  it('sqliteReason: code and message when both are there, else what there is', () => {
    expect(sqliteReason({ code: 'SQLITE_BUSY', message: 'database is locked' })).toBe(
      'SQLITE_BUSY: database is locked',
    );
    expect(sqliteReason(new Error('plain'))).toBe('plain');
    expect(sqliteReason('text')).toBe('text');
  });
});

describe('the store’s defaults', () => {
  it('a batch of 64 writes at once; a part batch waits 250 ms', () => {
    vi.useFakeTimers();
    const dir = tempDir('defaults');
    const cache = new SqliteCache(dir);
    for (let i = 0; i < 63; i++) cache.set(`k${i}`, answer(String(i)));
    expect(rowsOnDisk(dir)).toBe(0);
    cache.set('k63', answer('63'));
    expect(rowsOnDisk(dir)).toBe(64);
    cache.set('late', answer('late'));
    vi.advanceTimersByTime(249);
    expect(rowsOnDisk(dir)).toBe(64);
    vi.advanceTimersByTime(1);
    expect(rowsOnDisk(dir)).toBe(65);
    cache.close();
  });
});
