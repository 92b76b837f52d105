import type Database from 'better-sqlite3';
import { ToolCallError } from '../core/errors.ts';
import { renderTable } from './render.ts';

/**
 * The query tool's core: one read-only SELECT against the world's database. Three locks, each enough
 * on its own for writes: the statement must start with SELECT or WITH; SQLite must judge the prepared
 * statement read-only and row-returning (`stmt.readonly`, `stmt.reader` — so `WITH … DELETE`, ATTACH
 * and PRAGMA writes are refused); and the live database is opened read-only. Several statements in one
 * string are refused by better-sqlite3's prepare. A query that could run away is refused before it
 * runs (checkCost). More than `maxRows` rows is an error asking for a narrower query, never a silent cut.
 */
export function runQuery(
  db: Database.Database,
  sql: string,
  limits: { maxRows: number; maxResultChars: number },
  rowCounts: ReadonlyMap<string, number> = new Map(),
): string {
  const { maxRows, maxResultChars } = limits;
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
  // pragma_database_list and kin read the connection, not the world: they would name the temporary
  // directory (breaking byte-identical requests) and say nothing about the world's data.
  if (/\bpragma_\w+/i.test(text))
    throw new ToolCallError('PRAGMA functions are not allowed; query the tables the tool lists');
  checkCost(db, text, rowCounts);
  const columns = stmt.columns().map((c) => c.name);
  const rows: (string | number | null)[][] = [];
  let chars = 0;
  try {
    for (const row of stmt.raw(true).iterate() as IterableIterator<unknown[]>) {
      if (rows.length === maxRows)
        throw new ToolCallError(
          `the query returns more than ${maxRows} rows (the row cap); add a WHERE clause, an aggregate or a LIMIT`,
        );
      rows.push(row.map(cell));
      // Stop while streaming, before rendering: a generated value (printf, replace over a zeroblob)
      // can be hundreds of MB, past what a JS string can hold once the table is joined.
      chars += rows.at(-1)!.reduce((n: number, v) => n + String(v ?? '').length + 3, 1);
      if (chars > maxResultChars)
        throw new ToolCallError(
          `the result is over ${maxResultChars} characters; narrow the query (fewer columns, a WHERE clause, substr)`,
        );
    }
  } catch (err) {
    if (err instanceof ToolCallError) throw err;
    throw new ToolCallError(`SQL error: ${(err as Error).message}`, { cause: err });
  }
  return renderTable(columns, rows);
}

/** Row combinations a query may visit before it is refused (a query runs in-process and cannot be interrupted). */
export const MAX_QUERY_COST = 10_000_000;

/**
 * better-sqlite3 cannot interrupt a running statement, so a query that would never end (a recursive
 * CTE) or run for hours (a cross join of many tables) is refused before it runs: recursion outright,
 * and a plan whose full scans multiply to more than MAX_QUERY_COST row combinations (an over-estimate:
 * scans that do not nest, and aliases counted as the largest table, only ever refuse too much).
 */
function checkCost(db: Database.Database, sql: string, rowCounts: ReadonlyMap<string, number>): void {
  if (/\brecursive\b/i.test(sql)) throw new ToolCallError('recursive queries are not allowed');
  const plan = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[];
  // Plans name a scan by its alias; an alias or a subquery counts as the largest table.
  const largest = Math.max(1, ...rowCounts.values());
  let cost = 1;
  for (const { detail } of plan) {
    const name = /^SCAN (\w+)/.exec(detail)?.[1];
    if (name && name !== 'CONSTANT') cost *= Math.max(1, rowCounts.get(name) ?? largest);
  }
  if (cost > MAX_QUERY_COST)
    throw new ToolCallError(
      `the query would visit about ${cost.toExponential(1)} row combinations (limit ${MAX_QUERY_COST}); join on a condition or narrow it`,
    );
}

function cell(v: unknown): string | number | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number' || typeof v === 'string') return v;
  if (typeof v === 'bigint') return v.toString();
  if (Buffer.isBuffer(v)) return `<blob ${v.length} bytes>`;
  return String(v);
}
