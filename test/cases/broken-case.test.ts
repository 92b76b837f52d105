import { afterAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSuite } from '../../cases/load.ts';
import { CaseValidationError } from '../../harness/core/errors.ts';
import { casesDir } from './helpers.ts';

const bin = fileURLToPath(new URL('../../bin/handoff-eval.js', import.meta.url));
const good = JSON.parse(
  readFileSync(
    fileURLToPath(new URL('../fixtures/cases/mini/cases/deprecation-1.json', import.meta.url)),
    'utf8',
  ),
);
const suiteJson = {
  id: 'broken',
  title: 'Broken',
  description: 'test',
  direction: 'return',
  criteria: ['correctness'],
  baselineArm: 'inline',
  arms: [{ name: 'inline', strategy: 'inline', models: { source: 'large', receiver: 'large' } }],
};
const temps: string[] = [];
afterAll(() => temps.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A temp suite folder holding one case file (or raw text) and, optionally, a generator module. */
function tempSuite(
  caseValue: unknown,
  opts: { suite?: object; generator?: string } = {},
): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'cases-broken-'));
  temps.push(dir);
  mkdirSync(join(dir, 'cases'));
  writeFileSync(join(dir, 'suite.json'), JSON.stringify({ ...suiteJson, ...opts.suite }));
  if (opts.generator) writeFileSync(join(dir, 'gen.mjs'), opts.generator);
  const file = join(dir, 'cases', 'bad.json');
  writeFileSync(file, typeof caseValue === 'string' ? caseValue : JSON.stringify(caseValue));
  return { dir, file };
}

const mutate = (f: (c: typeof good) => void) => {
  const c = structuredClone(good);
  f(c);
  return c;
};

async function failure(dir: string): Promise<CaseValidationError> {
  try {
    await loadSuite(dir);
  } catch (err) {
    expect(err).toBeInstanceOf(CaseValidationError);
    return err as CaseValidationError;
  }
  throw new Error('expected the suite to fail validation');
}

describe('a broken case fails naming its file and field', () => {
  it.each([
    ['a required field is missing', mutate((c) => delete (c as { task?: string }).task), 'task'],
    [
      "a claim's cues are not in its text",
      mutate((c) => (c.assertions[0].cues = ['m_0007', 'm_9999'])),
      'assertions[0].claim',
    ],
    [
      'a hedged claim keeps its qualifier',
      mutate(
        (c) =>
          (c.assertions[1].claim =
            'I could not determine whether the sandbox adapter uses the same version pin'),
      ),
      'assertions[1].claim',
    ],
    [
      'a hedge lost its qualifier',
      mutate((c) => (c.assertions[1].statement = 'the sandbox adapter uses the same version pin')),
      'assertions[1].statement',
    ],
    ['a caveat names no assertion', mutate((c) => (c.reference.caveats = ['a9'])), 'reference.caveats[0]'],
    [
      "a fact's text lacks its cues",
      mutate((c) => (c.reference.facts[0].text = 'two merchants')),
      'reference.facts[0].text',
    ],
    ['an unknown field', mutate((c) => ((c as Record<string, unknown>).colour = 'blue')), 'colour'],
    [
      'an unknown assertion field',
      mutate((c) => ((c.assertions[2] as Record<string, unknown>).confidence = 'high')),
      'assertions.2.confidence',
    ],
  ])('%s', async (_, value, field) => {
    const { dir, file } = tempSuite(value);
    const err = await failure(dir);
    expect(err.file).toBe(file);
    expect(err.field).toBe(field);
    expect(err.message).toContain(file);
  });

  it('a spawn case whose spawn call is not in the source', async () => {
    const { dir } = tempSuite(mutate((c) => Object.assign(c, { direction: 'spawn', spawnCallId: 'nope' })));
    expect((await failure(dir)).field).toBe('spawnCallId');
  });

  it('invalid JSON names the file', async () => {
    const { dir, file } = tempSuite('{ "id": ');
    const err = await failure(dir);
    expect([err.file, err.field]).toEqual([file, '(file)']);
  });

  it('a baseline arm that is not one of the arms names suite.json', async () => {
    const { dir } = tempSuite(good, { suite: { baselineArm: 'nope' } });
    const err = await failure(dir);
    expect([err.file, err.field]).toEqual([join(dir, 'suite.json'), 'baselineArm']);
  });

  it('a generator module without generate() names the module', async () => {
    const { dir } = tempSuite(good, {
      suite: { generator: { module: 'gen.mjs', seed: 1, count: 2 } },
      generator: 'export const nothing = 1;\n',
    });
    const err = await failure(dir);
    expect([err.file, err.field]).toEqual([join(dir, 'gen.mjs'), 'generate']);
  });

  it('a generator that emits a broken case names the module, the case index and the field', async () => {
    const gen = `export function generate({ count }) { return Array.from({ length: count }, (_, i) => ({ ...${JSON.stringify(good)}, id: 'g' + i, reference: { facts: [], caveats: ['missing'] } })); }\n`;
    const { dir } = tempSuite(good, {
      suite: { generator: { module: 'gen.mjs', seed: 1, count: 2 } },
      generator: gen,
    });
    const err = await failure(dir);
    expect(err.file).toBe(`${join(dir, 'gen.mjs')}#0`);
    expect(err.field).toBe('reference.caveats[0]');
  });
});

describe('handoff-eval validate (the real CLI)', () => {
  const run = (...args: string[]) =>
    spawnSync(process.execPath, [bin, 'validate', ...args], { encoding: 'utf8', cwd: tmpdir() });

  it('passes on the shipped cases/ folder', () => {
    const r = run(casesDir);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.match(/^ok /gm)).toHaveLength(5);
  });

  it('exits 2 on a broken case and prints the file and the field', () => {
    const { dir, file } = tempSuite(mutate((c) => (c.reference.caveats = ['a9'])));
    const r = run(dir);
    expect(r.status).toBe(2);
    expect(r.stdout).toContain(
      `ERR ${file} (case deprecation-1): reference.caveats[0]: no assertion with id "a9"`,
    );
  });
});

describe('a case nested thousands deep (hostile tool arguments)', () => {
  // Written as text: JSON.stringify itself overflows on a value this deep.
  const withCall = mutate((c) =>
    c.source.messages.push({
      role: 'assistant',
      toolCalls: [{ id: 'deep_1', name: 'search', input: 'DEEP' }],
    } as never),
  );
  const n = 8000;
  const hostile = JSON.stringify(withCall).replace('"DEEP"', `${'{"a":'.repeat(n)}"x"${'}'.repeat(n)}`);

  it('is refused when the suite loads, naming the file and the field — no RangeError', async () => {
    const { dir, file } = tempSuite(hostile);
    const err = await failure(dir);
    expect(err.message).toContain(file);
    expect(err.message).toMatch(
      /source\.messages\[\d+\]\.toolCalls\[0\]\.input.*nested more than 256 levels/,
    );
  });

  it('is refused by `case label` with exit 2 and one line, no stack trace', () => {
    const { file } = tempSuite(hostile);
    const r = spawnSync(process.execPath, [bin, 'case', 'label', file], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('nested more than 256 levels');
    expect(r.stderr).not.toMatch(/RangeError|\n\s+at /);
  });
});
