import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { canonicalJson } from '../../harness/cache/canonical-json.ts';
import { SqliteCache } from '../../harness/cache/sqlite-cache.ts';
import { tempDir } from '../support/mock-run.ts';
import { plainResponse } from '../support/model-response.ts';

/** Cache details that the mutation run (docs/testing.md) showed no in-process test pinned. */
const answer = plainResponse;
const onDisk = (dir: string, key: string) => {
  const db = new Database(join(dir, 'responses.sqlite'), { readonly: true });
  try {
    return db.prepare('SELECT value FROM responses WHERE key = ?').pluck().get(key) as string | undefined;
  } finally {
    db.close();
  }
};

describe('canonicalJson', () => {
  it('sorts object keys at every level, keeps arrays in order, and passes null and primitives through', () => {
    expect(canonicalJson({ b: null, a: [{ d: 1, c: [3, 2, 10] }, 'x'] })).toBe(
      '{"a":[{"c":[3,2,10],"d":1},"x"],"b":null}',
    );
    const long = Array.from({ length: 12 }, (_, i) => i);
    expect(canonicalJson(long)).toBe(JSON.stringify(long));
    expect(canonicalJson(null)).toBe('null');
    expect(canonicalJson(undefined)).toBe('null');
    expect(canonicalJson('s')).toBe('"s"');
    expect(canonicalJson({ a: 1, b: 2 })).toBe('{"a":1,"b":2}');
  });
});

describe('the cache store', () => {
  it('writes a batch when it is full, not before; the first answer stored for a key wins', () => {
    const dir = tempDir('cache-batch');
    const cache = new SqliteCache(dir, { batchSize: 3, flushMs: 60_000 });
    cache.set('k1', answer('one'));
    cache.set('k1', answer('one again'));
    cache.set('k2', answer('two'));
    expect(onDisk(dir, 'k1')).toBeUndefined();
    expect(cache.get('k1')?.text).toBe('one');
    cache.set('k3', answer('three'));
    expect(JSON.parse(onDisk(dir, 'k1')!).text).toBe('one');
    expect(JSON.parse(onDisk(dir, 'k3')!).text).toBe('three');
    cache.close();
  });

  it('writes a part batch after flushMs', async () => {
    const dir = tempDir('cache-timer');
    const cache = new SqliteCache(dir, { batchSize: 64, flushMs: 20 });
    cache.set('k', answer('later'));
    expect(onDisk(dir, 'k')).toBeUndefined();
    for (let i = 0; i < 100 && onDisk(dir, 'k') === undefined; i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(JSON.parse(onDisk(dir, 'k')!).text).toBe('later');
    cache.close();
  });

  it('deletes a stored entry that is not a response, so the fresh answer can take its key', () => {
    const dir = tempDir('cache-misshaped');
    new SqliteCache(dir).close();
    const db = new Database(join(dir, 'responses.sqlite'));
    db.prepare('INSERT INTO responses (key, value, created_at) VALUES (?, ?, ?)').run(
      'k',
      '{"status":"ok"}',
      0,
    );
    db.close();
    const cache = new SqliteCache(dir, { batchSize: 1 });
    expect(cache.get('k')).toBeUndefined();
    expect(onDisk(dir, 'k')).toBeUndefined();
    cache.set('k', answer('fresh'));
    expect(cache.get('k')?.text).toBe('fresh');
    expect(JSON.parse(onDisk(dir, 'k')!).text).toBe('fresh');
    cache.close();
  });
});
