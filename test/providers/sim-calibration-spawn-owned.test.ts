import { describe, expect, it } from 'vitest';
import type { ArmSummary, SuiteSummary } from '../../reports/summary/types.ts';
import { bothSizes, conditions, simSuite } from '../support/sim-conditions.ts';

/**
 * The README's two other "emerges" rows (issue 27 item 8, docs/decisions.md "Calibration"): the spawn
 * child acting on the parent's orchestration request, and the owned session's framing. Each ordering
 * is pinned under the four shared conditions; the figures beside it are seed 1, 3 reps.
 */
const armOf = (suite: SuiteSummary, n: string) => suite.arms.find((a) => a.arm === n)!;
const failed = (a: ArmSummary, check: string) => a.checks[check]!.failed;

function spawnOrderings(suite: SuiteSummary) {
  const second = (n: string) => failed(armOf(suite, n), 'no_second_assignment');
  return {
    allMoreThanRecent: second('spawn-all') > second('spawn-recent') && second('spawn-recent') > 0,
    isolatedAndSummaryNever: second('spawn-isolated') === 0 && second('spawn-summary') === 0,
  };
}

function ownedOrderings(suite: SuiteSummary) {
  const [pro, handoff, owner] = ['milk-pro', 'esc-handoff', 'esc-owner'].map((n) => armOf(suite, n));
  const mean = (a: ArmSummary) => a.scores.proportional!.mean!;
  return {
    ownerIsPro: Math.abs(mean(owner!) - mean(pro!)) <= 0.05,
    handoffBelowOwner: mean(handoff!) < mean(owner!),
    onlyHandoffRecaps:
      failed(owner!, 'no_recap_signature') === 0 && failed(handoff!, 'no_recap_signature') > 0,
  };
}

describe('sim calibration: spawn-context and esc-owned-parity under every condition', () => {
  it('a full copy acts on the orchestration request most, an isolated or summarised child never (11/27, 7/27, 0/27, 0/27 throughout)', async () => {
    const runs = { ...conditions, equalAct: bothSizes({ actOnReportedOrchestration: 0.45 }) };
    const got: Record<string, ReturnType<typeof spawnOrderings>> = {};
    for (const [name, sizes] of Object.entries(runs))
      got[name] = spawnOrderings(await simSuite('spawn-context', sizes));
    const holds = { allMoreThanRecent: true, isolatedAndSummaryNever: true };
    expect(got).toEqual({
      default: holds,
      neutral: holds,
      noContext: holds,
      combined: holds,
      equalAct: holds,
    });
  }, 300_000);

  it('the owner framing scores as the pro model and never recaps; hand-off framing recaps (13/27 throughout)', async () => {
    const got: Record<string, ReturnType<typeof ownedOrderings>> = {};
    for (const [name, sizes] of Object.entries(conditions))
      got[name] = ownedOrderings(await simSuite('esc-owned-parity', sizes));
    const holds = { ownerIsPro: true, handoffBelowOwner: true, onlyHandoffRecaps: true };
    expect(got).toEqual({ default: holds, neutral: holds, noContext: holds, combined: holds });
  }, 300_000);
});
