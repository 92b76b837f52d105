import { afterEach, describe, expect, it } from 'vitest';
import type { World } from '../../harness/core/index.ts';
import { materializeWorld } from '../../harness/live/world.ts';
import { diskAccess, memoryAccess, type WorldAccess } from '../../harness/live/access.ts';
import { createWorldTools, type ToolLimits } from '../../harness/live/tools.ts';

/**
 * Runaway model calls (issue 28 #9): table-valued functions are costed before a query runs, a live
 * query the estimate lets through is stopped at its deadline on its worker (the tool answers with an
 * error; the next query runs), and a search over a large world is stopped at its deadline too.
 */
const n = 3_100;
const world: World = {
  files: Object.fromEntries(
    Array.from({ length: 20 }, (_, f) => [
      `src/f${f}.ts`,
      Array.from({ length: 1_000 }, (_, i) => `const x${i} = '${'ab'.repeat(20)}';`).join('\n'),
    ]),
  ),
  tables: { t: { columns: ['n'], rows: Array.from({ length: n }, (_, i) => [i]) } },
};

const opened: WorldAccess[] = [];
afterEach(() => {
  while (opened.length) opened.pop()!.close();
});

function live(limits: Partial<ToolLimits> = {}, w: World = world) {
  const access = diskAccess(materializeWorld(w, 'deadline case'));
  opened.push(access);
  return createWorldTools(access, limits);
}

const query = (tools: ReturnType<typeof createWorldTools>, sql: string) =>
  tools.run({ name: 'query', input: { sql } });

const array = (k: number) => JSON.stringify(Array.from({ length: k }, (_, i) => i));

describe('the query cost check counts table-valued functions', () => {
  it('refuses a three-way json_each cross join before it runs; two small ones run', () => {
    // A world whose tables are small: a function is not costed as the largest table, but on its own.
    const tools = live({}, { tables: { t: { columns: ['n'], rows: [[1], [2], [3]] } } });
    const a = array(1_000);
    const cross = `SELECT count(*) FROM json_each('${a}') x, json_each('${a}') y, json_each('${a}') z`;
    // Each costs TABLE_FUNCTION_ROWS (1000): 1e9.
    expect(query(tools, cross).content).toMatch(
      /^Error: the query would visit about 1\.0e\+9 row combinations \(limit 10000000\)/,
    );
    const tree = `SELECT count(*) FROM json_tree('${a}') x, json_tree('${a}') y, json_each('${a}') z`;
    expect(query(tools, tree).content).toMatch(/would visit about/);
    // Joined to a table: 3 × 1000 combinations, run and counted.
    expect(query(tools, `SELECT count(*) AS c FROM t, json_each('${a}') j`).content).toContain('3000');
    const small = query(
      tools,
      `SELECT count(*) AS c FROM json_each('${array(30)}') x, json_each('${array(40)}') y`,
    );
    expect(small.isError).toBe(false);
    expect(small.content).toContain('1200');
  });
});

describe('a live query runs where its deadline can stop it', () => {
  // 3100² = 9.6e6 row combinations: under the cost limit, and far longer than 5 ms to run.
  const slow = 'SELECT count(*) AS c FROM t a, t b WHERE (a.n * b.n) % 7 = 3';

  it('stops a query past its deadline with an error result, and the next query runs on a fresh worker', () => {
    const access = diskAccess(materializeWorld(world, 'deadline case'));
    opened.push(access);
    const r = query(createWorldTools(access, { queryTimeoutMs: 5 }), slow);
    expect(r).toEqual({
      isError: true,
      content:
        'Error: the query ran past the 5 ms time limit and was stopped; join on a condition, filter earlier or aggregate less',
    });
    // The same world, the default deadline: a fresh worker answers.
    const next = query(createWorldTools(access), 'SELECT count(*) AS c FROM t WHERE n < 10');
    expect(next.content).toBe(' c \n----\n 10\n(1 row)');
  });

  it('gives the same text as the in-process path (the generators’) for results, caps and SQL errors', () => {
    const tools = live();
    const mem = memoryAccess(world);
    opened.push(mem);
    const recorded = createWorldTools(mem);
    for (const sql of [
      'SELECT n, n * 2 AS d, hex(n) AS h, n / 3.0 AS r FROM t WHERE n < 5',
      'SELECT n FROM t',
      "SELECT printf('%.*c', 50000, 'x') AS v",
      'SELECT count(*) FROM no_such_table',
      "SELECT x'00ff' AS b, 12345678901234567 AS big",
    ])
      expect(query(tools, sql), sql).toEqual(query(recorded, sql));
  });
});

describe('search_code stops at its deadline over a large world', () => {
  it('a search past its deadline is an error result; the same search within it answers', () => {
    const stopped = live({ searchTimeoutMs: 0 }).run({ name: 'search_code', input: { query: '(a|b)*c' } });
    expect(stopped).toEqual({
      isError: true,
      content:
        'Error: the search ran past the 0 ms time limit and was stopped; use a more specific pattern or a path',
    });
    const found = live().run({ name: 'search_code', input: { query: 'x999 =', context: 0 } });
    expect(found.content).toContain('src/f0.ts:1000:');
  });
});
