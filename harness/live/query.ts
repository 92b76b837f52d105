import type Database from 'better-sqlite3';
import { ToolCallError } from '../errors.ts';
import { renderTable } from './render.ts';

/**
 * The query tool's core: one read-only SELECT against the world's database. Three locks, each enough
 * on its own for writes: the statement must start with SELECT or WITH; SQLite must judge the prepared
 * statement read-only and row-returning (`stmt.readonly`, `stmt.reader` — so `WITH … DELETE`, ATTACH
 * and PRAGMA writes are refused); and the live database is opened read-only. Several statements in one
 * string are refused by better-sqlite3's prepare. More than `maxRows` rows is an error asking for a
 * narrower query, never a silent cut.
 */
export function runQuery(db: Database.Database, sql: string, maxRows: number): string {
  const text = sql.trim().replace(/;\s*$/, '');
  const keyword = /^\s*(\w+)/.exec(text.replace(/^(\s*(--[^\n]*\n|\/\*[\s\S]*?\*\/))*/, ''))?.[1];
  if (!keyword || !['select', 'with'].includes(keyword.toLowerCase()))
    throw new ToolCallError(
      `only SELECT statements are allowed (got ${keyword ? keyword.toUpperCase() : 'nothing'})`,
    );
  let stmt: Database.Statement;
  try {
    stmt = db.prepare(text);
  } catch (err) {
    throw new ToolCallError(`SQL error: ${(err as Error).message}`, { cause: err });
  }
  if (!stmt.readonly || !stmt.reader) throw new ToolCallError('only read-only SELECT statements are allowed');
  const columns = stmt.columns().map((c) => c.name);
  const rows: (string | number | null)[][] = [];
  try {
    for (const row of stmt.raw(true).iterate() as IterableIterator<unknown[]>) {
      if (rows.length === maxRows)
        throw new ToolCallError(
          `the query returns more than ${maxRows} rows (the row cap); add a WHERE clause, an aggregate or a LIMIT`,
        );
      rows.push(row.map(cell));
    }
  } catch (err) {
    if (err instanceof ToolCallError) throw err;
    throw new ToolCallError(`SQL error: ${(err as Error).message}`, { cause: err });
  }
  return renderTable(columns, rows);
}

function cell(v: unknown): string | number | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number' || typeof v === 'string') return v;
  if (typeof v === 'bigint') return v.toString();
  if (Buffer.isBuffer(v)) return `<blob ${v.length} bytes>`;
  return String(v);
}
