import type Database from 'better-sqlite3';
import { ToolCallError } from '../core/errors.ts';
import { renderTable } from './render.ts';
import { collectRows, type QueryExecutor, type RowLimits } from './query-worker.ts';

/**
 * The query tool's core: one read-only SELECT against the world's database. Three locks, each enough
 * on its own for writes: the statement must start with SELECT or WITH; SQLite must judge the prepared
 * statement read-only and row-returning (`stmt.readonly`, `stmt.reader` — so `WITH … DELETE`, ATTACH
 * and PRAGMA writes are refused); and the live database is opened read-only. Several statements in one
 * string are refused by better-sqlite3's prepare. A query that could run away is refused before it
 * runs (checkCost); one the estimate misses is stopped at its deadline when `execute` runs it on a
 * worker (query-worker.ts: the live path; the generators' own queries run in-process). More than
 * `maxRows` rows is an error asking for a narrower query, never a silent cut.
 */
export function runQuery(
  db: Database.Database,
  sql: string,
  limits: RowLimits & { timeoutMs?: number },
  rowCounts: ReadonlyMap<string, number> = new Map(),
  execute?: QueryExecutor,
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
  const out = execute
    ? execute(text, { maxRows, maxResultChars, timeoutMs: limits.timeoutMs ?? 2_000 })
    : collectRows(stmt, maxRows, maxResultChars);
  if ('refusal' in out) throw new ToolCallError(out.refusal);
  if ('sqlError' in out) throw new ToolCallError(`SQL error: ${out.sqlError}`);
  return renderTable(columns, out.rows);
}

/** Row combinations a query may visit before it is refused. */
export const MAX_QUERY_COST = 10_000_000;

/**
 * The rows a table-valued function (json_each, json_tree) is costed at: unknown before it runs (its
 * argument may be built by the query), so a JSON array of the size a model writes by hand. Three of
 * them nested are refused (1e9); anything larger that the estimate lets through meets the deadline.
 */
export const TABLE_FUNCTION_ROWS = 1_000;

/**
 * A query that would never end (a recursive CTE) or run for hours (a cross join of many tables or
 * table-valued functions) is refused before it runs: recursion outright, and a plan whose full scans
 * multiply to more than MAX_QUERY_COST row combinations (scans that do not nest, and aliases counted
 * as the largest table, only ever refuse too much; a table-valued function counts TABLE_FUNCTION_ROWS).
 */
function checkCost(db: Database.Database, sql: string, rowCounts: ReadonlyMap<string, number>): void {
  if (/\brecursive\b/i.test(sql)) throw new ToolCallError('recursive queries are not allowed');
  const plan = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[];
  // Plans name a scan by its alias; an alias or a subquery counts as the largest table.
  const largest = Math.max(1, ...rowCounts.values());
  let cost = 1;
  for (const { detail } of plan) {
    const name = /^SCAN (\w+)/.exec(detail)?.[1];
    if (!name || name === 'CONSTANT') continue;
    const rows = / VIRTUAL TABLE\b/.test(detail)
      ? Math.max(TABLE_FUNCTION_ROWS, largest)
      : rowCounts.get(name);
    cost *= Math.max(1, rows ?? largest);
  }
  if (cost > MAX_QUERY_COST)
    throw new ToolCallError(
      `the query would visit about ${cost.toExponential(1)} row combinations (limit ${MAX_QUERY_COST}); join on a condition or narrow it`,
    );
}
