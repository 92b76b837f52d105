import { linkSync, mkdirSync, readFileSync, readdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { InputError } from '../core/errors.ts';
import { processAlive } from '../core/process-alive.ts';

/**
 * One process per run directory: a second `--resume` of a run still in progress would execute the
 * same missing cells twice. `run.lock/` holds numbered claims, each naming its process; the newest
 * claim is the lock. A process claims the run by creating claim n+1 — a hard link of a complete temp
 * file, which the file system makes atomic and refuses if the name exists — and only after finding
 * claim n's process gone (kill -9) or its claim released. Of any number of processes racing for the
 * same n+1, exactly one link succeeds. The newest claim is never deleted (claims below it are pruned),
 * so a process acting on an old view links a number that exists, or one below the newest; the check
 * after the link (is mine the newest?) makes that one step back.
 */
export function acquireRunLock(dir: string): () => void {
  const lockDir = join(dir, 'run.lock');
  clearLegacyLock(dir, lockDir);
  mkdirSync(lockDir, { recursive: true });
  const tmp = join(lockDir, `tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
  writeFileSync(tmp, `${process.pid}\n`);
  try {
    for (let attempt = 0; attempt < 200; attempt++) {
      const newest = newestClaim(lockDir);
      const holder = newest ? holderOf(lockDir, newest) : undefined;
      if (holder === 'pruned') continue;
      if (holder !== undefined) throw locked(dir, holder);
      const mine = (newest ?? 0) + 1;
      try {
        linkSync(tmp, join(lockDir, String(mine)));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EEXIST') continue;
        throw err;
      }
      if (newestClaim(lockDir) !== mine) {
        removeQuietly(join(lockDir, String(mine)));
        continue;
      }
      prune(lockDir, mine);
      return () => writeFileSync(join(lockDir, `${mine}.released`), '');
    }
    throw new InputError('run_locked', `${dir}: run.lock is contended by other processes; try again`);
  } finally {
    removeQuietly(tmp);
  }
}

/**
 * The process holding the run's lock (a run in progress), or undefined when none does — for readers
 * (`report`) that must say they read a journal still being written. Takes no claim.
 */
export function runLockHolder(dir: string): number | undefined {
  const lockDir = join(dir, 'run.lock');
  try {
    if (statSync(lockDir).isFile()) {
      const pid = Number(readFileSync(lockDir, 'utf8').trim());
      return pid && processAlive(pid) ? pid : undefined;
    }
    const newest = newestClaim(lockDir);
    const holder = newest ? holderOf(lockDir, newest) : undefined;
    return typeof holder === 'number' ? holder : undefined;
  } catch {
    return undefined;
  }
}

function newestClaim(lockDir: string): number | undefined {
  let newest: number | undefined;
  for (const f of readdirSync(lockDir)) if (/^\d+$/.test(f)) newest = Math.max(newest ?? 0, Number(f));
  return newest;
}

/**
 * The pid holding claim n; undefined when the claim is released or its process is gone; 'pruned' when
 * the claim vanished since the listing (a newer claim was made and pruned it: look again).
 */
function holderOf(lockDir: string, n: number): number | undefined | 'pruned' {
  let text: string;
  try {
    text = readFileSync(join(lockDir, String(n)), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'pruned';
    throw err;
  }
  if (exists(join(lockDir, `${n}.released`))) return undefined;
  const pid = Number(text.trim());
  return pid && processAlive(pid) ? pid : undefined;
}

/** Claims (and their release marks) below the newest one are history; removing them is safe. */
function prune(lockDir: string, mine: number): void {
  for (const f of readdirSync(lockDir)) {
    const n = /^(\d+)(\.released)?$/.exec(f);
    if (n && Number(n[1]) < mine) removeQuietly(join(lockDir, f));
  }
}

/** An older harness wrote run.lock as a file holding the pid: live, it is honoured; stale, removed. */
function clearLegacyLock(dir: string, lockDir: string): void {
  let isFile = false;
  try {
    isFile = statSync(lockDir).isFile();
  } catch {
    return;
  }
  if (!isFile) return;
  const pid = Number(readFileSync(lockDir, 'utf8').trim());
  if (pid && processAlive(pid)) throw locked(dir, pid);
  removeQuietly(lockDir);
}

function locked(dir: string, pid: number): InputError {
  return new InputError(
    'run_locked',
    `${dir}: in use by process ${pid} (run.lock); wait for it or stop it first`,
  );
}

function exists(file: string): boolean {
  try {
    statSync(file);
    return true;
  } catch {
    return false;
  }
}

function removeQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // already gone (another process pruned it)
  }
}
