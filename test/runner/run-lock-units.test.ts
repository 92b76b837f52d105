import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { acquireRunLock, runLockHolder } from '../../harness/runner/run-lock.ts';
import { InputError } from '../../harness/core/errors.ts';

/**
 * The run lock's claims in one process (issue 32 item 2): which claim is the lock, what is pruned,
 * and what `report` reads as the holder — the multi-process race is run-lock.test.ts's.
 */
const made: string[] = [];
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));
const fresh = () => {
  const d = mkdtempSync(join(tmpdir(), 'he-lock-'));
  made.push(d);
  return d;
};
const claims = (dir: string) => readdirSync(join(dir, 'run.lock')).sort();
const dead = 999_999_999;

describe('the run lock', () => {
  it('claims 1, then 2 once 1 is released, pruning the history and leaving no temp file', () => {
    const dir = fresh();
    expect(runLockHolder(dir)).toBeUndefined();
    const release = acquireRunLock(dir);
    expect(claims(dir)).toEqual(['1']);
    expect(runLockHolder(dir)).toBe(process.pid);
    release();
    expect(claims(dir)).toEqual(['1', '1.released']);
    expect(runLockHolder(dir)).toBeUndefined();
    const again = acquireRunLock(dir);
    expect(claims(dir)).toEqual(['2']);
    expect(runLockHolder(dir)).toBe(process.pid);
    again();
  });

  it('takes over a claim whose process is gone, or that names no process; refuses a live one naming it', () => {
    const dir = fresh();
    mkdirSync(join(dir, 'run.lock'));
    writeFileSync(join(dir, 'run.lock', '4'), `${dead}\n`);
    writeFileSync(join(dir, 'run.lock', '3'), `${process.pid}\n`);
    expect(runLockHolder(dir)).toBeUndefined();
    const release = acquireRunLock(dir);
    expect(claims(dir)).toEqual(['5']);
    release();
    writeFileSync(join(dir, 'run.lock', '6'), 'not a pid\n');
    acquireRunLock(dir)();
    expect(claims(dir)).toEqual(['7', '7.released']);
    writeFileSync(join(dir, 'run.lock', '8'), `${process.pid}\n`);
    writeFileSync(join(dir, 'run.lock', 'notes'), 'ignored');
    const err = (() => {
      try {
        acquireRunLock(dir);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).code).toBe('run_locked');
    expect((err as Error).message).toBe(
      `${dir}: in use by process ${process.pid} (run.lock); wait for it or stop it first`,
    );
    expect(runLockHolder(dir)).toBe(process.pid);
    // The refused attempt left nothing behind.
    expect(claims(dir)).toEqual(['7', '7.released', '8', 'notes']);
  });

  it("an older harness's lock file: live, it is the holder; stale or unreadable, none", () => {
    const dir = fresh();
    writeFileSync(join(dir, 'run.lock'), `${process.pid}\n`);
    expect(runLockHolder(dir)).toBe(process.pid);
    writeFileSync(join(dir, 'run.lock'), `${dead}\n`);
    expect(runLockHolder(dir)).toBeUndefined();
    writeFileSync(join(dir, 'run.lock'), 'x');
    expect(runLockHolder(dir)).toBeUndefined();
    // Stale: removed and replaced by a claim directory.
    acquireRunLock(dir)();
    expect(claims(dir)).toEqual(['1', '1.released']);
    // A directory that does not exist has no holder and is created by the lock.
    const none = join(fresh(), 'sub');
    expect(runLockHolder(none)).toBeUndefined();
    acquireRunLock(none)();
    expect(claims(none)).toEqual(['1', '1.released']);
  });
});
