import { describe, expect, it } from 'vitest';
import type { ResolvedGateThresholds } from '../../harness/gate/index.ts';
import { limitsFor, scopeChecks } from '../../harness/gate/scopes.ts';
import type { Baseline } from '../../harness/gate/types.ts';

/**
 * Scoped gate thresholds in-process (issue 32 item 2): which limits one suite × arm is held to, layer
 * by layer, and what the scopes name that the run or the baseline lacks — each reason word for word.
 */
const global: ResolvedGateThresholds = {
  minMean: { correctness: 3, caveats: 2 },
  maxDrop: 0.25,
  maxTokenGrowthPct: 10,
  maxErrorRate: 0.02,
  minCells: 6,
};

describe('limitsFor: global < suites.<s> < arms.<a> < suites.<s>.arms.<a>', () => {
  it('with no scopes, the global limits and no exemption', () => {
    expect(limitsFor(global, 'ledgerline', 'inline')).toEqual({
      minMean: { correctness: 3, caveats: 2 },
      maxDrop: 0.25,
      maxTokenGrowthPct: 10,
      maxErrorRate: 0.02,
      minCells: 6,
      exempt: null,
    });
  });

  it('each field from the most specific layer that sets it; the others fall through', () => {
    const t: ResolvedGateThresholds = {
      ...global,
      suites: {
        ledgerline: {
          maxDrop: 0.5,
          minCells: 4,
          maxErrorRate: 0.1,
          arms: { inline: { maxTokenGrowthPct: 50, maxDrop: 0.75 } },
        },
      },
      arms: { inline: { maxDrop: 0.6, maxErrorRate: 0.2 }, summary: { minCells: 2 } },
    };
    expect(limitsFor(t, 'ledgerline', 'inline')).toMatchObject({
      maxDrop: 0.75,
      maxTokenGrowthPct: 50,
      maxErrorRate: 0.2,
      minCells: 4,
    });
    expect(limitsFor(t, 'ledgerline', 'summary')).toMatchObject({
      maxDrop: 0.5,
      maxTokenGrowthPct: 10,
      maxErrorRate: 0.1,
      minCells: 2,
    });
    expect(limitsFor(t, 'milk', 'inline')).toMatchObject({
      maxDrop: 0.6,
      maxTokenGrowthPct: 10,
      maxErrorRate: 0.2,
      minCells: 6,
    });
    expect(limitsFor(t, 'milk', 'contract')).toMatchObject({
      maxDrop: 0.25,
      maxErrorRate: 0.02,
      minCells: 6,
    });
  });

  it('minMean replaces criterion by criterion; null removes one; the config is not changed', () => {
    const t: ResolvedGateThresholds = {
      ...global,
      suites: { milk: { minMean: { caveats: null, relevance: 4 } } },
      arms: { inline: { minMean: { correctness: 3.5 } } },
    };
    expect(limitsFor(t, 'milk', 'inline').minMean).toEqual({ correctness: 3.5, relevance: 4 });
    expect(limitsFor(t, 'milk', 'summary').minMean).toEqual({ correctness: 3, relevance: 4 });
    expect(limitsFor(t, 'ledgerline', 'inline').minMean).toEqual({ correctness: 3.5, caveats: 2 });
    expect(t.minMean).toEqual({ correctness: 3, caveats: 2 });
  });

  it("an arm in its suite's exempt list has no minimum and names the field; its other limits still apply", () => {
    const t: ResolvedGateThresholds = {
      ...global,
      suites: { milk: { exempt: ['inline'], maxDrop: 1, arms: { inline: { minMean: { correctness: 4 } } } } },
    };
    expect(limitsFor(t, 'milk', 'inline')).toMatchObject({
      minMean: {},
      maxDrop: 1,
      exempt: 'gate.suites.milk.exempt',
    });
    expect(limitsFor(t, 'milk', 'summary')).toMatchObject({ minMean: global.minMean, exempt: null });
    expect(limitsFor(t, 'ledgerline', 'inline').exempt).toBeNull();
  });
});

