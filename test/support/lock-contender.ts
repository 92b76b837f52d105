import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { acquireRunLock } from '../../harness/runner/run-dir.ts';

/**
 * A child process for the run-lock race test.
 *   stale <root> <trials>: takes the lock of <root>/t<i> for every trial and exits without releasing
 *     (its pid is then gone: every lock it leaves is stale, in whatever format the harness writes).
 *   contend <root> <trials>: for each trial, waits for <root>/go-<i> (which holds a start time), spins
 *     until that instant, tries the lock, prints "<i> won" or "<i> locked", and — if it won — holds the
 *     lock until <root>/done-<i> exists, so every other contender tries while it is held.
 */
const [mode, root, trialsArg] = process.argv.slice(2);
const trials = Number(trialsArg);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const waitFor = async (file: string) => {
  for (let i = 0; i < 60_000 && !existsSync(file); i++) await sleep(1);
};

if (mode === 'stale') {
  for (let t = 0; t < trials; t++) acquireRunLock(join(root!, `t${t}`));
  process.stdout.write('stale\n');
  process.exit(0);
}

for (let t = 0; t < trials; t++) {
  const go = join(root!, `go-${t}`);
  await waitFor(go);
  const start = Number(readFileSync(go, 'utf8'));
  while (Date.now() < start) {
    // spin: every contender tries at the same instant
  }
  let release: (() => void) | undefined;
  try {
    release = acquireRunLock(join(root!, `t${t}`));
    process.stdout.write(`${t} won\n`);
  } catch (err) {
    const code = (err as { code?: string }).code;
    process.stdout.write(code === 'run_locked' ? `${t} locked\n` : `${t} error ${String(err)}\n`);
  }
  if (release) {
    await waitFor(join(root!, `done-${t}`));
    release();
  }
}
