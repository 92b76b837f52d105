import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { World } from '../../harness/core/index.ts';
import { materializeWorld, checkWorld } from '../../harness/live/world.ts';
import { diskAccess, memoryAccess, type WorldAccess } from '../../harness/live/access.ts';
import { createWorldTools } from '../../harness/live/tools.ts';
import { WorldError } from '../../harness/core/errors.ts';
import { tempDir } from '../support/mock-run.ts';

/**
 * The live tools over a materialised world: real files, a real read-only SQLite database, confined
 * to the world. Every bad call is an error result the model sees — never a throw, never a read outside.
 */
const world: World = {
  files: {
    'README.md': '# demo\nSee adapters/.\n',
    'adapters/checkout.ts': "const FALLBACK = '2023-10';\nexport const x = 1;\n",
    'adapters/payouts.ts': "const SUPPORTED = ['2024-09'];\n",
  },
  tables: {
    merchant_config: {
      columns: ['merchant_id', 'api_version', 'weight'],
      rows: [
        ['m_1', '2023-10', 3],
        ['m_2', null, 1.5],
        ['m_3', '2024-09', 2],
      ],
    },
  },
  docs: { 'runbook-versions': 'Never set a retired version.' },
  tests: {
    command: 'pnpm test',
    output: 'FAIL x.test.ts\n1 failed, 4 passed',
    exitCode: 1,
    scopes: { 'packages/client': { output: '4 passed', exitCode: 0 } },
  },
};

const opened: { close(): void }[] = [];
afterEach(() => {
  while (opened.length) opened.pop()!.close();
});

function live(w: World = world) {
  const m = materializeWorld(w, 'test case');
  const access = diskAccess(m);
  opened.push(access);
  return { m, access, tools: createWorldTools(access) };
}

const run = (tools: ReturnType<typeof createWorldTools>, name: string, input: unknown) =>
  tools.run({ name, input });

describe('materialised world', () => {
  it('writes files and documents under a temporary root, the tables as a read-only SQLite file, and removes it all on close', () => {
    const m = materializeWorld(world, 'test case');
    expect(existsSync(join(m.repoDir, 'adapters/checkout.ts'))).toBe(true);
    expect(existsSync(join(m.docsDir, 'runbook-versions'))).toBe(true);
    expect(m.db!.readonly).toBe(true);
    expect(() => m.db!.exec("INSERT INTO merchant_config VALUES ('m_9', '2023-10', 0)")).toThrow(/readonly/);
    m.close();
    expect(existsSync(m.root)).toBe(false);
  });

  it('offers only the tools the world has something for, with JSON Schemas', () => {
    expect(live().tools.specs.map((s) => s.name)).toEqual([
      'search_code',
      'read_file',
      'query',
      'read_doc',
      'run_tests',
    ]);
    const bare = live({ files: { 'a.txt': 'x' } }).tools;
    expect(bare.specs.map((s) => s.name)).toEqual(['search_code', 'read_file']);
    const q = live().tools.specs.find((s) => s.name === 'query')!;
    expect(q.description).toContain('merchant_config(merchant_id, api_version, weight)');
    expect(q.inputSchema).toMatchObject({ type: 'object', required: ['sql'], additionalProperties: false });
  });

  it('refuses a world whose file would land outside it, naming the case and the field', () => {
    for (const path of ['../escape.txt', '/etc/passwd', 'a/../../b', 'C:/x'])
      expect(() => checkWorld({ files: { [path]: 'x' } }, 'cases/x.json (case c1)')).toThrow(
        new RegExp(
          `cases/x\\.json \\(case c1\\): world\\.files\\["${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}"\\]`,
        ),
      );
    expect(() => checkWorld({ files: { a: 'x', 'a/b': 'y' } }, 'w')).toThrow(WorldError);
    expect(() => checkWorld({ tables: { t: { columns: ['a', 'b'], rows: [['x']] } } }, 'w')).toThrow(
      /world\.tables\.t\.rows\[0\]: must be an array of 2 values/,
    );
  });
});

