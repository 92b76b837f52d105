import { beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Suite } from '../../harness/core/index.ts';
import { loadSuites } from '../../cases/load.ts';
import { resolveConfig } from '../../harness/config/resolve-config.ts';
import { planCells } from '../../harness/runner/plan.ts';
import { liveSkipped } from '../../harness/live/plan-live.ts';
import { ConfigError } from '../../harness/core/errors.ts';
import { repoRoot } from '../support/cli.ts';

/** Which cells are live: --mode > an arm's mode > its suite selection's > the config's; budgets likewise. */
let ledgerline: Suite;
beforeAll(async () => {
  [ledgerline] = await loadSuites(join(repoRoot, 'cases'), [{ id: 'ledgerline' }]);
});

const armsLive = (suite: Suite, user: object, flags: object = {}) => {
  const cells = planCells([suite], resolveConfig({ reps: 1, ...user }, flags));
  return Object.fromEntries(
    suite.arms.map((a) => [
      a.name,
      cells.filter((c) => c.arm === a.name).map((c) => c.live?.budget ?? null)[0],
    ]),
  );
};

describe('live mode in the plan', () => {
  it('is off by default, and recorded cells are exactly as before', () => {
    const cells = planCells([ledgerline], resolveConfig({ reps: 1 }));
    expect(cells.some((c) => c.live)).toBe(false);
    expect(cells).toHaveLength(31 * ledgerline.arms.length);
  });

  it('follows the precedence: --mode, then the arm, then the suite selection, then the config', () => {
    const withArmMode = {
      ...ledgerline,
      arms: ledgerline.arms.map((a) => (a.name === 'summary' ? { ...a, mode: 'live' as const } : a)),
    };
    expect(armsLive(withArmMode, {})).toEqual({
      inline: null,
      'full-transcript': null,
      'final-message': null,
      summary: 12,
      'structured-contract': null,
    });
    expect(
      armsLive(withArmMode, { suites: [{ id: 'ledgerline', mode: 'live', sourceToolBudget: 5 }] }),
    ).toEqual({
      inline: 5,
      'full-transcript': 5,
      'final-message': 5,
      summary: 5,
      'structured-contract': 5,
    });
    expect(armsLive(withArmMode, { mode: 'live', sourceToolBudget: 7 })).toMatchObject({
      inline: 7,
      summary: 7,
    });
    // --mode recorded wins over the arm's own live mode.
    expect(armsLive(withArmMode, {}, { mode: 'recorded' })).toMatchObject({ summary: null });
    expect(armsLive(ledgerline, {}, { mode: 'live', sourceToolBudget: 3 })).toMatchObject({ inline: 3 });
  });

  it('plans a live arm only over cases with a world, and says which it left out', () => {
    const config = resolveConfig({ reps: 1 }, { mode: 'live' });
    const cells = planCells([ledgerline], config);
    expect(cells).toHaveLength(30 * ledgerline.arms.length);
    expect(cells.some((c) => c.caseId === 'real-teammates-alice-return')).toBe(false);
    expect(liveSkipped([ledgerline], config)).toEqual([
      'live mode: suite ledgerline: 1 case(s) without a world not run live (real-teammates-alice-return)',
    ]);
  });

  it('refuses a live suite without a single world, and bad values, naming the field', () => {
    const worldless = { ...ledgerline, cases: ledgerline.cases.filter((c) => !c.world) };
    expect(() => planCells([worldless], resolveConfig({}, { mode: 'live' }))).toThrow(ConfigError);
    expect(() => resolveConfig({ mode: 'replay' as never })).toThrow(
      /config: mode: must be 'recorded' or 'live' \(got "replay"\)/,
    );
    expect(() => resolveConfig({ sourceToolBudget: 0 })).toThrow(
      /sourceToolBudget: must be a positive integer/,
    );
    expect(() => resolveConfig({ suites: [{ id: 'x', mode: 'on' as never }] })).toThrow(/suites\[0\]\.mode/);
    expect(() => resolveConfig({}, { sourceToolBudget: -1 })).toThrow(
      /--source-tool-budget: must be a positive integer/,
    );
  });
});
