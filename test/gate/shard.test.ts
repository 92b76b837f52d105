import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { join } from 'node:path';
import { loadSuites } from '../../cases/load.ts';
import { resolveConfig } from '../../harness/config/resolve-config.ts';
import { planCells } from '../../harness/runner/plan.ts';
import { shardOf } from '../../harness/runner/shard.ts';
import { repoRoot } from '../support/cli.ts';

const casesDir = join(repoRoot, 'test/fixtures/gate/cases');

async function plan(shard?: string) {
  const config = resolveConfig({ casesDir, reps: 3, seed: 11 }, shard ? { shard } : {});
  return planCells(await loadSuites(config.casesDir, config.suites), config).map((c) => c.id);
}

describe('run --shard i/n', () => {
  it('splits the plan into disjoint shards whose union is every cell, for n = 1…5', async () => {
    const all = await plan();
    expect(all).toHaveLength((4 + 3) * 3 * 3);
    for (let n = 1; n <= 5; n++) {
      const shards = await Promise.all(Array.from({ length: n }, (_, i) => plan(`${i + 1}/${n}`)));
      const union = shards.flat();
      expect(new Set(union).size, `n=${n}: disjoint`).toBe(union.length);
      expect([...union].sort(), `n=${n}: union`).toEqual([...all].sort());
      // Plan order is kept inside a shard (the runner schedules in that order).
      for (const s of shards) expect(s).toEqual(all.filter((id) => s.includes(id)));
      if (n <= 3)
        for (const s of shards) expect(s.length, `n=${n}: no empty shard on 63 cells`).toBeGreaterThan(0);
    }
  });

  it('assigns a cell by its id alone: the seed, the other cells and the order do not move it', async () => {
    const config = resolveConfig({ casesDir, reps: 3, seed: 99 }, { shard: '2/3' });
    const other = planCells(await loadSuites(config.casesDir, config.suites), config).map((c) => c.id);
    expect(other).toEqual(await plan('2/3'));
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 60 }), fc.integer({ min: 1, max: 64 }), (id, n) => {
        const s = shardOf(id, n);
        return Number.isInteger(s) && s >= 1 && s <= n && shardOf(id, n) === s;
      }),
    );
  });

  it('rejects a malformed --shard', () => {
    for (const bad of ['0/3', '4/3', '1/0', '1', 'a/b', '1/3/2'])
      expect(() => resolveConfig({}, { shard: bad }), bad).toThrow(/--shard: must be i\/n/);
  });
});