describe('scopeChecks: what the scopes name, against the run and the baseline', () => {
  const run = [
    { suite: 'ledgerline', criteria: ['correctness'], arms: [{ arm: 'inline' }, { arm: 'summary' }] },
    { suite: 'milk', criteria: ['correctness', 'caveats'], arms: [{ arm: 'inline' }] },
  ];
  const baseline = {
    suites: [
      run[0],
      { suite: 'milk', criteria: ['correctness', 'caveats'], arms: [{ arm: 'inline' }, { arm: 'old' }] },
      { suite: 'spawn', criteria: ['correctness'], arms: [{ arm: 'spawn-all' }] },
      { suite: 'milk', criteria: ['correctness'], arms: [{ arm: 'contract' }] },
    ],
  } as unknown as Baseline;
  const reasons = (t: Partial<ResolvedGateThresholds>) => {
    const r = scopeChecks({ ...global, ...t }, run, baseline);
    for (const c of r.checks)
      expect(c).toMatchObject({
        suite: '–',
        arm: '–',
        kind: 'scope',
        criterion: null,
        verdict: 'cannot evaluate',
      });
    return { checks: r.checks.map((c) => c.reason), notes: r.notes };
  };

  it('scopes that name what the run has: nothing to say', () => {
    expect(
      reasons({
        suites: { milk: { exempt: ['inline'], arms: { inline: {} }, minMean: { caveats: 3 } } },
        arms: { summary: { minMean: { correctness: 3 } }, inline: { minMean: { caveats: 3 } } },
      }),
    ).toEqual({ checks: [], notes: [] });
  });

  it('a suite the run lacks: cannot evaluate when the baseline has it, a note when neither has it', () => {
    expect(reasons({ suites: { spawn: { maxDrop: 1 }, other: { maxDrop: 1 } } })).toEqual({
      checks: ['gate.suites.spawn: suite spawn is in the baseline but not in the run: cannot evaluate'],
      notes: ['gate.suites.other: suite other is in neither the run nor the baseline; not applied'],
    });
  });

  it("an arm of a suite the run has, named by exempt or by arms: the baseline's suite decides", () => {
    // The baseline's two milk entries are merged: old (the first) and contract (the second) both count.
    expect(reasons({ suites: { milk: { exempt: ['contract', 'old'], arms: { summary: {} } } } })).toEqual({
      checks: [
        'gate.suites.milk.exempt: arm contract of suite milk is in the baseline but not in the run: cannot evaluate',
        'gate.suites.milk.exempt: arm old of suite milk is in the baseline but not in the run: cannot evaluate',
      ],
      notes: [
        'gate.suites.milk.arms.summary: arm summary of suite milk is in neither the run nor the baseline; not applied',
      ],
    });
  });

  it('a criterion a suite does not score is a mistake; a removed minimum (null) is not checked', () => {
    expect(reasons({ suites: { ledgerline: { minMean: { caveats: 3, relevance: null } } } })).toEqual({
      checks: ['gate.suites.ledgerline.minMean.caveats: ledgerline does not score caveats'],
      notes: [],
    });
  });

  it('an arm scope: absent from every suite of the run, or a criterion no suite with the arm scores', () => {
    expect(
      reasons({
        arms: {
          'spawn-all': {},
          ghost: {},
          summary: { minMean: { caveats: 3, relevance: null } },
          inline: { minMean: { caveats: 3 } },
        },
      }),
    ).toEqual({
      checks: [
        'gate.arms.spawn-all: arm spawn-all is in the baseline but not in the run: cannot evaluate',
        'gate.arms.summary.minMean.caveats: no suite with arm summary scores caveats',
      ],
      notes: ['gate.arms.ghost: arm ghost is in neither the run nor the baseline; not applied'],
    });
  });
});
