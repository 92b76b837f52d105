import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ResultRow } from '../../harness/core/index.ts';
import {
  checkSameExperiment,
  createBaseline,
  evaluateGate,
  readCalls,
  readRunFiles,
} from '../../harness/gate/index.ts';
import { checkScopeNames } from '../../harness/gate/scopes.ts';
import { armMode, modeMismatch } from '../../harness/gate/like-for-like.ts';
import { InputError } from '../../harness/core/errors.ts';
import { syntheticRows } from '../reports/synthetic.ts';
import { removeTempDirs, tempDir, writeRows } from './helpers.ts';
import { thresholds } from './thresholds.ts';

/**
 * The gate's parts in-process (issue 32 item 2): the scope names `validate` checks, reading a run
 * directory, the mode of an arm, and the notes a verdict carries — paths the CLI tests reach only in
 * a second process.
 */
afterAll(removeTempDirs);

const t = thresholds;
const message = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    return (e as Error).message;
  }
  return 'no error';
};

describe('checkScopeNames (validate)', () => {
  const suites = [
    { id: 's', arms: [{ name: 'a' }, { name: 'b' }] },
    { id: 'u', arms: [{ name: 'c' }] },
  ];
  it('accepts scopes naming suites and arms on disk', () => {
    expect(() =>
      checkScopeNames(
        { ...t, suites: { s: { exempt: ['a'], arms: { b: { maxDrop: 1 } } }, u: {} }, arms: { c: {} } },
        suites,
        'x.ts',
      ),
    ).not.toThrow();
  });
  it('names the field, the unknown name and the valid ones', () => {
    expect(message(() => checkScopeNames({ ...t, suites: { v: {} } }, suites, 'x.ts'))).toBe(
      'x.ts: gate.suites.v: no suite "v"; valid: s, u',
    );
    expect(message(() => checkScopeNames({ ...t, suites: { s: { exempt: ['c'] } } }, suites, 'x.ts'))).toBe(
      'x.ts: gate.suites.s.exempt: no arm "c" in suite s; valid: a, b',
    );
    expect(
      message(() =>
        checkScopeNames({ ...t, suites: { u: { arms: { a: { maxDrop: 1 } } } } }, suites, 'x.ts'),
      ),
    ).toBe('x.ts: gate.suites.u.arms.a: no arm "a" in suite u; valid: c');
    expect(message(() => checkScopeNames({ ...t, arms: { d: {} } }, suites, 'y.ts'))).toBe(
      'y.ts: gate.arms.d: no arm "d" in any suite; valid: a, b, c',
    );
  });
});

describe('readRunFiles and readCalls', () => {
  const rows = syntheticRows({ seed: 1, cases: 2, reps: 1, arms: ['a'] });
  it('reads the journal; config.json when present, null when not', () => {
    const dir = tempDir('files');
    writeRows(dir, rows);
    expect(readRunFiles(dir)).toEqual({ dir, config: null, rows });
    expect(readCalls(dir)).toEqual([]);
    writeFileSync(join(dir, 'config.json'), '{"runId":"r"}');
    expect(readRunFiles(dir, { requireConfig: true }).config).toEqual({ runId: 'r' });
  });
  it('refuses, naming the file: no journal, a row that is not a result row, no or bad config.json', () => {
    const dir = tempDir('files-bad');
    const err = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(InputError);
        return `${(e as InputError).code}: ${(e as Error).message}`;
      }
      return 'no error';
    };
    expect(err(() => readRunFiles(dir))).toBe(
      `no_journal: ${dir}/results.jsonl: not found (is ${dir} a run directory?)`,
    );
    for (const bad of [
      null,
      5,
      { ...rows[0], cell_id: 1 },
      { ...rows[0], suite: undefined },
      { ...rows[0], arm: null },
      { ...rows[0], case_id: 2 },
    ]) {
      writeFileSync(join(dir, 'results.jsonl'), `${JSON.stringify(rows[0])}\n${JSON.stringify(bad)}\n`);
      expect(
        err(() => readRunFiles(dir)),
        JSON.stringify(bad),
      ).toBe(`bad_journal: ${dir}/results.jsonl: row 2: not a result row (cell_id, suite, case_id, arm)`);
    }
    writeRows(dir, rows);
    expect(err(() => readRunFiles(dir, { requireConfig: true }))).toBe(
      `not_a_run: ${dir}/config.json: not found (is ${dir} a run directory written by handoff-eval run?)`,
    );
    writeFileSync(join(dir, 'config.json'), '{not json');
    expect(err(() => readRunFiles(dir))).toMatch(
      new RegExp(`^not_a_run: ${dir}/config\\.json: not valid JSON \\(.+\\)$`),
    );
    writeFileSync(join(dir, 'config.json'), '[1]');
    expect(err(() => readRunFiles(dir))).toBe(`not_a_run: ${dir}/config.json: (root): must be a JSON object`);
    writeFileSync(join(dir, 'calls.jsonl'), '{bad\n{}\n');
    expect(err(() => readCalls(dir))).toMatch(/^bad_journal: /);
    const sub = join(dir, 'sub');
    mkdirSync(sub);
    writeFileSync(join(sub, 'results.jsonl'), '');
    expect(readRunFiles(sub).rows).toEqual([]);
  });
});

