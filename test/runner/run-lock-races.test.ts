import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { acquireRunLock, runLockHolder } from '../../harness/runner/run-lock.ts';
import { InputError } from '../../harness/core/errors.ts';

/**
 * The run lock's race branches in one process (issue 32 item 2): what another process does between
 * two of our steps (links the same claim first, links a newer one, prunes the claim being read) is
 * played by wrapping the file calls the lock makes. run-lock.test.ts races real processes, which
 * the mutation runner cannot see.
 */
type Hook = ((path: string) => void) | undefined;
const hooks: { link: Hook; read: Hook } = { link: undefined, read: undefined };

vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  return {
    ...real,
    linkSync: (from: fs.PathLike, to: fs.PathLike) => {
      hooks.link?.(String(to));
      return real.linkSync(from, to);
    },
    readFileSync: ((path: fs.PathOrFileDescriptor, ...rest: unknown[]) => {
      if (typeof path === 'string') hooks.read?.(path);
      return (real.readFileSync as (...a: unknown[]) => unknown)(path, ...rest);
    }) as typeof real.readFileSync,
  };
});

const made: string[] = [];
afterAll(() => made.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
afterEach(() => {
  hooks.link = undefined;
  hooks.read = undefined;
});
const fresh = () => {
  const d = fs.mkdtempSync(join(tmpdir(), 'he-lock-race-'));
  made.push(d);
  fs.mkdirSync(join(d, 'run.lock'));
  return d;
};
const claims = (dir: string) => fs.readdirSync(join(dir, 'run.lock')).sort();
const claim = (dir: string, name: string, text = '') => fs.writeFileSync(join(dir, 'run.lock', name), text);
const errno = (code: string) => Object.assign(new Error(code), { code });
const dead = 999_999_999;
const thrown = (f: () => unknown): Error => {
  try {
    f();
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected an error');
};

describe('the run lock under races', () => {
  it('another process links the same claim first: ours is refused (EEXIST) and the lock looks again', () => {
    const dir = fresh();
    let once = true;
    hooks.link = () => {
      if (!once) return;
      once = false;
      // The other process took claim 1 and has already released it.
      claim(dir, '1', `${dead}\n`);
      claim(dir, '1.released');
    };
    const release = acquireRunLock(dir);
    expect(claims(dir)).toEqual(['2']);
    release();
    expect(fs.readFileSync(join(dir, 'run.lock', '2.released'), 'utf8')).toBe('');
  });

  it('another live process links the same claim first: ours is refused and the lock is theirs', () => {
    const dir = fresh();
    hooks.link = () => {
      hooks.link = undefined;
      claim(dir, '1', `${process.pid}\n`);
    };
    const err = thrown(() => acquireRunLock(dir));
    expect(err).toBeInstanceOf(InputError);
    expect(err.message).toBe(
      `${dir}: in use by process ${process.pid} (run.lock); wait for it or stop it first`,
    );
    expect(claims(dir)).toEqual(['1']);
  });

  it('a link that fails for another reason is thrown as it is, leaving no temp file behind', () => {
    const dir = fresh();
    const eperm = errno('EPERM');
    hooks.link = () => {
      throw eperm;
    };
    expect(thrown(() => acquireRunLock(dir))).toBe(eperm);
    expect(claims(dir)).toEqual([]);
  });

  it('a newer claim appears right after ours: ours is withdrawn and the newer one is the lock', () => {
    const dir = fresh();
    hooks.link = (to) => {
      hooks.link = undefined;
      // As we link claim 1, another process links claim 2.
      const mine = Number(to.slice(to.lastIndexOf('/') + 1));
      claim(dir, String(mine + 1), `${process.pid}\n`);
    };
    const err = thrown(() => acquireRunLock(dir));
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).code).toBe('run_locked');
    // Our claim 1 was removed; the newer one stays.
    expect(claims(dir)).toEqual(['2']);
  });

  it('the newest claim vanishes while being read (a newer process pruned it): the lock looks again', () => {
    const dir = fresh();
    claim(dir, '3', `${dead}\n`);
    let vanished = 0;
    hooks.read = (path) => {
      if (path === join(dir, 'run.lock', '3') && vanished++ === 0) throw errno('ENOENT');
    };
    const release = acquireRunLock(dir);
    expect(vanished).toBe(2);
    expect(claims(dir)).toEqual(['4']);
    release();
    // `report` reading a claim that vanishes sees no holder.
    claim(dir, '9', `${process.pid}\n`);
    hooks.read = (path) => {
      if (path === join(dir, 'run.lock', '9')) throw errno('ENOENT');
    };
    expect(runLockHolder(dir)).toBeUndefined();
  });

  it('a claim that cannot be read for another reason is thrown, not taken over', () => {
    const dir = fresh();
    claim(dir, '1', `${dead}\n`);
    const eacces = errno('EACCES');
    hooks.read = (path) => {
      if (path === join(dir, 'run.lock', '1')) throw eacces;
    };
    expect(thrown(() => acquireRunLock(dir))).toBe(eacces);
    expect(claims(dir)).toEqual(['1']);
  });

  it('gives up after 200 attempts when every claim it tries is taken, saying the lock is contended', () => {
    const dir = fresh();
    let links = 0;
    hooks.link = () => {
      links++;
      throw errno('EEXIST');
    };
    const err = thrown(() => acquireRunLock(dir));
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).code).toBe('run_locked');
    expect(err.message).toBe(`${dir}: run.lock is contended by other processes; try again`);
    expect(links).toBe(200);
    expect(claims(dir)).toEqual([]);
  });
});

describe('claims and history', () => {
  it('numbers past 9 are claims: the newest of 10..12 is found and the history below it pruned', () => {
    const dir = fresh();
    claim(dir, '10', `${dead}\n`);
    claim(dir, '11', `${dead}\n`);
    claim(dir, '11.released');
    claim(dir, '12', `${dead}\n`);
    acquireRunLock(dir)();
    expect(claims(dir)).toEqual(['13', '13.released']);
  });

  it('prunes only claims and their release marks: other names that hold digits are kept', () => {
    const dir = fresh();
    for (const name of ['1', '1.released', 'note1', '1x', '1.released.bak', 'tmp-1'])
      claim(dir, name, `${dead}\n`);
    acquireRunLock(dir)();
    expect(claims(dir)).toEqual(['1.released.bak', '1x', '2', '2.released', 'note1', 'tmp-1']);
  });

  it("an older harness's lock file naming a live process refuses the lock and is left in place; a dead one is replaced", () => {
    const base = fs.mkdtempSync(join(tmpdir(), 'he-lock-legacy-'));
    made.push(base);
    fs.writeFileSync(join(base, 'run.lock'), `${process.pid}\n`);
    const err = thrown(() => acquireRunLock(base));
    expect(err.message).toBe(
      `${base}: in use by process ${process.pid} (run.lock); wait for it or stop it first`,
    );
    expect(fs.statSync(join(base, 'run.lock')).isFile()).toBe(true);
    fs.writeFileSync(join(base, 'run.lock'), `${dead}\n`);
    acquireRunLock(base)();
    expect(claims(base)).toEqual(['1', '1.released']);
  });
});
