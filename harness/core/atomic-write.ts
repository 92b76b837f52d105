import { closeSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';

/**
 * Writes a whole file so that nobody ever sees it half-written: the data goes to a temporary file
 * next to the target (same directory, so the rename stays on one file system), is flushed to disk,
 * then renamed over the target — atomic on POSIX. A kill at any instant leaves the old file or the new
 * one (and at worst a stray `.tmp-` file), never a truncated one; a reader sees one or the other.
 */
export function writeFileAtomic(file: string, data: string | Uint8Array): void {
  const tmp = `${file}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    const fd = openSync(tmp, 'wx');
    try {
      writeSync(fd, typeof data === 'string' ? Buffer.from(data) : data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
  } catch (err) {
    try {
      unlinkSync(tmp);
    } catch {
      // never created, or already renamed
    }
    throw err;
  }
}