describe('the tools', () => {
  it('search_code: ripgrep-style hits with context, scoped to a path', () => {
    const { tools } = live();
    const r = run(tools, 'search_code', { query: '2023-10', context: 0 });
    expect(r).toEqual({
      content: "adapters/checkout.ts:1:const FALLBACK = '2023-10';\n\n1 matches in 1 files",
      isError: false,
    });
    expect(
      run(tools, 'search_code', { query: 'const', path: 'adapters/payouts.ts', context: 0 }).content,
    ).toBe("adapters/payouts.ts:1:const SUPPORTED = ['2024-09'];\n\n1 matches in 1 files");
    expect(run(tools, 'search_code', { query: 'nothing-here' }).content).toBe('No matches found.');
  });

  it('read_file: numbered lines, a range, and the ENOENT a read tool prints for a missing file', () => {
    const { tools } = live();
    expect(
      run(tools, 'read_file', { path: 'adapters/checkout.ts', range: { start: 2, end: 2 } }).content,
    ).toBe('     2\texport const x = 1;');
    expect(run(tools, 'read_file', { path: 'nope.ts' })).toEqual({
      content: "Error: ENOENT: no such file or directory, open 'nope.ts'",
      isError: true,
    });
  });

  it('query: a real SELECT against SQLite (a WHERE, an aggregate), rendered like psql', () => {
    const { tools } = live();
    expect(
      run(tools, 'query', {
        sql: "SELECT merchant_id, weight FROM merchant_config WHERE api_version IS NULL OR api_version = '2023-10' ORDER BY merchant_id",
      }).content,
    ).toBe(
      ' merchant_id | weight\n-------------+--------\n m_1         | 3     \n m_2         | 1.5   \n(2 rows)',
    );
    expect(run(tools, 'query', { sql: 'select count(*) AS n from merchant_config;' }).content).toContain(
      ' 3',
    );
  });

  it('read_doc and run_tests: the world’s documents and its recorded test outcome (a failing run is an error result)', () => {
    const { tools } = live();
    expect(run(tools, 'read_doc', { name: 'runbook-versions' })).toEqual({
      content: 'Never set a retired version.',
      isError: false,
    });
    expect(run(tools, 'run_tests', {})).toEqual({
      content: 'FAIL x.test.ts\n1 failed, 4 passed',
      isError: true,
    });
    expect(run(tools, 'run_tests', { scope: 'packages/client' })).toEqual({
      content: '4 passed',
      isError: false,
    });
    expect(run(tools, 'run_tests', { scope: 'packages/cli' }).content).toMatch(
      /^Error: no test scope "packages\/cli"; scopes: packages\/client$/,
    );
  });
});

