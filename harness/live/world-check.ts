import type { World, WorldTestRun, WorldTests } from '../core/index.ts';
import { ToolCallError, WorldError } from '../core/errors.ts';
import { normalizeWorldPath } from './confine.ts';

/**
 * What a world must be before it is written: every file and document path inside the world (no
 * absolute path, no `..` out of it), tables with named columns and rows of that width holding only
 * strings, numbers or nulls, tests with an output and an integer exit code. Throws a WorldError
 * naming the field; `validate` and case loading call it too.
 */
export function checkWorld(world: World, where: string): void {
  if (world.writable !== undefined && typeof world.writable !== 'boolean')
    throw new WorldError(where, 'world.writable', 'must be true or false');
  if (world.tests?.run && !world.writable)
    throw new WorldError(
      where,
      'world.tests.run',
      'runs only in a writable world (set world.writable: true)',
    );
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
  if (tests.run !== undefined) checkRun(tests.run, where);
}

function checkRun(run: WorldTestRun, where: string): void {
  const argv = run?.argv as unknown;
  if (!Array.isArray(argv) || argv.length === 0 || argv.some((a) => typeof a !== 'string' || !a))
    throw new WorldError(where, 'world.tests.run.argv', 'must be a non-empty array of non-empty strings');
  if (
    run.timeoutMs !== undefined &&
    !(Number.isInteger(run.timeoutMs) && run.timeoutMs > 0 && run.timeoutMs <= 600_000)
  )
    throw new WorldError(where, 'world.tests.run.timeoutMs', 'must be an integer from 1 to 600000');
  for (const path of Object.keys(run.files ?? {}))
    try {
      normalizeWorldPath(path);
    } catch (err) {
      throw new WorldError(where, `world.tests.run.files["${path}"]`, (err as ToolCallError).message);
    }
}
