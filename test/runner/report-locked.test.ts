import { afterEach, describe, expect, it, vi } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { reportCommand } from '../../harness/cli/commands/report.ts';
import { acquireRunLock, runLockHolder } from '../../harness/runner/run-lock.ts';
import { InputError } from '../../harness/core/errors.ts';
import { syntheticRows } from '../reports/synthetic.ts';
import { tempDir } from '../support/mock-run.ts';

/**
 * `report` on a run still in progress (issue 28 #13): it says the reports are partial, naming the
 * process that holds run.lock and how many rows they cover; on a finished run it says nothing. A bad
 * journal is the same clean error a resume gives.
 */
afterEach(() => vi.restoreAllMocks());

function runDir(lines: string[]): string {
  const dir = join(tempDir('report-locked'), 'run');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'results.jsonl'), `${lines.join('\n')}\n`);
  return dir;
}

async function report(dir: string): Promise<string> {
  let err = '';
  vi.spyOn(process.stderr, 'write').mockImplementation((s) => ((err += String(s)), true));
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  await reportCommand.handler({ dir, format: 'md' } as never);
  vi.restoreAllMocks();
  return err;
}

const rows = syntheticRows({
  seed: 3,
  cases: 2,
  reps: 1,
  arms: ['inline', 'summary'],
  suite: 's',
  criteria: ['correctness'],
});
const lines = rows.map((r) => JSON.stringify(r));

describe('report on a locked run', () => {
  it('says the reports are partial while a process holds run.lock, and nothing once it is released', async () => {
    const dir = runDir(lines);
    const release = acquireRunLock(dir);
    expect(runLockHolder(dir)).toBe(process.pid);
    expect(await report(dir)).toBe(
      `report: ${dir} is still running (process ${process.pid} holds run.lock); these reports are PARTIAL: they cover the ${rows.length} rows journalled so far. Run report again once the run has finished.\n`,
    );
    release();
    expect(runLockHolder(dir)).toBeUndefined();
    expect(await report(dir)).toBe('');
  });

  it('a bad journal is a clean bad_journal error naming the line', async () => {
    const dir = runDir([lines[0]!, '"just a string"', ...lines.slice(1)]);
    let err: unknown;
    try {
      await reportCommand.handler({ dir, format: 'md' } as never);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputError);
    expect((err as Error).message).toMatch(/results\.jsonl:2: a row must be a JSON object \(got string\)/);
  });
});
