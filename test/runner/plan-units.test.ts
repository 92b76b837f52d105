import { beforeAll, describe, expect, it } from 'vitest';
import type { Suite } from '../../harness/core/index.ts';
import { resolveConfig } from '../../harness/config/resolve-config.ts';
import type { ResolvedConfig, UserConfig } from '../../harness/config/types.ts';
import { loadSuites } from '../../cases/load.ts';
import { planCells } from '../../harness/runner/plan.ts';
import { shardOf } from '../../harness/runner/shard.ts';
import { getStrategy } from '../../strategies/index.ts';
import { resolveParams } from '../../strategies/define.ts';

/**
 * planCells in-process on suites built in memory from the one-case fixture (issue 32 item 3): the
 * order of the cells, the arm filter, the refusals of an unknown arm, strategy or model alias (each
 * naming where), the params an arm without any gets, and a shard's cut.
 */
let mini: Suite;
beforeAll(async () => {
  [mini] = await loadSuites('test/fixtures/cases', 'all');
});
const cfg = (user: UserConfig = {}, flags = {}): ResolvedConfig =>
  resolveConfig({ casesDir: 'test/fixtures/cases', cache: false, ...user }, flags, 'eval.config.ts');

/** Two suites of two cases each, with the fixture's first two arms. */
function twoSuites(): Suite[] {
  const suite = (id: string): Suite => ({
    ...mini,
    id,
    arms: mini.arms.slice(0, 2),
    cases: [mini.cases[0]!, { ...mini.cases[0]!, id: `${mini.cases[0]!.id}-b` }],
  });
  return [suite('mini'), suite('other')];
}

describe('planCells', () => {
  it('suite × case × arm × rep, in that order, each cell carrying its suite’s settings', () => {
    const cells = planCells(twoSuites(), cfg({ reps: 2 }));
    const c = mini.cases[0]!.id;
    const ids = cells.map((x) => x.id);
    expect(ids.slice(0, 9)).toEqual([
      `mini/${c}/inline/0`,
      `mini/${c}/inline/1`,
      `mini/${c}/full-transcript/0`,
      `mini/${c}/full-transcript/1`,
      `mini/${c}-b/inline/0`,
      `mini/${c}-b/inline/1`,
      `mini/${c}-b/full-transcript/0`,
      `mini/${c}-b/full-transcript/1`,
      `other/${c}/inline/0`,
    ]);
    expect(cells).toHaveLength(16);
    const first = cells[1]!;
    expect(first).toMatchObject({
      suite: 'mini',
      caseId: c,
      arm: 'inline',
      rep: 1,
      baselineArm: 'inline',
      primaryCriterion: 'correctness',
    });
    expect(first.case).toBe(mini.cases[0]);
    expect(first.armSpec).toBe(mini.arms[0]);
    expect('live' in first).toBe(false);
  });

  it('an arm without params gets its strategy’s defaults, one object shared by its cells', () => {
    const cells = planCells(twoSuites(), cfg());
    const inline = cells.filter((x) => x.arm === 'inline' && x.suite === 'mini');
    expect(inline[0]!.params).toEqual(resolveParams(getStrategy('inline'), undefined, 'test'));
    expect(inline[1]!.params).toBe(inline[0]!.params);
  });

  it('the arms filter keeps the suite’s order, not the filter’s', () => {
    const cells = planCells(twoSuites(), cfg({ reps: 1, arms: ['full-transcript', 'inline'] }));
    expect(cells.slice(0, 2).map((x) => x.arm)).toEqual(['inline', 'full-transcript']);
    const one = planCells(twoSuites(), cfg({ reps: 1, arms: ['full-transcript'] }));
    expect(new Set(one.map((x) => x.arm))).toEqual(new Set(['full-transcript']));
    expect(one).toHaveLength(4);
  });

  it('an unknown arm, strategy or model alias is refused naming where and the valid names', () => {
    expect(() => planCells(twoSuites(), cfg({ arms: ['inline', 'nope'] }))).toThrow(
      'arms: unknown arm "nope"; valid: full-transcript, inline',
    );
    const badStrategy = twoSuites();
    badStrategy[1]!.arms = [{ ...badStrategy[1]!.arms[0]!, strategy: 'no-such' }];
    expect(() => planCells(badStrategy, cfg())).toThrow(
      /^suite other, arm inline: unknown strategy "no-such"; valid: /,
    );
    const badAlias = twoSuites();
    badAlias[0]!.arms = [{ ...badAlias[0]!.arms[0]!, models: { source: 'large', receiver: 'tiny' } }];
    expect(() => planCells(badAlias, cfg())).toThrow(
      'suite mini, arm inline, models.receiver: unknown model alias "tiny"; valid: small, large, judge',
    );
    const badSource = twoSuites();
    badSource[0]!.arms = [{ ...badSource[0]!.arms[0]!, models: { source: 'tiny', receiver: 'large' } }];
    expect(() => planCells(badSource, cfg())).toThrow(
      /^suite mini, arm inline, models\.source: unknown model alias "tiny"/,
    );
  });

  it('a shard keeps the cells whose id hashes to it; the shards partition the plan', () => {
    const all = planCells(twoSuites(), cfg({ reps: 3 }));
    const parts = [1, 2, 3].map((i) => planCells(twoSuites(), cfg({ reps: 3 }, { shard: `${i}/3` })));
    for (const [i, part] of parts.entries())
      expect(part.map((x) => x.id)).toEqual(all.filter((x) => shardOf(x.id, 3) === i + 1).map((x) => x.id));
    expect(parts.flat()).toHaveLength(all.length);
    expect(parts.every((p) => p.length > 0 && p.length < all.length)).toBe(true);
  });

  it('reps 0 plans nothing', () => {
    expect(planCells(twoSuites(), { ...cfg(), reps: 0 })).toEqual([]);
  });
});
