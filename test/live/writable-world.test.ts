import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { World } from '../../harness/core/index.ts';
import { checkWorld, materializeWorld, sweepStaleWorlds } from '../../harness/live/world.ts';
import { diskAccess } from '../../harness/live/access.ts';
import { createWorldTools } from '../../harness/live/tools.ts';
import { WorldError } from '../../harness/core/errors.ts';
import { tempDir } from '../support/mock-run.ts';

/**
 * Writable worlds (issue 29 item 2, docs/live.md): each cell gets its own copy of a per-process
 * template; write_file / edit_file land only in that copy (never the template, never another cell's
 * copy); `..`, absolute paths, symbolic links (out or in) and hard links are refused; run_tests runs
 * the declared command in the copy, with no shell and a scrubbed environment; the copy is removed
 * when the cell closes unless kept.
 */
const checker = [
  "const fs = require('node:fs');",
  "const src = fs.readFileSync('src/add.js', 'utf8');",
  "const ok = src.includes('a + b');",
  "console.log(ok ? '1 passed' : '1 failed: add(1, 2) returned -1');",
  "console.log('env keys: ' + Object.keys(process.env).sort().join(','));",
  "console.log('args: ' + JSON.stringify(process.argv.slice(2)));",
  'process.exit(ok ? 0 : 1);',
].join('\n');
const world: World = {
  writable: true,
  files: { 'src/add.js': 'exports.add = (a, b) => a - b;\n', 'README.md': '# add\n' },
  tests: {
    command: 'npm test',
    output: '1 failed',
    exitCode: 1,
    scopes: { unit: { output: '1 failed', exitCode: 1 } },
    run: { argv: ['{node}', '{runner}/check.cjs'], files: { 'check.cjs': checker } },
  },
};

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

function cell(w: World = world, keep = false) {
  const m = materializeWorld(w, 'writable case', { keep });
  const access = diskAccess(m);
  cleanups.push(() => {
    access.close();
    if (keep) rmSync(m.root, { recursive: true, force: true });
  });
  return { m, access, tools: createWorldTools(access) };
}

const run = (tools: ReturnType<typeof cell>['tools'], name: string, input: unknown) =>
  tools.run({ name, input });

