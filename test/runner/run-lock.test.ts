import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../support/cli.ts';
import { tempDir } from '../support/mock-run.ts';
import { acquireRunLock } from '../../harness/runner/run-lock.ts';

const contender = join(repoRoot, 'test/support/lock-contender.ts');

function child(mode: 'stale' | 'contend', root: string, trials: number) {
  const p = spawn(process.execPath, ['--import', 'tsx', contender, mode, root, String(trials)], {
    cwd: repoRoot,
  });
  const lines: string[] = [];
  let buf = '';
  let err = '';
  p.stdout.on('data', (d) => {
    buf += String(d);
    const parts = buf.split('\n');
    buf = parts.pop()!;
    lines.push(...parts);
  });
  p.stderr.on('data', (d) => (err += String(d)));
  const exit = new Promise<number | null>((resolve) => p.on('close', resolve));
  return { lines, exit, err: () => err, kill: () => p.kill('SIGKILL') };
}

const until = async (ok: () => boolean, what: string) => {
  for (let i = 0; i < 3_000 && !ok(); i++) await new Promise((r) => setTimeout(r, 2));
  if (!ok()) throw new Error(`timed out waiting for ${what}`);
};

describe('taking over a stale run lock', () => {
  it('exactly one of many processes trying at the same instant wins, every time', async () => {
    const trials = 25;
    const contenders = 6;
    const root = tempDir('lock-race');
    for (let t = 0; t < trials; t++) mkdirSync(join(root, `t${t}`));
    // A process takes every trial's lock and dies holding them: each trial starts from a stale lock.
    const stale = child('stale', root, trials);
    expect(await stale.exit, stale.err()).toBe(0);
    const procs = Array.from({ length: contenders }, () => child('contend', root, trials));
    const winners: number[] = [];
    try {
      for (let t = 0; t < trials; t++) {
        writeFileSync(join(root, `go-${t}`), String(Date.now() + 40));
        const said = () => procs.map((p) => p.lines.find((l) => l.startsWith(`${t} `)));
        await until(
          () => said().every(Boolean),
          `trial ${t}: ${JSON.stringify(procs.map((p) => [p.lines, p.err()]))}`,
        );
        const results = said().map((l) => l!.slice(String(t).length + 1));
        expect(results.filter((r) => r !== 'won' && r !== 'locked')).toEqual([]);
        winners.push(results.filter((r) => r === 'won').length);
        writeFileSync(join(root, `done-${t}`), '');
      }
    } finally {
      for (const p of procs) p.kill();
      await Promise.all(procs.map((p) => p.exit));
    }
    // Exactly one winner per trial: never two processes running the same directory, never none.
    expect(winners).toEqual(Array(trials).fill(1));
  });
});

describe('the run lock in one process', () => {
  it('is refused while held, free once released, and honours a live lock file of an older harness', () => {
    const dir = tempDir('lock-one');
    const release = acquireRunLock(dir);
    expect(() => acquireRunLock(dir)).toThrow(`${dir}: in use by process ${process.pid} (run.lock)`);
    release();
    acquireRunLock(dir)();
    const legacy = tempDir('lock-legacy');
    writeFileSync(join(legacy, 'run.lock'), String(process.pid));
    expect(() => acquireRunLock(legacy)).toThrow(/in use by process/);
    // A legacy lock whose process is gone is stale like any other.
    writeFileSync(join(legacy, 'run.lock'), '999999999');
    acquireRunLock(legacy)();
  });
});