describe('the mode of an arm', () => {
  const rows = syntheticRows({ seed: 4, cases: 2, reps: 1, arms: ['a'] });
  it('is the first row that names one, else recorded (null and absent name none)', () => {
    expect(armMode(rows)).toBe('recorded');
    expect(armMode([{ ...rows[0]!, source_mode: null } as unknown as ResultRow, rows[1]!])).toBe('recorded');
    expect(
      armMode([
        { ...rows[0]!, source_mode: null } as unknown as ResultRow,
        { ...rows[1]!, source_mode: 'live' },
      ]),
    ).toBe('live');
  });
  it('names each arm whose mode differs, by suite, at most six then the count', () => {
    const arms = ['a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8'];
    const base = syntheticRows({ seed: 4, cases: 2, reps: 1, arms, suite: 's' });
    const other = syntheticRows({ seed: 4, cases: 2, reps: 1, arms: ['a1'], suite: 't' });
    const baseline = createBaseline([...base, ...other]);
    const group = (suite: string, rs: ResultRow[], live: boolean) =>
      [...new Set(rs.map((r) => r.arm))].map((arm) => ({
        suite,
        arm,
        rows: rs.filter((r) => r.arm === arm).map((r) => (live ? { ...r, source_mode: 'live' as const } : r)),
      }));
    expect(modeMismatch([...group('s', base, true), ...group('t', other, false)], baseline)).toEqual([
      'mode: run live vs baseline recorded (s/a1, s/a2, s/a3, s/a4, s/a5, s/a6 … +2)',
    ]);
    expect(
      modeMismatch(
        [
          ...group(
            's',
            base.filter((r) => r.arm === 'a1'),
            false,
          ),
          ...group('t', other, true),
        ],
        baseline,
      ),
    ).toEqual(['mode: run live vs baseline recorded (t/a1)']);
    // An arm the baseline lacks is not compared.
    expect(modeMismatch(group('x', other, true), baseline)).toEqual([]);
  });
});

