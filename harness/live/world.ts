import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import type { World, WorldTests } from '../core/index.ts';
import { ToolCallError, WorldError } from '../core/errors.ts';
import { normalizeWorldPath } from './confine.ts';
import { processAlive } from '../core/process-alive.ts';

/**
 * A case's world on disk, for one cell (docs/live.md): `repo/` holds the files, `docs/` the documents,
 * `world.sqlite` the tables — written once, files made read-only, the database opened read-only. The
 * tools read only through it, and nothing in a tool result names the temporary directory (requests
 * must be the same on every run for the response cache to serve them).
 */
export interface MaterializedWorld {
  root: string;
  repoDir: string;
  docsDir: string;
  /** Read-only handle on the tables, or null when the world has none. */
  db: Database.Database | null;
  tables: TableInfo[];
  docNames: string[];
  tests: WorldTests | undefined;
  close(): void;
}

export interface TableInfo {
  name: string;
  columns: readonly string[];
  rows: number;
}

/** Writes the world to a fresh temporary directory; `where` names the case in any error. */
export function materializeWorld(world: World, where: string): MaterializedWorld {
  checkWorld(world, where);
  sweepOnce();
  const root = realpathSync(mkdtempSync(join(tmpdir(), WORLD_PREFIX)));
  // Whose copy this is: a later process removes it once its owner is gone (a kill -9 skips exit).
  writeFileSync(join(root, OWNER_FILE), String(process.pid));
  live.add(root);
  try {
    const repoDir = join(root, 'repo');
    const docsDir = join(root, 'docs');
    writeTree(repoDir, world.files ?? {});
    writeTree(docsDir, world.docs ?? {});
    const tables = Object.entries(world.tables ?? {});
    let db: Database.Database | null = null;
    if (tables.length) {
      const file = join(root, 'world.sqlite');
      const writer = new Database(file);
      try {
        fillDatabase(writer, world.tables!);
      } finally {
        writer.close();
      }
      chmodSync(file, 0o444);
      db = new Database(file, { readonly: true, fileMustExist: true });
    }
    return {
      root,
      repoDir,
      docsDir,
      db,
      tables: tableInfo(world),
      docNames: Object.keys(world.docs ?? {}).sort(),
      tests: world.tests,
      close() {
        db?.close();
        rmSync(root, { recursive: true, force: true });
        live.delete(root);
      },
    };
  } catch (err) {
    rmSync(root, { recursive: true, force: true });
    live.delete(root);
    throw err;
  }
}

const WORLD_PREFIX = 'handoff-world-';
const OWNER_FILE = 'owner.pid';
/** This process's world copies not yet closed: removed at exit (an interrupted run, an uncaught error). */
const live = new Set<string>();
let swept = false;

function sweepOnce(): void {
  if (swept) return;
  swept = true;
  process.once('exit', () => {
    for (const root of live) rmSync(root, { recursive: true, force: true });
  });
  sweepStaleWorlds();
}

/**
 * Removes world copies left in the temporary directory by processes that no longer exist (a live run
 * killed with SIGKILL never reaches its exit handler). A copy is removed only when its owner file
 * names a process that is gone; one without an owner file (being written, or from an older version)
 * only when it is over a day old. Returns the directories removed.
 */
export function sweepStaleWorlds(dir = tmpdir(), now = Date.now()): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.startsWith(WORLD_PREFIX));
  } catch {
    return removed;
  }
  for (const name of names) {
    const root = join(dir, name);
    try {
      const owner = Number(readFileSync(join(root, OWNER_FILE), 'utf8'));
      if (Number.isInteger(owner) && owner > 0 && processAlive(owner)) continue;
    } catch {
      const age = now - (statSync(root, { throwIfNoEntry: false })?.mtimeMs ?? now);
      if (age < 24 * 3_600_000) continue;
    }
    rmSync(root, { recursive: true, force: true });
    removed.push(root);
  }
  return removed;
}

function writeTree(dir: string, files: Record<string, string>): void {
  mkdirSync(dir, { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    const abs = join(dir, ...normalizeWorldPath(path).split('/'));
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, text);
    chmodSync(abs, 0o444);
  }
}

