import { describe, expect, it } from 'vitest';
import type { ResultRow } from '../../harness/core/index.ts';
import { createBaseline } from '../../harness/gate/index.ts';
import { summarize } from '../../reports/summarize.ts';
import { syntheticRows } from '../reports/synthetic.ts';

/**
 * A baseline arm field by field (issue 32: the gate's survivors included what a baseline keeps): the
 * counts and rounded rates, the models and mode, a criterion with no scored cell left out, an unscored
 * cell counted, a cell journalled twice counted once, and the refusal of an empty run.
 */
const rows = syntheticRows({
  seed: 4,
  cases: 7,
  reps: 1,
  arms: ['inline', 'summary'],
  suite: 'ledgerline',
  criteria: ['correctness', 'caveats'],
  continuous: true,
});
/** inline: one of seven cells failed, one unscored on caveats; summary: never scored on caveats, live. */
const edited: ResultRow[] = rows.map((r) => {
  if (r.arm === 'inline' && r.case_id === 'case-00')
    return { ...r, status: 'error', error: 'boom', error_code: 'internal', scores: {} };
  if (r.arm === 'inline' && r.case_id === 'case-01') return { ...r, scores: { ...r.scores, caveats: null } };
  if (r.arm === 'summary')
    return {
      ...r,
      source_mode: 'live',
      judge_model: `sim:judge-${r.case_id}`,
      scores: { correctness: r.scores.correctness! },
    };
  return r;
});

describe('createBaseline', () => {
  const b = createBaseline(edited);
  const arm = (name: string) => b.suites[0]!.arms.find((a) => a.arm === name)!;

  it('the suite and identity as the summary has them', () => {
    const s = summarize(edited);
    expect(b.identity).toEqual({
      runId: s.runId,
      seed: 4,
      harnessVersion: 'test',
      simulated: true,
      models: s.models,
      suites: [{ suite: 'ledgerline', arms: ['inline', 'summary'] }],
    });
    expect(b.suites[0]).toMatchObject({
      suite: 'ledgerline',
      baselineArm: 'inline',
      cases: 7,
      reps: 1,
      criteria: s.suites[0]!.criteria,
    });
  });

  it('counts, the error rate to four places, the ok cells’ mean tokens, the recorded mode left out', () => {
    const a = arm('inline');
    expect(a).toMatchObject({ arm: 'inline', strategy: 'inline', params: {}, cells: 7, ok: 6, errors: 1 });
    expect(a.errorRate).toBe(0.1429);
    const ok = edited.filter((r) => r.arm === 'inline' && r.status === 'ok');
    const mean = ok.reduce((t, r) => t + r.handoff_tokens, 0) / ok.length;
    expect(a.tokens.handoff).toBe(Math.round(mean * 1e4) / 1e4);
    expect('mode' in a).toBe(false);
    expect(a.models).toEqual({
      source: ['sim:sim-large'],
      receiver: ['sim:sim-large'],
      judge: ['sim:sim-judge'],
    });
  });

  it('per criterion: the scored cells (an unscored one kept as null), n and unscored; none scored, left out', () => {
    const c = arm('inline').scores.caveats!;
    expect(c.cells.map((x) => [x.case_id, x.value === null])).toEqual([
      ['case-01', true],
      ...['case-02', 'case-03', 'case-04', 'case-05', 'case-06'].map((id) => [id, false]),
    ]);
    expect(c).toMatchObject({ n: 5, unscored: 1 });
    const corr = arm('inline').scores.correctness!;
    expect(corr.n).toBe(6);
    // Mean and interval to four places (an interval inside the 1–5 scale: not clipped to whole numbers).
    expect(corr.ci![0]).toBeGreaterThan(1);
    expect(corr.ci![1]).toBeLessThan(5);
    for (const x of [corr.mean!, ...corr.ci!]) {
      expect(x).toBe(Math.round(x * 1e4) / 1e4);
      expect(Number.isInteger(x * 100)).toBe(false);
    }
    expect(Object.keys(arm('summary').scores)).toEqual(['correctness']);
  });

  it('a live arm keeps its mode; its models are each model once, sorted', () => {
    expect(arm('summary').mode).toBe('live');
    expect(arm('summary').models!.judge).toEqual([0, 1, 2, 3, 4, 5, 6].map((i) => `sim:judge-case-0${i}`));
  });

  it('a cell journalled twice counts once (the later row)', () => {
    const later = (r: ResultRow): ResultRow => ({ ...r, scores: { correctness: 5, caveats: 5 } });
    const failedAgain = { ...later(edited[0]!), status: 'ok' as const, error: null, error_code: null };
    const scoredAgain = later(edited.find((r) => r.arm === 'inline' && r.case_id === 'case-02')!);
    const again = createBaseline([...edited, failedAgain, scoredAgain]);
    const a = again.suites[0]!.arms.find((x) => x.arm === 'inline')!;
    expect(a).toMatchObject({ cells: 7, ok: 7, errors: 0, errorRate: 0 });
    const cells = a.scores.correctness!.cells;
    expect(cells.map((x) => x.case_id)).toEqual([0, 1, 2, 3, 4, 5, 6].map((i) => `case-0${i}`));
    expect(cells.filter((x) => x.value === 5).map((x) => x.case_id)).toEqual(['case-00', 'case-02']);
  });

  it('refuses a run with no rows', () => {
    expect(() => createBaseline([])).toThrow('the run has no result rows: nothing to make a baseline from');
  });
});
