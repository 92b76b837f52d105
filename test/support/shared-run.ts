import { spawn } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { cliPath, repoRoot } from './cli.ts';

/**
 * The shipped default experiment, `handoff-eval run --no-cache --quiet --out <dir>` from the repository
 * root through the real CLI, made once per `vitest run` and read by every file that asserts on it
 * (README figures, the gate on the shipped config, the paraphrasing sim). It takes 10 s alone and
 * minutes on a loaded machine; three files each ran it for themselves.
 */
export const sharedDefaultRun = (): Promise<string> => sharedRun('default-run', ['--no-cache']);

/**
 * `handoff-eval run <args> --quiet --out <dir>` from the repository root through the real CLI, made once
 * per `vitest run` under `name` (one name, one argument list) and shared by the files that read it.
 *
 * Safe under parallel workers: the first file to ask takes a lock file (O_EXCL) and runs it into a
 * directory of its own, renamed into place when it has finished; the others wait for that directory (or
 * for the failure it records, or take over if the lock's owner died). The directory is the one
 * test/support/global-setup.ts provides and removes after the run — never reused across runs, so no
 * code change can be served a stale run. Without that setup (e.g. the mutation config) each worker
 * makes its own. Callers only read the run directory: its files are shared.
 */
export async function sharedRun(name: string, args: string[]): Promise<string> {
  const dir = fixturesDir();
  const done = join(dir, name);
  const failed = join(dir, `${name}.failed`);
  const lock = join(dir, `${name}.lock`);
  const deadline = Date.now() + 900_000;
  for (;;) {
    if (existsSync(done)) return runDirIn(done);
    if (existsSync(failed)) throw new Error(readFileSync(failed, 'utf8'));
    if (takeLock(lock)) {
      try {
        return await makeRun(args, done, failed);
      } finally {
        rmSync(lock, { force: true });
      }
    }
    if (Date.now() > deadline)
      throw new Error(`shared run ${name}: still not made after 15 minutes (${lock})`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

let ownDir: string | undefined;
function fixturesDir(): string {
  const provided = inject('sharedFixtures');
  if (provided) return provided;
  ownDir ??= mkdtempSync(join(tmpdir(), 'he-shared-fixtures-own-'));
  return ownDir;
}

/** True if this process now holds the lock; a lock whose owner has exited is removed and retaken. */
function takeLock(lock: string): boolean {
  try {
    const fd = openSync(lock, 'wx');
    writeFileSync(fd, String(process.pid));
    closeSync(fd);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const owner = Number(readFileSync(lock, 'utf8') || NaN);
  if (Number.isInteger(owner) && !alive(owner)) rmSync(lock, { force: true });
  return false;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function makeRun(args: string[], done: string, failed: string): Promise<string> {
  const out = `${done}.${process.pid}`;
  // Not spawnSync: a worker blocked for the whole run could not answer vitest's own messages.
  const child = spawn(process.execPath, [cliPath, 'run', ...args, '--quiet', '--out', out], {
    cwd: repoRoot,
    env: { ...process.env, CI: 'true' },
    timeout: 600_000,
  });
  let stderr = '';
  child.stdout.resume();
  child.stderr.on('data', (d) => (stderr += String(d)));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) {
    const message = `shared run ${args.join(' ')}: handoff-eval run exited ${code}\n${stderr}`;
    writeFileSync(failed, message);
    throw new Error(message);
  }
  renameSync(out, done);
  return runDirIn(done);
}

function runDirIn(out: string): string {
  const runs = readdirSync(out);
  if (runs.length !== 1) throw new Error(`shared run: expected one run in ${out}, found ${runs.join(', ')}`);
  return join(out, runs[0]!);
}