describe('a writable world: one copy per cell', () => {
  it('offers the write tools only where the world is writable', () => {
    expect(cell().tools.specs.map((s) => s.name)).toEqual(
      expect.arrayContaining(['list_files', 'write_file', 'edit_file', 'run_tests']),
    );
    const readOnly = cell({ files: { 'a.txt': 'x\n' } }).tools.specs.map((s) => s.name);
    expect(readOnly).not.toContain('write_file');
    expect(readOnly).not.toContain('edit_file');
  });

  it("lands a cell's writes in its own copy, not the template or another cell's copy", () => {
    const a = cell();
    const b = cell();
    expect(a.m.source).toBeDefined();
    expect(a.m.source).toBe(b.m.source);
    expect(a.m.root).not.toBe(b.m.root);
    const edit = run(a.tools, 'edit_file', { path: 'src/add.js', old_string: 'a - b', new_string: 'a + b' });
    expect(edit).toEqual({
      content: 'Applied edit to src/add.js (1 lines replaced with 1).',
      isError: false,
    });
    expect(run(a.tools, 'write_file', { path: 'src/new/deep.js', content: 'x\n' }).isError).toBe(false);
    expect(readFileSync(join(a.m.repoDir, 'src/add.js'), 'utf8')).toContain('a + b');
    expect(readFileSync(join(a.m.source!, 'repo/src/add.js'), 'utf8')).toContain('a - b');
    expect(readFileSync(join(b.m.repoDir, 'src/add.js'), 'utf8')).toContain('a - b');
    expect(existsSync(join(b.m.repoDir, 'src/new/deep.js'))).toBe(false);
    expect(run(b.tools, 'read_file', { path: 'src/add.js' }).content).toContain('a - b');
    expect(run(a.tools, 'read_file', { path: 'src/add.js' }).content).toContain('a + b');
  });

  it('appends, and refuses an edit whose old_string is missing or not unique', () => {
    const { tools, m } = cell();
    expect(run(tools, 'edit_file', { path: 'README.md', append: 'more' }).content).toBe(
      'Appended 1 lines to README.md.',
    );
    expect(readFileSync(join(m.repoDir, 'README.md'), 'utf8')).toBe('# add\nmore\n');
    expect(run(tools, 'edit_file', { path: 'README.md', old_string: 'nope', new_string: 'x' })).toMatchObject(
      {
        isError: true,
        content: expect.stringContaining('does not occur'),
      },
    );
    expect(
      run(tools, 'edit_file', { path: 'README.md', append: 'a', old_string: 'x', new_string: 'y' }).isError,
    ).toBe(true);
  });

  it('runs the declared tests in the copy: they see its edits, no shell, no keys in the environment', () => {
    const { tools } = cell();
    process.env.HANDOFF_TEST_SECRET_KEY = 'sk-should-not-leak';
    try {
      const red = run(tools, 'run_tests', {});
      expect(red.isError).toBe(true);
      expect(red.content).toContain('1 failed');
      expect(red.content).toContain('env keys: HOME,LANG,PATH,TMPDIR');
      expect(red.content).not.toContain('sk-should-not-leak');
      run(tools, 'edit_file', { path: 'src/add.js', old_string: 'a - b', new_string: 'a + b' });
      const green = run(tools, 'run_tests', { scope: 'unit' });
      expect(green).toMatchObject({ isError: false });
      expect(green.content).toContain('1 passed');
      expect(green.content).toContain('args: ["unit"]');
      // Only a declared scope reaches the command; anything else is refused before it runs.
      const bad = run(tools, 'run_tests', { scope: '$(touch pwned); x' });
      expect(bad).toMatchObject({ isError: true, content: expect.stringContaining('no test scope') });
    } finally {
      delete process.env.HANDOFF_TEST_SECRET_KEY;
    }
  });

  it('stops a test command past its time limit', () => {
    const slow: World = {
      ...world,
      tests: {
        ...world.tests!,
        run: { argv: ['{node}', '-e', 'setTimeout(() => {}, 60000)'], timeoutMs: 300 },
      },
    };
    expect(run(cell(slow).tools, 'run_tests', {})).toMatchObject({
      isError: true,
      content: expect.stringContaining('300 ms time limit'),
    });
  });
});

describe('writes outside the copy are refused', () => {
  it('refuses `..`, absolute paths and NUL bytes', () => {
    const { tools, m } = cell();
    for (const path of ['../escape.txt', 'src/../../escape.txt', '/tmp/escape.txt', 'C:\\x', 'a\0b']) {
      const r = run(tools, 'write_file', { path, content: 'pwned' });
      expect(r.isError, path).toBe(true);
    }
    expect(existsSync(join(m.root, 'escape.txt'))).toBe(false);
  });

  it('refuses to write through a symbolic link, out of the copy or inside it', () => {
    const { tools, m } = cell();
    const outside = tempDir('outside');
    writeFileSync(join(outside, 'target.txt'), 'outside\n');
    symlinkSync(join(outside, 'target.txt'), join(m.repoDir, 'link.txt'));
    symlinkSync(outside, join(m.repoDir, 'dirlink'));
    symlinkSync(join(outside, 'dangling.txt'), join(m.repoDir, 'dangling.txt'));
    symlinkSync('README.md', join(m.repoDir, 'inside-link.md'));
    for (const path of [
      'link.txt',
      'dirlink/new.txt',
      'dirlink/target.txt',
      'dangling.txt',
      'inside-link.md',
    ]) {
      expect(run(tools, 'write_file', { path, content: 'pwned' }), path).toMatchObject({ isError: true });
      expect(run(tools, 'edit_file', { path, append: 'pwned' }), path).toMatchObject({ isError: true });
    }
    expect(readFileSync(join(outside, 'target.txt'), 'utf8')).toBe('outside\n');
    expect(existsSync(join(outside, 'new.txt'))).toBe(false);
    expect(existsSync(join(outside, 'dangling.txt'))).toBe(false);
    expect(readFileSync(join(m.repoDir, 'README.md'), 'utf8')).toBe('# add\n');
  });

  it('refuses to write a hard link (a second name, perhaps of a file outside)', () => {
    const { tools, m } = cell();
    const outside = tempDir('outside-hard');
    writeFileSync(join(outside, 'secret.txt'), 'outside\n');
    linkSync(join(outside, 'secret.txt'), join(m.repoDir, 'hard.txt'));
    expect(run(tools, 'write_file', { path: 'hard.txt', content: 'pwned' })).toMatchObject({
      isError: true,
      content: expect.stringContaining('hard link'),
    });
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('outside\n');
  });

  it('refuses a directory as a file', () => {
    const { tools } = cell();
    expect(run(tools, 'write_file', { path: 'src', content: 'x' }).isError).toBe(true);
    mkdirSync(join(cell().m.repoDir, 'x'));
  });
});

