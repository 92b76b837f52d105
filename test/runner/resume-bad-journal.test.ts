import { beforeAll, describe, expect, it } from 'vitest';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveConfig } from '../../harness/config/resolve-config.ts';
import { runExperiment } from '../../harness/runner/run.ts';
import { InputError } from '../../harness/core/errors.ts';
import { fixtureCases, tempDir } from '../support/mock-run.ts';

/**
 * Bad input on the run's own files (issue 28 #12, the non-config part): `--out` naming a file, and a
 * results.jsonl that is a directory, has a torn line in the middle, a row that is not an object or
 * lacks its identity, or bytes that are not UTF-8 — each a clean InputError naming the file, the line
 * and the field (exit 2), and the journal's bytes untouched (nothing already written is lost).
 */
const config = (outDir: string) =>
  resolveConfig({ casesDir: fixtureCases, reps: 1, seed: 5, cache: false, outDir }, { quiet: true });

let good: string;
let goodBytes: Buffer;
beforeAll(async () => {
  const { dir } = await runExperiment({ config: config(join(tempDir('bad-journal'), 'runs')) });
  good = dir;
  goodBytes = readFileSync(join(dir, 'results.jsonl'));
});

function copyWith(journal: Buffer | 'directory'): string {
  const dir = join(tempDir('bad-journal-copy'), 'run');
  cpSync(good, dir, { recursive: true });
  const file = join(dir, 'results.jsonl');
  rmSync(file, { recursive: true, force: true });
  if (journal === 'directory') mkdirSync(file);
  else writeFileSync(file, journal);
  return dir;
}

const lines = () => goodBytes.toString('utf8').trimEnd().split('\n');
const join_ = (ls: string[]) => Buffer.from(`${ls.join('\n')}\n`);

const bad: [string, () => Buffer | 'directory', RegExp][] = [
  ['results.jsonl is a directory', () => 'directory', /results\.jsonl: is not a file/],
  [
    'a torn line in the middle',
    () => join_([lines()[0]!.slice(0, 40), ...lines().slice(1)]),
    /results\.jsonl:1: not a complete JSON line \(a torn write inside the journal\)/,
  ],
  [
    'a number as a row',
    () => join_([lines()[0]!, '42', ...lines().slice(1)]),
    /results\.jsonl:2: a row must be a JSON object \(got number\)/,
  ],
  [
    'null as a row',
    () => join_(['null', ...lines()]),
    /results\.jsonl:1: a row must be a JSON object \(got null\)/,
  ],
  [
    'an array as a row',
    () => join_([...lines(), '[1,2]']),
    /results\.jsonl:4: a row must be a JSON object \(got an array\)/,
  ],
  [
    'a row without cell_id',
    () => join_([...lines(), '{"status":"ok"}']),
    /results\.jsonl:4: field cell_id: must be a non-empty string/,
  ],
  [
    'a row with an unknown status',
    () => join_([...lines(), '{"cell_id":"x","status":"done"}']),
    /results\.jsonl:4: field status: must be "ok" or "error"/,
  ],
  [
    'invalid UTF-8',
    () =>
      Buffer.concat([
        Buffer.from(`${lines()[0]}\n`),
        Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d, 0x0a]),
        Buffer.from(`${lines().slice(1).join('\n')}\n`),
      ]),
    /results\.jsonl:2: not valid UTF-8/,
  ],
];

describe('--resume on a bad results.jsonl', () => {
  it.each(bad)(
    '%s: exit 2 naming the file, line and field; the journal untouched',
    async (_name, make, message) => {
      const content = make();
      const dir = copyWith(content);
      const before = content === 'directory' ? null : readFileSync(join(dir, 'results.jsonl'));
      const err = await runExperiment({ config: config(join(dir, '..')), resumeDir: dir }).catch((e) => e);
      expect(err).toBeInstanceOf(InputError);
      expect(err.code).toBe('bad_journal');
      expect(err.message).toMatch(message);
      if (before) expect(readFileSync(join(dir, 'results.jsonl')).equals(before)).toBe(true);
    },
  );

  it('a torn LAST line (a kill mid-write) is not an error: the run resumes', async () => {
    const dir = copyWith(Buffer.concat([goodBytes, Buffer.from('{"cell_id":"tor')]));
    const out = await runExperiment({ config: config(join(dir, '..')), resumeDir: dir });
    expect(out.rows.length).toBeGreaterThan(0);
  });
});

describe('--out naming a file', () => {
  it('is bad input naming --out, and the file is untouched', async () => {
    const file = join(tempDir('out-file'), 'runs');
    writeFileSync(file, 'not a directory');
    for (const out of [file, join(file, 'deeper')]) {
      const err = await runExperiment({ config: config(out) }).catch((e) => e);
      expect(err).toBeInstanceOf(InputError);
      expect(err.message).toMatch(
        /^--out \/ outDir: .*(is a file|runs is a file), not a directory for run directories/,
      );
    }
    expect(readFileSync(file, 'utf8')).toBe('not a directory');
  });
});
