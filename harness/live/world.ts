import {
  chmodSync,
  constants,
  cpSync,
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
import { normalizeWorldPath } from './confine.ts';
import { checkWorld } from './world-check.ts';
import { processAlive } from '../core/process-alive.ts';

export { checkWorld };

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
  /** A writable world (docs/live.md): this copy's own, writable repository; the test runner's directory. */
  writable?: { runnerDir: string };
  /** A writable world's per-process template this copy was made from (never handed to the tools). */
  source?: string;
  /** Set when the copy is kept after close (`--keep-worlds`). */
  kept?: boolean;
  close(): void;
}

/** Options of one cell's world. */
export interface WorldOptions {
  /** Leave the copy on disk when the cell ends (`--keep-worlds`); its path goes in the cell's row. */
  keep?: boolean;
}

export interface TableInfo {
  name: string;
  columns: readonly string[];
  rows: number;
}

/**
 * Writes the world to a fresh temporary directory; `where` names the case in any error. A writable
 * world is written once per process as a template and each call gets its own copy of it (copy-on-write
 * where the file system allows: COPYFILE_FICLONE), so one cell's edits never reach another's.
 */
export function materializeWorld(world: World, where: string, o: WorldOptions = {}): MaterializedWorld {
  checkWorld(world, where);
  sweepOnce();
  const root = newRoot();
  try {
    const source = world.writable ? templateOf(world) : undefined;
    if (source) copyTree(source, root);
    else writeWorld(world, root, false);
    const file = join(root, 'world.sqlite');
    const db =
      world.tables && Object.keys(world.tables).length
        ? new Database(file, { readonly: true, fileMustExist: true })
        : null;
    const out: MaterializedWorld = {
      root,
      repoDir: join(root, 'repo'),
      docsDir: join(root, 'docs'),
      db,
      tables: tableInfo(world),
      docNames: Object.keys(world.docs ?? {}).sort(),
      tests: world.tests,
      ...(world.writable ? { writable: { runnerDir: join(root, RUNNER_DIR) } } : {}),
      ...(source ? { source } : {}),
      ...(o.keep ? { kept: true } : {}),
      close() {
        db?.close();
        live.delete(root);
        if (o.keep) keepCopy(root);
        else rmSync(root, { recursive: true, force: true });
      },
    };
    return out;
  } catch (err) {
    rmSync(root, { recursive: true, force: true });
    live.delete(root);
    throw err;
  }
}

/** The runner's files of a writable world's test command, next to (never inside) the repository. */
const RUNNER_DIR = 'runner';
const KEPT_FILE = 'kept';

function newRoot(): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), WORLD_PREFIX)));
  // Whose copy this is: a later process removes it once its owner is gone (a kill -9 skips exit).
  writeFileSync(join(root, OWNER_FILE), String(process.pid));
  live.add(root);
  return root;
}

/** The files, documents, tables and (writable) the test runner's files, under `root`. */
function writeWorld(world: World, root: string, writable: boolean): void {
  writeTree(join(root, 'repo'), world.files ?? {}, writable);
  writeTree(join(root, 'docs'), world.docs ?? {}, false);
  if (world.tests?.run?.files) writeTree(join(root, RUNNER_DIR), world.tests.run.files, false);
  if (world.tables && Object.keys(world.tables).length) {
    const file = join(root, 'world.sqlite');
    const writer = new Database(file);
    try {
      fillDatabase(writer, world.tables);
    } finally {
      writer.close();
    }
    chmodSync(file, 0o444);
  }
}

/** Writable worlds' templates, one per World object and process (removed at exit with the copies). */
const templates = new WeakMap<World, string>();

function templateOf(world: World): string {
  let root = templates.get(world);
  if (!root) {
    root = newRoot();
    writeWorld(world, root, true);
    templates.set(world, root);
  }
  return root;
}

/** Copies a template into a fresh root: a reflink where the file system can, a plain copy otherwise. */
function copyTree(from: string, to: string): void {
  for (const name of readdirSync(from))
    if (name !== OWNER_FILE)
      cpSync(join(from, name), join(to, name), { recursive: true, mode: constants.COPYFILE_FICLONE });
}

/** A kept copy: no owner any more (so no later sweep removes it), marked as kept. */
function keepCopy(root: string): void {
  rmSync(join(root, OWNER_FILE), { force: true });
  writeFileSync(join(root, KEPT_FILE), `kept by pid ${process.pid} (--keep-worlds)\n`);
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
    if (statSync(join(root, KEPT_FILE), { throwIfNoEntry: false })) continue;
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

/** Files of a read-only world are made read-only; a writable world's repository stays writable. */
function writeTree(dir: string, files: Readonly<Record<string, string>>, writable = false): void {
  mkdirSync(dir, { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    const abs = join(dir, ...normalizeWorldPath(path).split('/'));
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, text);
    chmodSync(abs, writable ? 0o644 : 0o444);
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
