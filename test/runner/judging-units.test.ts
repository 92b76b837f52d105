import { describe, expect, it } from 'vitest';
import type { Case, Criterion, Suite } from '../../harness/core/index.ts';
import { applyJudging, checksOf } from '../../harness/runner/judging.ts';
import { builtinChecks } from '../../judges/checks.ts';
import type { Check } from '../../judges/define-check.ts';
import type { ResolvedConfig } from '../../harness/config/types.ts';

// The config's criteria and checks applied to the loaded suites, in process: the CLI tests reach these
// only in a second process, where a broken check goes unseen by the mutation runner.

type Judging = Pick<ResolvedConfig, 'suites' | 'criteria' | 'checks' | 'configFile'>;

const caseOf = (id: string, criteria?: string[]): Case =>
  ({ id, file: `/cases/s/${id}.json`, ...(criteria ? { criteria } : {}) }) as unknown as Case;
const suite = (id: string, extra: Partial<Suite> = {}): Suite => ({
  id,
  title: id,
  description: '',
  direction: 'return',
  criteria: ['correctness', 'restraint'],
  arms: [],
  baselineArm: 'a',
  cases: [caseOf(`${id}-1`), caseOf(`${id}-2`, ['correctness'])],
  dir: `/cases/${id}`,
  ...extra,
});
const criterion = (id: string): Criterion =>
  ({
    id,
    title: id,
    question: 'q?',
    anchors: { 1: 'a', 3: 'b', 5: 'c' },
    reference: [],
  }) as unknown as Criterion;
const check = (name: string): Check =>
  ({ name, description: name, run: () => ({ pass: true }) }) as unknown as Check;
const config = (extra: Partial<Judging> = {}): Judging => ({
  suites: 'all',
  criteria: {},
  checks: [],
  configFile: '/work/eval.config.ts',
  ...extra,
});