/** An in-memory copy of the tables, for generators that record query results from the same world. */
export function memoryDatabase(tables: NonNullable<World['tables']>): Database.Database {
  const db = new Database(':memory:');
  fillDatabase(db, tables);
  return db;
}

function fillDatabase(db: Database.Database, tables: NonNullable<World['tables']>): void {
  db.transaction(() => {
    for (const [name, t] of Object.entries(tables)) {
      db.exec(`CREATE TABLE ${ident(name)} (${t.columns.map(ident).join(', ')})`);
      const insert = db.prepare(`INSERT INTO ${ident(name)} VALUES (${t.columns.map(() => '?').join(', ')})`);
      for (const row of t.rows) insert.run(...row);
    }
  })();
}

export function tableInfo(world: World): TableInfo[] {
  return Object.entries(world.tables ?? {})
    .map(([name, t]) => ({ name, columns: t.columns, rows: t.rows.length }))
    .sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** A quoted SQL identifier. */
export function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * What a world must be before it is written: every file and document path inside the world (no
 * absolute path, no `..` out of it), tables with named columns and rows of that width holding only
 * strings, numbers or nulls, tests with an output and an integer exit code. Throws a WorldError
 * naming the field; `validate` and case loading call it too.
 */
export function checkWorld(world: World, where: string): void {
  for (const kind of ['files', 'docs'] as const) checkPaths(Object.keys(world[kind] ?? {}), kind, where);
  for (const [name, t] of Object.entries(world.tables ?? {})) checkTable(name, t, where);
  if (world.tests) checkTests(world.tests, where);
}

function checkPaths(paths: string[], kind: 'files' | 'docs', where: string): void {
  const seen = new Map<string, string>();
  for (const path of paths) {
    let normal: string;
    try {
      normal = normalizeWorldPath(path);
    } catch (err) {
      throw new WorldError(where, `world.${kind}["${path}"]`, (err as ToolCallError).message);
    }
    if (normal === '.') throw new WorldError(where, `world.${kind}["${path}"]`, 'names the root, not a file');
    const twin = seen.get(normal);
    if (twin !== undefined)
      throw new WorldError(where, `world.${kind}["${path}"]`, `is the same file as "${twin}"`);
    seen.set(normal, path);
  }
  for (const [normal, path] of seen)
    for (let i = normal.indexOf('/'); i > 0; i = normal.indexOf('/', i + 1))
      if (seen.has(normal.slice(0, i)))
        throw new WorldError(
          where,
          `world.${kind}["${seen.get(normal.slice(0, i))}"]`,
          `is a file, but "${path}" needs it to be a directory`,
        );
}

function checkTable(name: string, t: unknown, where: string): void {
  const field = `world.tables.${name}`;
  const table = t as { columns?: unknown; rows?: unknown };
  if (!name) throw new WorldError(where, 'world.tables', 'a table needs a name');
  const cols = table?.columns;
  if (!Array.isArray(cols) || cols.length === 0 || cols.some((c) => typeof c !== 'string' || !c))
    throw new WorldError(where, `${field}.columns`, 'must be a non-empty array of column names');
  if (!Array.isArray(table.rows)) throw new WorldError(where, `${field}.rows`, 'must be an array of rows');
  table.rows.forEach((row, i) => {
    if (!Array.isArray(row) || row.length !== cols.length)
      throw new WorldError(where, `${field}.rows[${i}]`, `must be an array of ${cols.length} values`);
    const bad = row.findIndex((v) => v !== null && typeof v !== 'string' && typeof v !== 'number');
    if (bad >= 0)
      throw new WorldError(where, `${field}.rows[${i}][${bad}]`, 'must be a string, a number or null');
  });
}

function checkTests(tests: WorldTests, where: string): void {
  const check = (o: { output?: unknown; exitCode?: unknown }, field: string) => {
    if (typeof o?.output !== 'string') throw new WorldError(where, `${field}.output`, 'must be a string');
    if (!Number.isInteger(o.exitCode)) throw new WorldError(where, `${field}.exitCode`, 'must be an integer');
  };
  check(tests, 'world.tests');
  if (typeof tests.command !== 'string' || !tests.command)
    throw new WorldError(where, 'world.tests.command', 'must be a non-empty string');
  for (const [scope, o] of Object.entries(tests.scopes ?? {})) check(o, `world.tests.scopes.${scope}`);
}
