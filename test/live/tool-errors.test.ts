import { afterEach, describe, expect, it } from 'vitest';
import type { World } from '../../harness/core/index.ts';
import { materializeWorld } from '../../harness/live/world.ts';
import { diskAccess, type WorldAccess } from '../../harness/live/access.ts';
import { createWorldTools, MAX_ERROR_CHARS } from '../../harness/live/tools.ts';

/**
 * A tool error result is size-capped (issue 28 #13): an error that echoes the call's own input (a
 * huge path, property name, tool name or SQL identifier) is cut to MAX_ERROR_CHARS with a note, so a
 * model cannot grow its own context through error messages.
 */
const world: World = {
  files: { 'a.txt': 'a\n' },
  tables: { t: { columns: ['n'], rows: [[1]] } },
  docs: { runbook: 'r' },
  tests: { command: 'npm test', output: 'ok', exitCode: 0, scopes: { a: { output: 'ok', exitCode: 0 } } },
};
const opened: WorldAccess[] = [];
afterEach(() => {
  while (opened.length) opened.pop()!.close();
});

describe('tool error results are size-capped', () => {
  it('huge inputs echoed in errors are cut, with a note of how much', () => {
    const access = diskAccess(materializeWorld(world, 'errors case'));
    opened.push(access);
    const tools = createWorldTools(access);
    const big = 'x'.repeat(30_000);
    const calls: [string, unknown, string][] = [
      ['read_file', { path: big }, "Error: ENAMETOOLONG: cannot read 'xxx"],
      [
        'read_file',
        { path: 'a.txt', [big]: 1 },
        'Error: invalid arguments for read_file: must NOT have additional properties',
      ],
      [big, {}, 'Error: unknown tool "xxx'],
      ['query', { sql: `SELECT * FROM ${big}` }, 'Error: SQL error: no such table: xxx'],
      ['read_doc', { name: big }, 'Error: no document "xxx'],
      ['run_tests', { scope: big }, 'Error: no test scope "xxx'],
    ];
    for (const [name, input, start] of calls) {
      const r = tools.run({ name, input });
      expect(r.isError, name.slice(0, 20)).toBe(true);
      expect(r.content.slice(0, start.length), name.slice(0, 20)).toBe(start);
      expect(r.content).not.toContain('handoff-world-');
      expect(r.content.length, name.slice(0, 20)).toBeLessThanOrEqual(MAX_ERROR_CHARS + 60);
      expect(r.content).toMatch(/… \[\d+ characters of the error cut\]$/);
    }
    const short = tools.run({ name: 'read_file', input: { path: 'missing.txt' } });
    expect(short.content).toBe("Error: ENOENT: no such file or directory, open 'missing.txt'");
  });
});
