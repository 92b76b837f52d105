import { lstatSync, readdirSync, readFileSync, statSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import type { World, WorldTests } from '../core/index.ts';
import { ToolCallError } from '../core/errors.ts';
import { normalizeWorldPath, resolveInside } from './confine.ts';
import { writeInside } from './write.ts';
import { runWorldTests } from './run-tests.ts';
import { workerExecutor, type QueryExecutor } from './query-worker.ts';
import { memoryDatabase, tableInfo, type MaterializedWorld, type TableInfo } from './world.ts';

/**
 * What the tools read a world through. Two implementations with one behaviour: `diskAccess` over a
 * materialised world (live mode: real files, symlinks checked, a read-only SQLite file) and
 * `memoryAccess` over the case's World object (the generators record their transcripts' tool results
 * with it). The tools (tools.ts) render both the same way, so a recorded result and a live one over
 * the same world are the same text.
 */
export interface WorldAccess {
  /** The repository files under a world-relative scope ('.' = all), path → text. */
  filesUnder(scope: string): Record<string, string>;
  /** A file's text, undefined when there is no such file; throws ToolCallError for a path outside the world or a directory. */
  readFile(path: string): string | undefined;
  docNames: string[];
  readDoc(name: string): string | undefined;
  tables: TableInfo[];
  db: Database.Database | null;
  /** Runs a checked query where it can be stopped at its deadline (live worlds); in-process when absent. */
  execute?: QueryExecutor;
  tests: WorldTests | undefined;
  /** Writable worlds only: writes a file of the cell's copy (write.ts); throws ToolCallError when refused. */
  write?(path: string, text: string): { created: boolean };
  /** Writable worlds with a test command: runs it in the copy (run-tests.ts); a declared scope only. */
  runTests?(scope: string | undefined): { content: string; isError: boolean };
  close(): void;
}

export function diskAccess(w: MaterializedWorld): WorldAccess {
  let worker: ReturnType<typeof workerExecutor> | undefined;
  return {
    filesUnder: (scope) =>
      fsErrors(scope, () => {
        const { rel, abs } = resolveInside(w.repoDir, scope, 'path');
        const out: Record<string, string> = {};
        walk(abs, rel === '.' ? '' : rel, out);
        return out;
      }),
    readFile: (path) =>
      fsErrors(path, () => {
        const { abs } = resolveInside(w.repoDir, path);
        // Followed: resolveInside has already resolved an existing path, so what is left to follow is
        // a dangling link — a miss, reported with the model's path, never the temporary one.
        const st = statSync(abs, { throwIfNoEntry: false });
        if (!st) return undefined;
        if (st.isDirectory())
          throw new ToolCallError(`EISDIR: "${path}" is a directory; search_code lists files`);
        refuseHardLink(st, path);
        return readFileSync(abs, 'utf8');
      }),
    docNames: w.docNames,
    readDoc: (name) =>
      fsErrors(name, () => {
        if (!w.docNames.includes(name)) return undefined;
        const { abs } = resolveInside(w.docsDir, name, 'name');
        const st = statSync(abs, { throwIfNoEntry: false });
        if (!st?.isFile()) return undefined;
        refuseHardLink(st, name);
        return readFileSync(abs, 'utf8');
      }),
    tables: w.tables,
    db: w.db,
    execute: (sql, limits) => (worker ??= workerExecutor(join(w.root, 'world.sqlite'))).execute(sql, limits),
    tests: w.tests,
    ...writeAccess(w),
    close() {
      worker?.close();
      w.close();
    },
  };
}

function writeAccess(w: MaterializedWorld): Pick<WorldAccess, 'write' | 'runTests'> {
  if (!w.writable) return {};
  const { runnerDir } = w.writable;
  const run = w.tests?.run;
  return {
    write: (path, text) => fsErrors(path, () => writeInside(w.repoDir, path, text)),
    ...(run
      ? { runTests: (scope) => runWorldTests(run, { root: w.root, repoDir: w.repoDir, runnerDir }, scope) }
      : {}),
  };
}

/**
 * A file-system error as the model's own path names it (ENAMETOOLONG, ENOTDIR, ELOOP, EACCES): never
 * Node's message, which names the temporary directory (requests must be the same on every run).
 */
function fsErrors<T>(path: string, read: () => T): T {
  try {
    return read();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (err instanceof ToolCallError || typeof code !== 'string') throw err;
    throw new ToolCallError(`${code}: cannot read '${path}'`, { cause: err });
  }
}

/**
 * A file with a second name may be that name for a file outside the world: a hard link, which no
 * real path reveals. The harness writes every world file once (one link), so a second name was
 * planted after, and the file is refused.
 */
function refuseHardLink(st: Stats, path: string): void {
  if (st.isFile() && st.nlink > 1)
    throw new ToolCallError(`"${path}" is a hard link to a file that may be outside the world; refused`);
}

/** Regular files only; symbolic links are not followed (ripgrep's default), so none leads outside; hard links are skipped. */
function walk(abs: string, rel: string, out: Record<string, string>): void {
  const st = statOrUndefined(abs);
  if (!st) return;
  if (st.isFile()) {
    if (st.nlink === 1) out[rel] = readFileSync(abs, 'utf8');
    return;
  }
  if (!st.isDirectory()) return;
  for (const name of readdirSync(abs)) walk(join(abs, name), rel ? `${rel}/${name}` : name, out);
}

function statOrUndefined(abs: string) {
  try {
    return lstatSync(abs);
  } catch {
    return undefined;
  }
}

export function memoryAccess(world: World): WorldAccess {
  const files = new Map(Object.entries(world.files ?? {}).map(([p, t]) => [normalizeWorldPath(p), t]));
  const docs = world.docs ?? {};
  const db = world.tables && Object.keys(world.tables).length ? memoryDatabase(world.tables) : null;
  return {
    filesUnder(scope) {
      const rel = normalizeWorldPath(scope, 'path');
      const out: Record<string, string> = {};
      for (const [p, t] of files) if (rel === '.' || p === rel || p.startsWith(`${rel}/`)) out[p] = t;
      return out;
    },
    readFile(path) {
      const rel = normalizeWorldPath(path);
      if (files.has(rel)) return files.get(rel);
      if ([...files.keys()].some((p) => p.startsWith(`${rel}/`)))
        throw new ToolCallError(`EISDIR: "${path}" is a directory; search_code lists files`);
      return undefined;
    },
    docNames: Object.keys(docs).sort(),
    readDoc: (name) => (Object.hasOwn(docs, name) ? docs[name] : undefined),
    tables: tableInfo(world),
    db,
    tests: world.tests,
    close: () => db?.close(),
  };
}
