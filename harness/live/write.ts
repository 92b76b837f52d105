import { closeSync, constants, lstatSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { ToolCallError } from '../core/errors.ts';
import { normalizeWorldPath } from './confine.ts';

/** The longest text one write may leave in a file (a write is a file, not a dump). */
export const MAX_WRITE_CHARS = 200_000;

/**
 * Writes `text` to a world-relative path of a writable world's copy (docs/live.md): the path's text
 * is checked as for reads (no absolute path, no `..` out, no NUL), and then no part of it on disk may
 * be a symbolic link (a write never follows one, even to a place inside), the file itself may not be
 * a hard link (a second name, perhaps for a file outside), a directory or anything but a regular
 * file. Missing directories are made. The final open refuses a link (O_NOFOLLOW) as a last guard.
 */
export function writeInside(repoDir: string, path: string, text: string): { created: boolean } {
  const rel = normalizeWorldPath(path);
  if (rel === '.') throw new ToolCallError(`path "${path}" names the repository's root, not a file`);
  if (text.length > MAX_WRITE_CHARS)
    throw new ToolCallError(
      `the text is ${text.length} characters, over the limit of ${MAX_WRITE_CHARS} for one file`,
    );
  const parts = rel.split('/');
  let dir = repoDir;
  for (const part of parts.slice(0, -1)) {
    dir = join(dir, part);
    const st = lstatSync(dir, { throwIfNoEntry: false });
    if (!st) {
      mkdirSync(dir);
      continue;
    }
    if (st.isSymbolicLink())
      throw new ToolCallError(`"${path}" goes through a symbolic link; writes never follow links`);
    if (!st.isDirectory()) throw new ToolCallError(`ENOTDIR: "${path}": a part of it is a file`);
  }
  const abs = join(repoDir, ...parts);
  const st = lstatSync(abs, { throwIfNoEntry: false });
  if (st?.isSymbolicLink())
    throw new ToolCallError(`"${path}" is a symbolic link; writes never follow links`);
  if (st?.isDirectory()) throw new ToolCallError(`EISDIR: "${path}" is a directory`);
  if (st && !st.isFile()) throw new ToolCallError(`"${path}" is not a regular file`);
  if (st && st.nlink > 1)
    throw new ToolCallError(`"${path}" is a hard link to a file that may be outside the world; refused`);
  const fd = openSync(
    abs,
    constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW,
    0o644,
  );
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  return { created: !st };
}
