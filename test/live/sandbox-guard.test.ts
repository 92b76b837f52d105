import { afterEach, describe, expect, it } from 'vitest';
import { linkSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { World } from '../../harness/core/index.ts';
import { materializeWorld } from '../../harness/live/world.ts';
import { diskAccess, memoryAccess } from '../../harness/live/access.ts';
import { resolveInside } from '../../harness/live/confine.ts';
import { createWorldTools } from '../../harness/live/tools.ts';
import { ToolCallError } from '../../harness/core/errors.ts';
import { tempDir } from '../support/mock-run.ts';

/**
 * The live sandbox's path containment (harness/live/confine.ts, access.ts), attacked the ways a
 * reviewer would: a sibling directory whose name extends the world's (`<world>-x`: a string-prefix
 * check without the separator lets it through), `..` and absolute paths in every spelling, symlinks
 * (file, directory, chained, relative, dangling), hard links, and case and Unicode look-alikes.
 * Every attempt is an error result or a miss, never the outside file's text or the temporary path.
 */
const SECRET = 'TOP SECRET';
const world: World = {
  files: { 'README.md': '# demo\n', 'café.md': 'nfc name\n', 'src/a.ts': 'export const a = 1;\n' },
  docs: { runbook: 'Never set a retired version.' },
};

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

function live() {
  const m = materializeWorld(world, 'guard case');
  const access = diskAccess(m);
  cleanups.push(() => access.close());
  return { m, access, tools: createWorldTools(access) };
}

/** A directory beside `dir` whose name extends it (`<dir>-x`), holding a secret; removed after the test. */
function sibling(dir: string): string {
  const sib = `${dir}-x`;
  mkdirSync(sib, { recursive: true });
  writeFileSync(join(sib, 'secret.txt'), SECRET);
  cleanups.push(() => rmSync(sib, { recursive: true, force: true }));
  return sib;
}

function expectRefused(
  r: { content: string; isError: boolean },
  what: string,
  root: string,
  message?: RegExp,
) {
  expect(r.isError, what).toBe(true);
  expect(r.content, what).not.toContain(SECRET);
  expect(r.content, what).not.toContain(root);
  if (message) expect(r.content, what).toMatch(message);
}

describe('path containment: a sibling whose name extends the world', () => {
  it('refuses a symlink to <repo>-x, by file, by directory, and under search_code', () => {
    const { m, tools } = live();
    const sib = sibling(m.repoDir);
    symlinkSync(sib, join(m.repoDir, 'sib'));
    symlinkSync(join(sib, 'secret.txt'), join(m.repoDir, 'sib-file.txt'));
    // A relative link reaches the sibling too: ../repo-x/secret.txt from the repository root.
    symlinkSync(relative(m.repoDir, join(sib, 'secret.txt')), join(m.repoDir, 'rel.txt'));
    for (const path of ['sib/secret.txt', 'sib-file.txt', 'rel.txt', 'sib'])
      expectRefused(
        tools.run({ name: 'read_file', input: { path } }),
        path,
        m.root,
        /resolves outside the world/,
      );
    expectRefused(
      tools.run({ name: 'search_code', input: { query: 'SECRET', path: 'sib' } }),
      'search under sib',
      m.root,
      /resolves outside the world/,
    );
    expect(tools.run({ name: 'search_code', input: { query: 'SECRET' } }).content).toBe('No matches found.');
  });

  it('resolveInside: the root itself and what is under it pass; <root>-x, <root>x and the parent do not', () => {
    const base = tempDir('confine');
    cleanups.push(() => rmSync(base, { recursive: true, force: true }));
    const root = join(base, 'w');
    mkdirSync(join(root, 'in'), { recursive: true });
    writeFileSync(join(root, 'in', 'ok.txt'), 'ok');
    for (const name of ['w-x', 'wx', 'w.bak']) {
      mkdirSync(join(base, name));
      writeFileSync(join(base, name, 'secret.txt'), SECRET);
      symlinkSync(join(base, name), join(root, `to-${name}`));
    }
    symlinkSync(base, join(root, 'to-parent'));
    expect(resolveInside(root, '.').abs).toBe(root);
    expect(resolveInside(root, 'in/ok.txt').abs).toBe(join(root, 'in', 'ok.txt'));
    // Out through the parent and back into the world is inside.
    expect(resolveInside(root, 'to-parent/w/in/ok.txt').abs).toBe(join(root, 'in', 'ok.txt'));
    for (const path of ['to-w-x/secret.txt', 'to-wx/secret.txt', 'to-w.bak/secret.txt', 'to-parent'])
      expect(() => resolveInside(root, path), path).toThrow(/resolves outside the world/);
  });

  it('refuses documents reached through <docs>-x', () => {
    const { m, tools } = live();
    const sib = sibling(m.docsDir);
    rmSync(join(m.docsDir, 'runbook'), { force: true });
    symlinkSync(join(sib, 'secret.txt'), join(m.docsDir, 'runbook'));
    expectRefused(
      tools.run({ name: 'read_doc', input: { name: 'runbook' } }),
      'doc',
      m.root,
      /outside the world/,
    );
  });
});

describe('path containment: .. and absolute paths in every spelling', () => {
  const spellings: [string, RegExp][] = [
    ['..', /outside the world/],
    ['../docs/runbook', /outside the world/],
    ['src/../../docs/runbook', /outside the world/],
    ['./../docs/runbook', /outside the world/],
    ['src/./../.././docs/runbook', /outside the world/],
    ['src//..//..//docs/runbook', /outside the world/],
    ['..\\docs\\runbook', /outside the world/],
    ['src\\..\\..\\docs\\runbook', /outside the world/],
    ['/etc/passwd', /is absolute/],
    ['//etc/passwd', /is absolute/],
    ['\\\\server\\share\\x', /is absolute/],
    ['C:\\Windows\\win.ini', /is absolute/],
    ['c:/Windows/win.ini', /is absolute/],
    ['~/.ssh/id_rsa', /ENOENT/],
    ['$HOME/.bashrc', /ENOENT/],
    ['%2e%2e/docs/runbook', /ENOENT/],
    ['..%2fdocs%2frunbook', /ENOENT/],
    ['a\0/../../docs/runbook', /NUL/],
  ];

  it('read_file refuses each, or misses it as a literal name inside the world, on disk and in memory alike', () => {
    const { m, tools } = live();
    const mem = createWorldTools(memoryAccess(world));
    for (const [path, message] of spellings) {
      const disk = tools.run({ name: 'read_file', input: { path } });
      expectRefused(disk, path, m.root, message);
      expect(mem.run({ name: 'read_file', input: { path } }), path).toEqual(disk);
    }
  });

  it('a path that climbs out and back in is the same file, not a refusal', () => {
    const { tools } = live();
    expect(tools.run({ name: 'read_file', input: { path: 'src/../README.md' } }).content).toMatch(
      /^ +1\t# demo\n/,
    );
  });
});

describe('path containment: symlinks and hard links', () => {
  const outside = tempDir('guard-outside');
  writeFileSync(join(outside, 'secret.txt'), SECRET);

  it('refuses chained, relative, root and parent links, and says nothing about a dangling one beyond ENOENT', () => {
    const { m, tools } = live();
    symlinkSync(join(outside, 'secret.txt'), join(m.repoDir, 'hop2'));
    symlinkSync('hop2', join(m.repoDir, 'hop1'));
    symlinkSync('/', join(m.repoDir, 'rootfs'));
    symlinkSync('..', join(m.repoDir, 'up'));
    symlinkSync(join(outside, 'missing.txt'), join(m.repoDir, 'dangling'));
    for (const path of ['hop1', 'hop2', 'rootfs/etc/hostname', 'up/docs/runbook', 'up'])
      expectRefused(tools.run({ name: 'read_file', input: { path } }), path, m.root, /resolves outside/);
    expectRefused(
      tools.run({ name: 'read_file', input: { path: 'dangling' } }),
      'dangling',
      m.root,
      /ENOENT/,
    );
    // A link inside the world to a file inside the world is followed: containment, not a ban on links.
    symlinkSync('src/a.ts', join(m.repoDir, 'alias.ts'));
    expect(tools.run({ name: 'read_file', input: { path: 'alias.ts' } }).content).toContain('export const a');
  });

  it('refuses a hard link to a file outside (realpath cannot see it), and search skips it', () => {
    const { m, tools } = live();
    try {
      linkSync(join(outside, 'secret.txt'), join(m.repoDir, 'hard.txt'));
    } catch {
      return; // another file system: a hard link cannot be made there, so none can be planted either
    }
    expectRefused(tools.run({ name: 'read_file', input: { path: 'hard.txt' } }), 'hard', m.root, /hard link/);
    expect(tools.run({ name: 'search_code', input: { query: 'SECRET' } }).content).toBe('No matches found.');
  });
});

describe('path containment: case and Unicode look-alikes are other names, not ways out', () => {
  it('misses look-alike dots and slashes, other cases and other normal forms, on disk and in memory alike', () => {
    const { m, tools } = live();
    const mem = createWorldTools(memoryAccess(world));
    const lookalikes = [
      '\uFF0E\uFF0E/docs/runbook', // fullwidth full stops
      '\u2024\u2024/docs/runbook', // one dot leaders
      '..\u2215docs\u2215runbook', // division slash
      '..\uFF0Fdocs\uFF0Frunbook', // fullwidth solidus
      '.\u200B./docs/runbook', // a zero-width space between the dots
      'readme.md',
      'README.MD',
      'cafe\u0301.md', // NFD of café.md: a different name on a byte-exact file system
    ];
    for (const path of lookalikes) {
      const disk = tools.run({ name: 'read_file', input: { path } });
      expectRefused(disk, path, m.root, /ENOENT/);
      expect(mem.run({ name: 'read_file', input: { path } }), path).toEqual(disk);
    }
    expect(tools.run({ name: 'read_file', input: { path: 'caf\u00e9.md' } }).content).toContain('nfc name');
    expect(dirname(m.repoDir)).toBe(m.root);
  });
});
