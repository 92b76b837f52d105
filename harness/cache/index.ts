import type { ResponseCache } from './types.ts';
import { SqliteCache } from './sqlite-cache.ts';

/** The response cache a run uses: an embedded SQLite store (WAL) that survives crashes and concurrent writers. */
export function openCache(dir: string): ResponseCache {
  return new SqliteCache(dir);
}
