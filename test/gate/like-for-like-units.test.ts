import { describe, expect, it } from 'vitest';
import type { ResultRow } from '../../harness/core/index.ts';
import { armDifferences, armModels, configCheck } from '../../harness/gate/like-for-like.ts';
import type { BaselineArm } from '../../harness/gate/types.ts';

/**
 * What separates a run's arm from the baseline's arm of its name (issue 32 item 2): the strategy, a
 * param's value (in any key order), a param on one side only, the models per role — and the row that
 * lists the change, compared by name or (--like-for-like) not compared.
 */
const rowsWith = (models: Partial<Pick<ResultRow, 'source_model' | 'receiver_model' | 'judge_model'>>[]) =>
  models.map(
    (m) =>
      ({
        source_model: 'sim:large',
        receiver_model: 'sim:large',
        judge_model: 'sim:judge',
        ...m,
      }) as ResultRow,
  );
const baseArm = (over: Partial<BaselineArm> = {}): BaselineArm =>
  ({ arm: 'a', strategy: 'summary', params: {}, ...over }) as BaselineArm;

describe('armModels', () => {
  it('per role, each model once, sorted', () => {
    expect(
      armModels(rowsWith([{ receiver_model: 'x:b' }, { receiver_model: 'x:a' }, { receiver_model: 'x:b' }])),
    ).toEqual({ source: ['sim:large'], receiver: ['x:a', 'x:b'], judge: ['sim:judge'] });
    expect(armModels([])).toEqual({ source: [], receiver: [], judge: [] });
  });
});

describe('armDifferences', () => {
  const rows = rowsWith([{}]);

  it('the same strategy and params in another key order, nested too: nothing differs', () => {
    const ba = baseArm({ params: { cap: { tail: 2, head: 1 }, style: 'terse' } });
    expect(
      armDifferences(
        { strategy: 'summary', params: { style: 'terse', cap: { head: 1, tail: 2 } } },
        rows,
        ba,
      ),
    ).toEqual({
      differs: [],
      oneSided: [],
    });
  });

  it('a strategy, and param values both sides have: strings as they are, the rest as canonical JSON, keys sorted', () => {
    const ba = baseArm({ params: { z: 'terse', a: { y: 1, x: [1, 2] }, n: 3 } });
    const d = armDifferences(
      { strategy: 'brick', params: { n: 4, a: { x: [1], y: 1 }, z: 'long' } },
      rows,
      ba,
    );
    expect(d.differs).toEqual([
      'strategy summary → brick',
      'params.a {"x":[1,2],"y":1} → {"x":[1],"y":1}',
      'params.n 3 → 4',
      'params.z terse → long',
    ]);
    expect(d.oneSided).toEqual([]);
  });

  it('a param on one side only is listed with its value, not held against the run', () => {
    const ba = baseArm({ params: { old: 'x', both: 1 } });
    const d = armDifferences({ strategy: 'summary', params: { both: 1, added: { on: true } } }, rows, ba);
    expect(d).toEqual({
      differs: [],
      oneSided: ['params.added only in the run ({"on":true})', 'params.old only in the baseline ("x")'],
    });
  });

  it('models per role when the baseline records them, a dash for none; not compared when it does not', () => {
    const ba = baseArm({
      models: { source: [], receiver: ['sim:large'], judge: ['sim:judge', 'sim:other'] },
    });
    expect(armDifferences({ strategy: 'summary', params: {} }, rows, ba).differs).toEqual([
      'models.source – → sim:large',
      'models.judge sim:judge, sim:other → sim:judge',
    ]);
    expect(armDifferences({ strategy: 'summary', params: {} }, [], ba).differs).toEqual([
      'models.receiver sim:large → –',
      'models.judge sim:judge, sim:other → –',
    ]);
    expect(armDifferences({ strategy: 'summary', params: {} }, rows, baseArm()).differs).toEqual([]);
  });
});

describe('configCheck', () => {
  it('by name: a passing row that lists the change; --like-for-like: cannot evaluate', () => {
    const at = { suite: 's', arm: 'a' };
    const differs = ['strategy summary → brick', 'params.n 3 → 4'];
    const empty = { criterion: null, baseline: null, current: null, delta: null, ci: null, limit: null };
    expect(configCheck(at, differs)).toEqual({
      ...at,
      ...empty,
      kind: 'config',
      verdict: 'pass',
      reason: 'changed since the baseline, compared by name: strategy summary → brick; params.n 3 → 4',
    });
    expect(configCheck(at, differs, true)).toEqual({
      ...at,
      ...empty,
      kind: 'config',
      verdict: 'cannot evaluate',
      reason:
        'not like-for-like, not compared with the baseline (--like-for-like): strategy summary → brick; params.n 3 → 4',
    });
  });
});
