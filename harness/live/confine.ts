import { existsSync, realpathSync } from 'node:fs';
import { isAbsolute, join, posix, sep } from 'node:path';
import { ToolCallError } from '../core/errors.ts';

/**
 * Paths the tools accept: world-relative, '/'-separated, never leaving the world. Checked twice — the
 * text (no absolute path, no `..` that climbs out, no NUL) and, for what exists on disk, the real path
 * after symlinks — so neither `../../etc/passwd` nor a symlink planted inside the world reads outside it.
 */
export function normalizeWorldPath(path: string, what = 'path'): string {
  if (typeof path !== 'string' || path.length === 0)
    throw new ToolCallError(`${what} must be a non-empty string`);
  if (path.includes('\0')) throw new ToolCallError(`${what} contains a NUL character`);
  const slashed = path.replace(/\\/g, '/');
  if (isAbsolute(path) || slashed.startsWith('/') || /^[A-Za-z]:/.test(slashed))
    throw new ToolCallError(`${what} "${path}" is absolute; paths are relative to the world's root`);
  const normal = posix.normalize(slashed).replace(/\/+$/, '');
  if (normal === '..' || normal.startsWith('../'))
    throw new ToolCallError(`${what} "${path}" is outside the world`);
  return normal === '' ? '.' : normal;
}

/**
 * The on-disk path of a world-relative path under `root` (itself a real path), or throws when the text
 * or its real path (symlinks resolved) is outside. A path that does not exist is returned as joined:
 * the caller reports it missing, as a read of a missing file would.
 */
export function resolveInside(root: string, path: string, what = 'path'): { rel: string; abs: string } {
  const rel = normalizeWorldPath(path, what);
  const abs = rel === '.' ? root : join(root, ...rel.split('/'));
  if (!existsSync(abs)) return { rel, abs };
  const real = realpathSync(abs);
  if (real !== root && !real.startsWith(root + sep))
    throw new ToolCallError(`${what} "${path}" resolves outside the world (a symbolic link)`);
  return { rel, abs: real };
}
