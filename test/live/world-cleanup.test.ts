import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sweepStaleWorlds } from '../../harness/live/world.ts';
import { repoRoot } from '../support/cli.ts';
import { tempDir } from '../support/mock-run.ts';

/**
 * World copies of a killed live run (issue 28 #13): a process removes its copies at exit, and one
 * killed before its exit handler (SIGKILL) leaves them for the next process to sweep — only copies
 * whose owner is gone, never a running process's.
 */
const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid!;

function fakeWorld(dir: string, name: string, owner?: number, ageMs = 0): string {
  const root = join(dir, `handoff-world-${name}`);
  mkdirSync(join(root, 'repo'), { recursive: true });
  if (owner !== undefined) writeFileSync(join(root, 'owner.pid'), String(owner));
  const t = (Date.now() - ageMs) / 1000;
  utimesSync(root, t, t);
  return root;
}

describe('stale world copies', () => {
  it('removes copies whose owner process is gone, keeps live owners and fresh copies without an owner', () => {
    const dir = tempDir('sweep');
    const dead = fakeWorld(dir, 'dead', deadPid());
    const mine = fakeWorld(dir, 'mine', process.pid);
    const oldAnon = fakeWorld(dir, 'old', undefined, 2 * 24 * 3_600_000);
    const newAnon = fakeWorld(dir, 'new');
    const other = join(dir, 'not-a-world');
    mkdirSync(other);
    expect(sweepStaleWorlds(dir).sort()).toEqual([dead, oldAnon].sort());
    expect([dead, mine, oldAnon, newAnon, other].map(existsSync)).toEqual([false, true, false, true, true]);
  });

  it('a process removes its copies at exit; a SIGKILLed one leaves them for the next sweep', () => {
    const script = (end: string) => `
      import('./harness/live/world.ts').then(({ materializeWorld }) => {
        const m = materializeWorld({ files: { 'a.txt': 'a' }, tables: { t: { columns: ['n'], rows: [[1]] } } }, 'x');
        process.stdout.write(m.root + '\\n');
        ${end}
      });`;
    const run = (end: string) =>
      spawnSync(process.execPath, ['--import', 'tsx', '-e', script(end)], {
        cwd: repoRoot,
        encoding: 'utf8',
      });
    const exited = run('process.exit(0);');
    const root = exited.stdout.trim();
    expect(root).toMatch(/handoff-world-/);
    expect(existsSync(root)).toBe(false);
    const killed = run("process.kill(process.pid, 'SIGKILL');");
    const left = killed.stdout.trim();
    expect(killed.signal).toBe('SIGKILL');
    expect(existsSync(left)).toBe(true);
    expect(sweepStaleWorlds()).toContain(left);
    expect(existsSync(left)).toBe(false);
  });
});
