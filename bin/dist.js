// Which code a bin runs: the esbuild bundle in dist/ (scripts/build.mjs) when it is there and no
// source it was built from has changed since; otherwise the TypeScript sources through tsx. A stale
// or missing dist/ is never an error, only slower to start.
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageRoot = dirname(dirname(fileURLToPath(import.meta.url)));

/**
 * The bundled entry's path (e.g. "cli" → dist/cli.js) if dist/ is current, else null. A source whose
 * mtime is newer than the build counts as changed unless its content hash is the one bundled: an
 * installed package's files all carry the time they were unpacked.
 */
export function freshDist(entry, root = packageRoot) {
  if (process.env.HANDOFF_EVAL_FROM_SOURCE === '1') return null;
  try {
    const stamp = JSON.parse(readFileSync(join(root, 'dist', 'stamp.json'), 'utf8'));
    const file = join(root, 'dist', `${entry}.js`);
    statSync(file);
    for (const source of stamp.entries?.[entry] ?? stamp.sources) {
      const path = join(root, source);
      if (statSync(path).mtimeMs <= stamp.builtAt) continue;
      const hash = stamp.hashes?.[source];
      if (!hash || createHash('sha1').update(readFileSync(path)).digest('hex') !== hash) return null;
    }
    return file;
  } catch {
    return null; // no build, an unreadable stamp, or a source that is gone: run the sources
  }
}