describe('applyJudging', () => {
  it('with every suite selected, the suites come back as they are', () => {
    const suites = [suite('s')];
    expect(applyJudging(suites, config())).toBe(suites);
  });

  it("a selection's criteria replace the suite's and every case's; the primary stays when still named", () => {
    const [s] = applyJudging(
      [suite('s', { primaryCriterion: 'restraint' })],
      config({ suites: [{ id: 's', criteria: ['restraint', 'provenance'] }] }),
    );
    expect(s!.criteria).toEqual(['restraint', 'provenance']);
    expect(s!.primaryCriterion).toBe('restraint');
    expect(s!.cases.map((c) => c.criteria)).toEqual([
      ['restraint', 'provenance'],
      ['restraint', 'provenance'],
    ]);
  });

  it('a primary criterion no longer named gives way to the first one', () => {
    const [s] = applyJudging(
      [suite('s', { primaryCriterion: 'correctness' })],
      config({ suites: [{ id: 's', criteria: ['provenance', 'restraint'] }] }),
    );
    expect(s!.primaryCriterion).toBe('provenance');
    const [bare] = applyJudging([suite('s')], config({ suites: [{ id: 's', criteria: ['ownership'] }] }));
    expect(bare!.primaryCriterion).toBe('ownership');
  });

  it('a suite the selection does not name, or names without criteria, is unchanged', () => {
    const kept = suite('t');
    const named = suite('s');
    const out = applyJudging([named, kept], config({ suites: [{ id: 's', checks: ['markers_present'] }] }));
    expect(out[0]).toBe(named);
    expect(out[1]).toBe(kept);
  });

  it("the config's own criteria count as known", () => {
    const [s] = applyJudging(
      [suite('s', { criteria: ['names_merchants'] })],
      config({
        criteria: { names_merchants: criterion('names_merchants') },
        suites: [{ id: 's', criteria: ['names_merchants', 'correctness'] }],
      }),
    );
    expect(s!.criteria).toEqual(['names_merchants', 'correctness']);
  });

  it('refuses an unknown criterion in a suite.json, naming the file, the field and the valid ids', () => {
    expect(() => applyJudging([suite('s', { criteria: ['correctness', 'vibes'] })], config())).toThrow(
      /^\/cases\/s\/suite\.json: criteria\[1\]: unknown criterion "vibes"; valid: correctness, restraint, .* \(or one of the config's criteria\)$/,
    );
    expect(() => applyJudging([suite('s', { criteria: ['vibes'], dir: undefined })], config())).toThrow(
      /^suite s: criteria\[0\]: unknown criterion "vibes"/,
    );
  });

  it('refuses an unknown criterion in a case, naming its file, its id and the index', () => {
    const s = suite('s', { cases: [caseOf('c1'), caseOf('c2', ['correctness', 'restraint', 'vibes'])] });
    expect(() => applyJudging([s], config())).toThrow(
      /^\/cases\/s\/c2\.json \(case c2\): criteria\[2\]: unknown criterion "vibes"/,
    );
    const fileless = { ...s, cases: [{ ...s.cases[1]!, file: undefined }] } as Suite;
    expect(() => applyJudging([fileless], config())).toThrow(/^\/cases\/s \(case c2\): criteria\[2\]/);
    expect(() => applyJudging([{ ...fileless, dir: undefined }], config())).toThrow(
      /^suite s \(case c2\): criteria\[2\]/,
    );
  });

  it("refuses a selection's unknown criterion or check, and an empty criteria list", () => {
    expect(() => applyJudging([suite('s')], config({ suites: [{ id: 's', criteria: ['vibes'] }] }))).toThrow(
      /^suites s: criteria: unknown criterion "vibes"; valid: correctness, /,
    );
    expect(() =>
      applyJudging([suite('s')], config({ suites: [{ id: 's', checks: ['no_such_check'] }] })),
    ).toThrow(/^suites s: checks: unknown check "no_such_check"; valid: no_recap_signature, /);
    expect(() => applyJudging([suite('s')], config({ suites: [{ id: 's', criteria: [] }] }))).toThrow(
      '/work/eval.config.ts: suites s: criteria: must name at least one criterion',
    );
    expect(() =>
      applyJudging([suite('s')], config({ configFile: null, suites: [{ id: 's', criteria: [] }] })),
    ).toThrow('config: suites s: criteria: must name at least one criterion');
  });

  it("a config's own check may be selected; one named like a built-in is refused", () => {
    const mine = check('mentions_pin');
    expect(() =>
      applyJudging([suite('s')], config({ checks: [mine], suites: [{ id: 's', checks: ['mentions_pin'] }] })),
    ).not.toThrow();
    expect(() => applyJudging([suite('s')], config({ checks: [check('markers_present')] }))).toThrow(
      /check "markers_present" is a built-in check/,
    );
  });
});

describe('checksOf', () => {
  it("every built-in check then the config's own, for a suite with no selection", () => {
    const mine = check('mentions_pin');
    expect(checksOf(config(), 's')).toEqual(builtinChecks);
    expect(checksOf(config({ checks: [mine] }), 's')).toEqual([...builtinChecks, mine]);
  });

  it("a suite's selection keeps only the checks it names, in the registry's order", () => {
    const c = config({
      suites: [{ id: 's', checks: ['tool_pairing_intact', 'markers_present'] }, { id: 't' }],
    });
    expect(checksOf(c, 's').map((x) => x.name)).toEqual(['markers_present', 'tool_pairing_intact']);
    expect(checksOf(c, 't')).toEqual(builtinChecks);
    expect(checksOf(c, 'absent')).toEqual(builtinChecks);
  });

  it('answers each suite once per config (the same list object), and apart per suite and per config', () => {
    const c = config({ suites: [{ id: 's', checks: ['markers_present'] }] });
    expect(checksOf(c, 's')).toBe(checksOf(c, 's'));
    expect(checksOf(c, 't')).not.toBe(checksOf(c, 's'));
    expect(checksOf(config(), 's')).toEqual(builtinChecks);
  });
});