describe('the notes of a verdict', () => {
  const spec = { seed: 8, cases: 8, reps: 2, arms: ['inline', 'summary'], suite: 'ledgerline' };
  const rows = syntheticRows(spec);
  const baseline = createBaseline(rows);

  it('no rows: cannot evaluate, saying so', () => {
    expect(evaluateGate([], baseline, t)).toMatchObject({
      verdict: 'cannot evaluate',
      checks: [],
      mismatch: [],
      notes: ['the run has no result rows'],
      run: null,
    });
  });

  it('an arm with fewer cells than the baseline’s, an arm or suite it lacks, another harness version', () => {
    const fewer = rows.filter((r) => !(r.arm === 'summary' && r.case_id === 'case-00'));
    const extraArm = syntheticRows({ ...spec, arms: ['brick'], seed: 8 });
    const extraSuite = syntheticRows({ ...spec, suite: 'other' });
    const r = evaluateGate([...fewer, ...extraArm, ...extraSuite], baseline, t);
    expect(r.mismatch).toEqual([]);
    expect(r.notes).toEqual(
      expect.arrayContaining([
        'ledgerline/summary: 14 cells vs 16 in the baseline',
        'ledgerline/brick is not in the baseline: absolute checks only',
        'suite other is not in the baseline: absolute checks only',
      ]),
    );
    expect(r.notes.filter((n) => n.includes('other/'))).toEqual([]);
    expect(r.notes.filter((n) => n.startsWith('ledgerline/inline'))).toEqual([]);
    const newer = rows.map((x) => ({ ...x, harness_version: '9.9.9' }));
    expect(evaluateGate(newer, baseline, t).notes).toContain(
      `harness version 9.9.9 vs the baseline's ${baseline.identity.harnessVersion}`,
    );
    expect(evaluateGate(rows, baseline, t).notes.some((n) => n.startsWith('harness version'))).toBe(false);
  });

  it('two suites with the same arm names: only the live one is named', () => {
    const other = syntheticRows({ ...spec, suite: 'other' });
    const b = createBaseline([...rows, ...other]);
    const r = evaluateGate([...rows, ...other.map((x) => ({ ...x, source_mode: 'live' as const }))], b, t);
    expect(r.verdict).toBe('cannot evaluate');
    expect(r.mismatch).toEqual(['mode: run live vs baseline recorded (other/inline, other/summary)']);
  });

  it('a drop check over exactly minCells pairs evaluates; one fewer cannot', () => {
    const drop = (minCells: number) =>
      evaluateGate(rows, baseline, { ...t, minCells }).checks.find(
        (c) => c.kind === 'drop' && c.arm === 'summary',
      )!;
    expect(drop(16).reason).not.toMatch(/paired cells < minCells/);
    expect(drop(17)).toMatchObject({ verdict: 'cannot evaluate', reason: '16 paired cells < minCells 17' });
  });
});

describe('checkSameExperiment: how a differing value is shown', () => {
  const cfg = { seed: 1, sim: { a: 1 } };
  const shard = (
    dir: string,
    config: Record<string, unknown>,
    s: { index: number; count: number } | null,
  ) => ({
    dir,
    config,
    shard: s,
  });
  it('scalars as they are, an absent field as absent, objects as canonical JSON cut at 80 characters', () => {
    const long = { z: 'x'.repeat(100), a: 1 };
    const m = message(() =>
      checkSameExperiment([
        shard('one', { ...cfg, judge: null }, { index: 1, count: 2 }),
        shard('two', { ...cfg, seed: '1', sim: long, budgetTokens: 5, judge: false }, { index: 2, count: 2 }),
      ]),
    );
    const text = `{"a":1,"z":"${'x'.repeat(100)}"}`.slice(0, 79);
    expect(m).toBe(
      `merge: two is not the same experiment as one: seed (1 vs 1), judge (null vs false), budgetTokens (absent vs 5), sim ({"a":1} vs ${text}…)`,
    );
  });
  it('the same values in another key order, or an exactly 80-character object, are not cut or refused', () => {
    const eighty = { k: 'y'.repeat(72) };
    expect(JSON.stringify(eighty)).toHaveLength(80);
    expect(() =>
      checkSameExperiment([
        shard('one', { ...cfg, sim: { b: [1, { c: 2, d: 3 }], a: 1 } }, null),
        shard('two', { ...cfg, sim: { a: 1, b: [1, { d: 3, c: 2 }] } }, null),
      ]),
    ).not.toThrow();
    expect(
      message(() =>
        checkSameExperiment([shard('one', { ...cfg, sim: eighty }, null), shard('two', cfg, null)]),
      ),
    ).toBe(`merge: two is not the same experiment as one: sim (${JSON.stringify(eighty)} vs {"a":1})`);
    // An array differs from an object with the same entries.
    expect(
      message(() =>
        checkSameExperiment([
          shard('one', { ...cfg, sim: ['a'] }, null),
          shard('two', { ...cfg, sim: { 0: 'a' } }, null),
        ]),
      ),
    ).toBe('merge: two is not the same experiment as one: sim (["a"] vs {"0":"a"})');
  });
});
