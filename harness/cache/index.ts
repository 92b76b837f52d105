import type { ResponseCache } from './types.ts';
import { SqliteCache, sqliteReason } from './sqlite-cache.ts';
import { DamagedCache } from './move-aside.ts';
import { CacheError } from '../core/errors.ts';

const toStderr = (line: string) => void process.stderr.write(`${line}\n`);

/**
 * The response cache a run uses: an embedded SQLite store (WAL) that survives crashes and concurrent
 * writers. A file SQLite calls damaged or not a database is only a cache: it is moved aside as
 * `responses.sqlite.corrupt-<timestamp>` (with its -wal and -shm), one warning line says so, and an
 * empty cache is started. A cache that cannot be opened for another reason (a lock held too long,
 * permissions, a file where the directory should be) is a CacheError: moving a healthy file aside
 * would lose it.
 */
export function openCache(dir: string, warn: (line: string) => void = toStderr): ResponseCache {
  const open = () => new SqliteCache(dir, { onWarning: warn, moveAsideIfDamaged: true });
  try {
    return open();
  } catch (err) {
    if (!(err instanceof DamagedCache))
      throw new CacheError(dir, `cannot be opened: ${sqliteReason(err)}`, { cause: err });
    warn(
      `handoff-eval: warning: response cache ${err.file} cannot be opened (${err.reason}); moved to ${err.aside}, starting an empty cache`,
    );
    try {
      return open();
    } catch (again) {
      throw new CacheError(dir, `cannot be rebuilt: ${sqliteReason(again)}`, { cause: again });
    }
  }
}

/**
 * The same cache, opened on first use: a command that may or may not call a model (render) leaves no
 * cache directory behind when it calls none.
 */
export function openCacheLazily(dir: string): ResponseCache {
  let cache: ResponseCache | undefined;
  const open = () => (cache ??= openCache(dir));
  return {
    keyOf: (provider, request, scope) => open().keyOf(provider, request, scope),
    get: (key) => open().get(key),
    set: (key, response) => open().set(key, response),
    flush: () => cache?.flush?.(),
    close: () => cache?.close(),
  };
}
