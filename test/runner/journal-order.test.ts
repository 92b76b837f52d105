import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Journal, readJsonl, repairJsonl } from '../../harness/core/journal.ts';
import { tempDir } from '../support/mock-run.ts';

describe('journal ordering', () => {
  it('flushing results first flushes the calls journal, so a row on disk always has all its calls on disk', () => {
    const dir = tempDir('journal-order');
    const callsFile = join(dir, 'calls.jsonl');
    const resultsFile = join(dir, 'results.jsonl');
    // As the runner wires them (harness/runner/run.ts): calls flush rarely, results flush first-come.
    const calls = new Journal<{ cellId: string }>(callsFile, 256, 60_000);
    const results = new Journal<{ cell_id: string }>(resultsFile, 2, 60_000, {
      beforeFlush: () => calls.flush(),
    });
    for (const id of ['a', 'a', 'b', 'b', 'b']) calls.append({ cellId: id });
    results.append({ cell_id: 'a' });
    expect(readJsonl(resultsFile)).toEqual([]);
    expect(readJsonl(callsFile)).toEqual([]);
    results.append({ cell_id: 'b' });
    expect(readJsonl(resultsFile).map((r) => (r as { cell_id: string }).cell_id)).toEqual(['a', 'b']);
    expect(readJsonl(callsFile)).toHaveLength(5);
    calls.append({ cellId: 'c' });
    results.close();
    calls.close();
    expect(readJsonl(callsFile)).toHaveLength(6);
  });
});

describe('reading a journal', () => {
  it('drops a torn last line but rejects a torn line in the middle, naming the file and line', () => {
    const dir = tempDir('journal-read');
    const file = join(dir, 'results.jsonl');
    writeFileSync(file, '{"a":1}\n{"a":2}\n{"a":');
    expect(readJsonl(file)).toEqual([{ a: 1 }, { a: 2 }]);
    writeFileSync(file, '{"a":1}\n{"a":\n{"a":3}\n');
    expect(() => readJsonl(file)).toThrow(`${file}:2: not a complete JSON line`);
  });

  it('repairs a torn tail before appending, so the next line starts on its own line', () => {
    const dir = tempDir('journal-repair');
    const file = join(dir, 'calls.jsonl');
    writeFileSync(file, '{"n":1}\n');
    appendFileSync(file, '{"n":2,"cut');
    expect(repairJsonl(file)).toBe('{"n":2,"cut'.length);
    const j = new Journal<{ n: number }>(file);
    j.append({ n: 3 });
    j.close();
    expect(readFileSync(file, 'utf8')).toBe('{"n":1}\n{"n":3}\n');
  });
});