describe('bad input is an error result, never a crash or a read outside the world', () => {
  const outside = tempDir('outside');
  writeFileSync(join(outside, 'secret.txt'), 'TOP SECRET');

  it('paths: ../, absolute, a symlink out of the world (file or directory), NUL', () => {
    const { m, tools } = live();
    symlinkSync(join(outside, 'secret.txt'), join(m.repoDir, 'link.txt'));
    mkdirSync(join(m.repoDir, 'nested'));
    symlinkSync(outside, join(m.repoDir, 'nested/out'));
    const cases: [string, unknown, RegExp][] = [
      ['read_file', { path: '../world.sqlite' }, /outside the world/],
      ['read_file', { path: 'adapters/../../docs/runbook-versions' }, /outside the world/],
      ['read_file', { path: join(outside, 'secret.txt') }, /is absolute/],
      ['read_file', { path: 'link.txt' }, /resolves outside the world \(a symbolic link\)/],
      ['read_file', { path: 'nested/out/secret.txt' }, /resolves outside the world/],
      ['read_file', { path: 'a\0b' }, /NUL/],
      ['search_code', { query: 'SECRET', path: '..' }, /outside the world/],
      ['search_code', { query: 'SECRET', path: 'nested/out' }, /resolves outside the world/],
      ['read_doc', { name: '../repo/README.md' }, /no document/],
    ];
    for (const [name, input, message] of cases) {
      const r = run(tools, name, input);
      expect(r.isError, `${name} ${JSON.stringify(input)}`).toBe(true);
      expect(r.content).toMatch(message);
      expect(r.content).not.toContain('TOP SECRET');
    }
    // A search over everything skips the links rather than following them out.
    expect(run(tools, 'search_code', { query: 'SECRET' }).content).toBe('No matches found.');
  });

  it('queries: only a read-only SELECT; several statements, writes disguised as a WITH, ATTACH and PRAGMA writes are refused', () => {
    const { tools } = live();
    const refused: [string, RegExp][] = [
      ['DELETE FROM merchant_config', /only SELECT statements are allowed \(got DELETE\)/],
      ["UPDATE merchant_config SET api_version = '2025-01'", /got UPDATE/],
      ['SELECT 1; DROP TABLE merchant_config', /more than one statement/],
      ['WITH x AS (SELECT 1) DELETE FROM merchant_config', /only read-only SELECT/],
      ["ATTACH DATABASE '/tmp/x.db' AS x", /got ATTACH/],
      ['PRAGMA journal_mode = DELETE', /got PRAGMA/],
      ['/* sneaky */ DROP TABLE merchant_config', /got DROP/],
      ['SELECT * FROM no_such_table', /SQL error: no such table: no_such_table/],
      // Queries that would never end or run for hours are refused before they run.
      [
        'WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r) SELECT count(*) FROM r',
        /recursive queries are not allowed/,
      ],
    ];
    for (const [sql, message] of refused) {
      const r = run(tools, 'query', { sql });
      expect(r.isError, sql).toBe(true);
      expect(r.content).toMatch(message);
    }
    expect(run(tools, 'query', { sql: 'SELECT count(*) AS n FROM merchant_config' }).content).toContain('3');
  });

  it('SQL tricks: load_extension, PRAGMA functions (the temp path), writable CTEs, VACUUM INTO, a generated huge value', () => {
    const { m, tools } = live();
    const refused: [string, RegExp][] = [
      ["SELECT load_extension('/tmp/evil.so')", /not authorized/],
      ['SELECT file FROM pragma_database_list', /PRAGMA functions are not allowed/],
      ["SELECT * FROM PRAGMA_table_info('merchant_config')", /PRAGMA functions are not allowed/],
      ["WITH x AS (SELECT 1) INSERT INTO merchant_config VALUES ('m_9', NULL, 0)", /only read-only SELECT/],
      ["WITH x AS (SELECT 1) UPDATE merchant_config SET api_version = '2025-01'", /only read-only SELECT/],
      [`VACUUM INTO '${join(m.root, 'copy.db')}'`, /got VACUUM/],
      ["SELECT readfile('/etc/passwd')", /no such function: readfile/],
      // A 200M-character value: rendered as a table (header, rule, row) it is past what a JS string can
      // hold — an error result while the rows stream (or, on a slow machine, at the query's deadline),
      // not a crash.
      [
        "SELECT printf('%.*c', 200000000, 'x') AS v",
        /over 40000 characters; narrow the query|ran past the 2000 ms time limit/,
      ],
    ];
    for (const [sql, message] of refused) {
      const r = run(tools, 'query', { sql });
      expect(r.isError, sql).toBe(true);
      expect(r.content, sql).toMatch(message);
      expect(r.content).not.toContain(m.root);
    }
    expect(existsSync(join(m.root, 'copy.db'))).toBe(false);
  });

  it('search_code runs in linear time: a catastrophic pattern ends; backreferences and lookaround are refused', () => {
    const { tools } = live({ files: { 'long.txt': `${'x'.repeat(80)}\nFALLBACK_API_VERSION = 1\n` } });
    // On the backtracking engine each of these runs for minutes on one 80-character line.
    for (const query of ['(.*.*)*y', '(x+x+)+y', '(x|x)*y'])
      expect(run(tools, 'search_code', { query }).content, query).toBe('No matches found.');
    expect(run(tools, 'search_code', { query: 'FALLBACK_[A-Z_]+', context: 0 }).content).toContain(
      'long.txt:2:FALLBACK_API_VERSION = 1',
    );
    for (const query of ['(x)\\1', '(?<=x)y', 'x(?!y)']) {
      const r = run(tools, 'search_code', { query });
      expect(r.isError, query).toBe(true);
      expect(r.content).toMatch(/needs backtracking \(a backreference or lookaround\)/);
    }
  });

  it('an over-long result and a query over the row cap ask for a narrower call', () => {
    const big: World = {
      files: { 'big.txt': 'x'.repeat(50_000) },
      tables: { t: { columns: ['n'], rows: Array.from({ length: 300 }, (_, i) => [i]) } },
    };
    const { tools } = live(big);
    const long = run(tools, 'read_file', { path: 'big.txt' });
    expect(long.isError).toBe(true);
    expect(long.content).toMatch(
      /^Error: the result is \d+ characters, over the limit of 40000; narrow the call/,
    );
    expect(run(tools, 'read_file', { path: 'big.txt', range: { start: 1, end: 1 } }).isError).toBe(true);
    const rows = run(tools, 'query', { sql: 'SELECT n FROM t' });
    expect(rows.content).toBe(
      'Error: the query returns more than 200 rows (the row cap); add a WHERE clause, an aggregate or a LIMIT',
    );
    expect(run(tools, 'query', { sql: 'SELECT n FROM t WHERE n < 5' }).content).toContain('(5 rows)');
    // 300^3 = 2.7e7 row combinations: refused before it runs; two tables are fine.
    expect(run(tools, 'query', { sql: 'SELECT count(*) FROM t a, t b, t c' }).content).toMatch(
      /^Error: the query would visit about 2\.7e\+7 row combinations \(limit 10000000\)/,
    );
    expect(run(tools, 'query', { sql: 'SELECT count(*) AS n FROM t a, t b' }).content).toContain('90000');
  });

  it('arguments failing the JSON Schema, and unknown tools', () => {
    const { tools } = live();
    const bad: [string, unknown, string][] = [
      ['read_file', {}, "invalid arguments for read_file: must have required property 'path'"],
      ['read_file', { path: 7 }, 'invalid arguments for read_file: path must be string'],
      [
        'read_file',
        { path: 'a', mode: 'w' },
        'invalid arguments for read_file: must NOT have additional properties "mode"',
      ],
      [
        'search_code',
        { query: 'x', context: 99 },
        'invalid arguments for search_code: context must be <= 10',
      ],
      ['search_code', { query: '(' }, 'invalid regular expression'],
      ['query', 'SELECT 1', 'invalid arguments for query: must be object'],
      [
        'write_file',
        { path: 'a', text: 'b' },
        'unknown tool "write_file"; available: search_code, read_file, query, read_doc, run_tests',
      ],
    ];
    for (const [name, input, message] of bad) {
      const r = run(tools, name, input);
      expect(r.isError, `${name} ${JSON.stringify(input)}`).toBe(true);
      expect(r.content).toContain(message);
    }
  });
});

describe('memory access (what the generators record with) reads the same world the same way', () => {
  it('gives the same result text as the materialised world for every tool', () => {
    const disk = live().tools;
    const mem: WorldAccess = memoryAccess(world);
    opened.push(mem);
    const memTools = createWorldTools(mem);
    const calls: [string, unknown][] = [
      ['search_code', { query: 'const|See', context: 1 }],
      ['search_code', { query: '2024', path: 'adapters' }],
      ['read_file', { path: 'README.md' }],
      ['read_file', { path: 'adapters' }],
      ['read_file', { path: 'missing.md' }],
      ['query', { sql: 'SELECT * FROM merchant_config ORDER BY weight' }],
      ['read_doc', { name: 'runbook-versions' }],
      ['run_tests', {}],
    ];
    for (const [name, input] of calls)
      expect(memTools.run({ name, input }), name).toEqual(disk.run({ name, input }));
  });
});
