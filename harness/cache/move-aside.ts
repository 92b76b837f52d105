import { existsSync, renameSync } from 'node:fs';
import { CacheError } from '../core/errors.ts';

/** A cache file SQLite called damaged, already moved out of the way to `aside`. */
export class DamagedCache extends Error {
  constructor(
    readonly file: string,
    readonly aside: string,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`${file}: ${reason}; moved to ${aside}`, options);
  }
}

/**
 * Renames a damaged database and its -wal and -shm (SQLite names them <db>-wal, <db>-shm) to
 * `<db>.corrupt-<timestamp>[-wal|-shm]`, so they still pair up for anyone who wants to inspect them,
 * and a new database at the old path does not replay the old WAL (a WAL carries its own pages).
 */
export function moveAside(file: string): string {
  const aside = `${file}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  for (const suffix of ['', '-wal', '-shm']) {
    try {
      if (existsSync(file + suffix)) renameSync(file + suffix, aside + suffix);
    } catch (err) {
      // Another process (a second shard) moved it first: the file is out of the way either way.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
        throw new CacheError(file, `cannot be moved aside: ${String(err)}`, { cause: err });
    }
  }
  return aside;
}
