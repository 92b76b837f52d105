import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { World } from '../../harness/core/index.ts';
import { materializeWorld } from '../../harness/live/world.ts';
import { diskAccess, memoryAccess, type WorldAccess } from '../../harness/live/access.ts';
import { createWorldTools } from '../../harness/live/tools.ts';

/**
 * The query tool's read-only lock (harness/live/query.ts), against every statement kind SQLite runs.
 * The memory access's database is writable (the generators fill it), so there SQLite's own verdict
 * (`stmt.readonly`) is the lock that holds: a `WITH … DELETE … RETURNING` starts with WITH and returns
 * rows, so the keyword check and `stmt.reader` both pass it. After every refusal the table is intact.
 */
const world: World = {
  tables: {
    t: {
      columns: ['id', 'v'],
      rows: [
        [1, 'a'],
        [2, 'b'],
        [3, 'c'],
      ],
    },
  },
};

const opened: WorldAccess[] = [];
afterEach(() => {
  while (opened.length) opened.pop()!.close();
});

function accesses(): [string, WorldAccess, string][] {
  const m = materializeWorld(world, 'guard case');
  const disk = diskAccess(m);
  const mem = memoryAccess(world);
  opened.push(disk, mem);
  return [
    ['disk (read-only file)', disk, m.root],
    ['memory (writable)', mem, '/nonexistent-root'],
  ];
}

const intact = (tools: ReturnType<typeof createWorldTools>) =>
  tools.run({ name: 'query', input: { sql: "SELECT count(*) || ':' || group_concat(v, ',') AS s FROM t" } })
    .content;

/** Statements that start with SELECT or WITH and return rows, yet write: only SQLite's verdict stops them. */
const disguised = [
  'WITH x AS (SELECT 1) DELETE FROM t RETURNING *',
  'WITH x AS (SELECT 1) DELETE FROM t WHERE id IN (SELECT 1 FROM x) RETURNING id',
  "WITH x AS (SELECT 1) UPDATE t SET v = 'z' RETURNING v",
  "WITH x AS (SELECT 1) INSERT INTO t VALUES (9, 'z') RETURNING id",
  "WITH x AS (SELECT 1) REPLACE INTO t VALUES (1, 'z') RETURNING id",
  "WITH x AS (SELECT 1) INSERT INTO t SELECT 9, 'z' FROM x WHERE true ON CONFLICT DO NOTHING RETURNING id",
  'with x as (select 1) delete from t returning *',
  '/* a comment */ WITH x AS (SELECT 1) DELETE FROM t RETURNING *',
  '-- a line comment\nWITH x AS (SELECT 1) DELETE FROM t RETURNING *',
  "WITH x AS (SELECT 'SELECT') DELETE FROM t RETURNING *",
];

/** Every other statement kind SQLite runs: refused by its first keyword, or by SQLite's verdict. */
const others = [
  'DELETE FROM t',
  'DELETE FROM t RETURNING *',
  "UPDATE t SET v = 'z'",
  "INSERT INTO t VALUES (9, 'z')",
  "REPLACE INTO t VALUES (1, 'z')",
  "INSERT INTO t VALUES (1, 'z') ON CONFLICT DO NOTHING",
  'CREATE TABLE u (x)',
  'CREATE TEMP TABLE u (x)',
  'CREATE INDEX i ON t (v)',
  'CREATE VIEW w AS SELECT 1',
  'CREATE TRIGGER g AFTER INSERT ON t BEGIN DELETE FROM t; END',
  'CREATE VIRTUAL TABLE f USING fts5(x)',
  'DROP TABLE t',
  'ALTER TABLE t RENAME TO u',
  'ALTER TABLE t ADD COLUMN w',
  "ATTACH DATABASE ':memory:' AS aux",
  "ATTACH 'file:/tmp/guard-attach.db?mode=rwc' AS aux",
  'DETACH DATABASE main',
  'PRAGMA writable_schema = ON',
  'PRAGMA user_version = 7',
  'PRAGMA journal_mode = WAL',
  'PRAGMA query_only = OFF',
  'PRAGMA table_info(t)',
  'VACUUM',
  "VACUUM INTO '/tmp/guard-vacuum-copy.db'",
  'REINDEX',
  'ANALYZE',
  'BEGIN',
  'BEGIN IMMEDIATE',
  'COMMIT',
  'ROLLBACK',
  'SAVEPOINT s',
  'RELEASE s',
  'EXPLAIN DELETE FROM t',
  'EXPLAIN QUERY PLAN DELETE FROM t',
  'VALUES (1)',
  'SELECT 1; DELETE FROM t',
  'SELECT 1;; DELETE FROM t',
];