describe('the copy after the cell', () => {
  it('is removed when the cell closes', () => {
    const m = materializeWorld(world, 'writable case');
    const access = diskAccess(m);
    createWorldTools(access).run({ name: 'write_file', input: { path: 'a.txt', content: 'x' } });
    access.close();
    expect(existsSync(m.root)).toBe(false);
    expect(existsSync(m.source!)).toBe(true);
  });

  it('is kept with keep (--keep-worlds), with its edits, and no later sweep removes it', () => {
    const m = materializeWorld(world, 'writable case', { keep: true });
    const access = diskAccess(m);
    createWorldTools(access).run({ name: 'write_file', input: { path: 'a.txt', content: 'kept' } });
    access.close();
    try {
      expect(m.kept).toBe(true);
      expect(readFileSync(join(m.repoDir, 'a.txt'), 'utf8')).toBe('kept');
      expect(existsSync(join(m.root, 'owner.pid'))).toBe(false);
      // The sweep, over a directory of its own (never the shared temporary directory): a kept copy
      // stays however old it is; a copy without owner or mark goes once it is a day old.
      const dir = tempDir('sweep');
      for (const name of ['handoff-world-kept', 'handoff-world-lost']) mkdirSync(join(dir, name));
      writeFileSync(join(dir, 'handoff-world-kept', 'kept'), readFileSync(join(m.root, 'kept')));
      expect(sweepStaleWorlds(dir, Date.now() + 7 * 24 * 3_600_000)).toEqual([
        join(dir, 'handoff-world-lost'),
      ]);
      expect(existsSync(join(dir, 'handoff-world-kept'))).toBe(true);
    } finally {
      rmSync(m.root, { recursive: true, force: true });
    }
  });

  it('is removed when the cell fails (execute-cell closes it in finally)', () => {
    const m = materializeWorld(world, 'writable case');
    const access = diskAccess(m);
    try {
      throw new Error('the cell failed');
    } catch {
      access.close();
    }
    expect(existsSync(m.root)).toBe(false);
  });
});

describe('a test command is checked when the case loads', () => {
  it('needs a writable world and a non-empty argv', () => {
    const bad = (w: World) => () => checkWorld(w, 'case.json');
    expect(bad({ ...world, writable: false })).toThrow(WorldError);
    expect(bad({ ...world, writable: false })).toThrow(/world\.tests\.run.*writable/);
    expect(bad({ ...world, tests: { ...world.tests!, run: { argv: [] } } })).toThrow(
      /world\.tests\.run\.argv/,
    );
    expect(
      bad({ ...world, tests: { ...world.tests!, run: { argv: ['x'], files: { '../x': 'y' } } } }),
    ).toThrow(/world\.tests\.run\.files/);
  });
});
