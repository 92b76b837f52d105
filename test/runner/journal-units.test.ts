import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Journal, readJsonl, repairJsonl } from '../../harness/core/journal.ts';
import { tempDir } from '../support/mock-run.ts';

// The journal at its edges: when a buffered line reaches the disk, a torn tail of any size, and the
// blank lines a hand-edited or concatenated journal holds.

afterEach(() => vi.useRealTimers());

describe('Journal', () => {
  it('writes nothing until flushEvery lines are buffered, then all of them at once', () => {
    const file = join(tempDir('journal-every'), 'results.jsonl');
    const j = new Journal<{ n: number }>(file, 3, 60_000);
    j.append({ n: 1 });
    j.append({ n: 2 });
    expect(readFileSync(file, 'utf8')).toBe('');
    j.append({ n: 3 });
    expect(readJsonl(file)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    j.close();
  });

  it('a line waits at most flushMs, one timer for the lines buffered meanwhile', () => {
    vi.useFakeTimers();
    const file = join(tempDir('journal-timer'), 'results.jsonl');
    const j = new Journal<{ n: number }>(file, 64, 200);
    j.append({ n: 1 });
    vi.advanceTimersByTime(150);
    j.append({ n: 2 });
    vi.advanceTimersByTime(49);
    expect(readFileSync(file, 'utf8')).toBe('');
    vi.advanceTimersByTime(1);
    expect(readJsonl(file)).toEqual([{ n: 1 }, { n: 2 }]);
    expect(vi.getTimerCount()).toBe(0);
    j.close();
  });

  it('a flush before the timer fires cancels it', () => {
    vi.useFakeTimers();
    const file = join(tempDir('journal-cancel'), 'results.jsonl');
    const j = new Journal<{ n: number }>(file, 64, 200);
    j.append({ n: 1 });
    expect(vi.getTimerCount()).toBe(1);
    j.flush();
    expect(vi.getTimerCount()).toBe(0);
    expect(readJsonl(file)).toEqual([{ n: 1 }]);
    j.close();
  });

  it('beforeFlush runs before a write, and not when there is nothing to write', () => {
    const file = join(tempDir('journal-before'), 'results.jsonl');
    const seen: string[] = [];
    const j = new Journal<{ n: number }>(file, 64, 60_000, {
      beforeFlush: () => seen.push(readFileSync(file, 'utf8')),
    });
    j.flush();
    expect(seen).toEqual([]);
    j.append({ n: 1 });
    j.flush();
    expect(seen).toEqual(['']);
    j.close();
    expect(seen).toEqual(['']);
    expect(readFileSync(file, 'utf8')).toBe('{"n":1}\n');
  });

  it('close writes what is buffered; lines with any characters are written whole', () => {
    const file = join(tempDir('journal-close'), 'results.jsonl');
    const j = new Journal<{ s: string }>(file, 64, 60_000);
    j.append({ s: 'naïve ✓ 日本' });
    j.append({ s: 'line\nbreak' });
    j.close();
    expect(readJsonl(file)).toEqual([{ s: 'naïve ✓ 日本' }, { s: 'line\nbreak' }]);
  });

  it('opening an existing journal repairs its torn tail and appends after its last whole line', () => {
    const file = join(tempDir('journal-reopen'), 'results.jsonl');
    writeFileSync(file, '{"n":1}\n{"n":2');
    const j = new Journal<{ n: number }>(file, 1);
    j.append({ n: 3 });
    j.close();
    expect(readFileSync(file, 'utf8')).toBe('{"n":1}\n{"n":3}\n');
  });
});

describe('repairJsonl', () => {
  const file = (content?: string) => {
    const path = join(tempDir('journal-repair-units'), 'calls.jsonl');
    if (content !== undefined) writeFileSync(path, content);
    return path;
  };

  it('leaves a missing, an empty and a whole journal alone', () => {
    const missing = file();
    expect(repairJsonl(missing)).toBe(0);
    expect(existsSync(missing)).toBe(false);
    expect(repairJsonl(file(''))).toBe(0);
    const whole = file('{"n":1}\n{"n":2}\n');
    expect(repairJsonl(whole)).toBe(0);
    expect(readFileSync(whole, 'utf8')).toBe('{"n":1}\n{"n":2}\n');
  });

  it('cuts a journal with no newline at all to nothing', () => {
    const path = file('{"n":1');
    expect(repairJsonl(path)).toBe(6);
    expect(readFileSync(path, 'utf8')).toBe('');
  });

  it('finds the last newline behind a torn tail longer than its 64 KiB read block', () => {
    const tail = 'x'.repeat(150_000);
    const path = file(`{"n":1}\n${tail}`);
    expect(repairJsonl(path)).toBe(tail.length);
    expect(readFileSync(path, 'utf8')).toBe('{"n":1}\n');
    const noNewline = file('y'.repeat(70_000));
    expect(repairJsonl(noNewline)).toBe(70_000);
    expect(readFileSync(noNewline, 'utf8')).toBe('');
  });

  it('a newline that is the first byte read: the journal keeps it', () => {
    const path = file('\n{"n":');
    expect(repairJsonl(path)).toBe(5);
    expect(readFileSync(path, 'utf8')).toBe('\n');
  });

  it('a newline exactly at a block boundary', () => {
    const head = `${'z'.repeat(64 * 1024 - 1)}\n`;
    const path = file(`${head}torn`);
    expect(repairJsonl(path)).toBe(4);
    expect(readFileSync(path, 'utf8')).toBe(head);
  });
});

describe('readJsonl', () => {
  it('a missing journal is empty', () => {
    expect(readJsonl(join(tempDir('journal-missing'), 'nope.jsonl'))).toEqual([]);
  });

  it('skips blank and whitespace-only lines anywhere, and reads CRLF lines', () => {
    const path = join(tempDir('journal-blank'), 'results.jsonl');
    writeFileSync(path, '\n{"n":1}\n \t \n\n{"n":2}\r\n{"n":3}\n\n');
    expect(readJsonl(path)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
  });

  it('a torn line followed only by blank lines is the last one (dropped); followed by a row it is an error', () => {
    const path = join(tempDir('journal-torn'), 'results.jsonl');
    writeFileSync(path, '{"n":1}\n{"n":\n\n  \n');
    expect(readJsonl(path)).toEqual([{ n: 1 }]);
    writeFileSync(path, '{"n":1}\n{"n":\n\n{"n":4}\n');
    expect(() => readJsonl(path)).toThrow(`${path}:2: not a complete JSON line`);
    let err: Error | undefined;
    try {
      readJsonl(path);
    } catch (e) {
      err = e as Error;
    }
    expect(err?.cause).toBeInstanceOf(SyntaxError);
  });
});