describe("query: SQLite's read-only verdict is checked", () => {
  it('refuses WITH … DELETE/UPDATE/INSERT … RETURNING as not read-only, on a writable database too, and leaves the table intact', () => {
    for (const [label, access, root] of accesses()) {
      const tools = createWorldTools(access);
      const before = intact(tools);
      expect(before).toContain('3:a,b,c');
      for (const sql of disguised) {
        const r = tools.run({ name: 'query', input: { sql } });
        expect(r.isError, `${label}: ${sql}`).toBe(true);
        expect(r.content, `${label}: ${sql}`).toBe('Error: only read-only SELECT statements are allowed');
        expect(r.content).not.toContain(root);
      }
      expect(intact(tools), label).toBe(before);
    }
  });

  it('refuses every other statement kind, and nothing they name comes to exist', () => {
    for (const [label, access, root] of accesses()) {
      const tools = createWorldTools(access);
      const before = intact(tools);
      for (const sql of others) {
        const r = tools.run({ name: 'query', input: { sql } });
        expect(r.isError, `${label}: ${sql}`).toBe(true);
        expect(r.content, `${label}: ${sql}`).toMatch(
          /only SELECT statements are allowed \(got \w+\)|only read-only SELECT|more than one statement/,
        );
        expect(r.content).not.toContain(root);
      }
      expect(intact(tools), label).toBe(before);
      const schema = tools.run({
        name: 'query',
        input: { sql: "SELECT group_concat(name, ',') AS n FROM sqlite_master" },
      });
      expect(schema.content, label).toMatch(/\bt\b/);
      expect(schema.content, label).not.toMatch(/\b(u|i|w|g|f)\b/);
    }
    expect(existsSync('/tmp/guard-attach.db')).toBe(false);
    expect(existsSync('/tmp/guard-vacuum-copy.db')).toBe(false);
  });

  it('SELECTs that reach for side effects: load_extension, writing functions, PRAGMA functions', () => {
    for (const [label, access] of accesses()) {
      const tools = createWorldTools(access);
      const cases: [string, RegExp][] = [
        ["SELECT load_extension('/tmp/evil.so')", /not authorized/],
        ["SELECT load_extension('/tmp/evil.so', 'init')", /not authorized/],
        ["SELECT writefile('/tmp/guard-write.txt', 'x')", /no such function: writefile/],
        ["SELECT readfile('/etc/passwd')", /no such function: readfile/],
        ["SELECT edit('x')", /no such function: edit/],
        ['SELECT * FROM pragma_writable_schema', /PRAGMA functions are not allowed|no such table/],
        ['SELECT * FROM pragma_database_list', /PRAGMA functions are not allowed/],
      ];
      for (const [sql, message] of cases) {
        const r = tools.run({ name: 'query', input: { sql } });
        expect(r.isError, `${label}: ${sql}`).toBe(true);
        expect(r.content, `${label}: ${sql}`).toMatch(message);
      }
    }
    expect(existsSync('/tmp/guard-write.txt')).toBe(false);
  });

  it('the disk database is a read-only file: nothing beside world.sqlite appears (no journal, no copy)', () => {
    const m = materializeWorld(world, 'guard case');
    const disk = diskAccess(m);
    opened.push(disk);
    const tools = createWorldTools(disk);
    for (const sql of [...disguised, ...others]) tools.run({ name: 'query', input: { sql } });
    expect(readdirSync(m.root).sort()).toEqual(['docs', 'owner.pid', 'repo', 'world.sqlite']);
    expect(existsSync(join(m.root, 'world.sqlite-journal'))).toBe(false);
  });
});
