import { describe, expect, it } from 'vitest';
import type { ArmSummary, SuiteSummary } from '../../reports/summary/types.ts';
import { bothSizes, conditions, neutralRates, simSuite } from '../support/sim-conditions.ts';

/**
 * Which of multi-child's orderings (the README's "4 transcripts vs 4 merged contracts" row) emerge
 * and which rest on a rate (issue 27 item 8, docs/decisions.md "Calibration"). Besides the four shared
 * conditions, one single-rate condition: `surfaceContradictionNear` = `surfaceContradictionFar` (their
 * midpoint), the chosen pair the contradiction gap rests on.
 */
function orderings(suite: SuiteSummary) {
  const arm = (n: string) => suite.arms.find((a) => a.arm === n)!;
  const [cat, merged, finals] = ['transcripts-concatenated', 'contracts-merged', 'final-messages'].map(
    arm,
  ) as ArmSummary[];
  const surfaced = (a: ArmSummary) => {
    const c = a.checks.contradictions_surfaced!;
    return c.n - c.failed;
  };
  const diff = (a: ArmSummary) => a.scores.caveat_carrying!.vsBaseline!.diff!;
  return {
    mergedSurfacesMoreContradictions: surfaced(merged!) > surfaced(cat!),
    surfacedAsOftenInEveryArm:
      surfaced(cat!) === surfaced(merged!) && surfaced(merged!) === surfaced(finals!),
    mergedCarriesMoreCaveats: diff(merged!) > 0,
    finalMessagesCarryFewerCaveats: diff(finals!) < 0,
  };
}

describe('sim calibration: multi-child under default, neutral, context-free and combined conditions', () => {
  it('the contradiction gap is the chosen near/far rates; the merged record’s caveat lead needs the context effects or the rates', async () => {
    const near = neutralRates.surfaceContradictionNear!;
    const runs = {
      ...conditions,
      equalNearFar: bothSizes({ surfaceContradictionNear: near, surfaceContradictionFar: near }),
    };
    const got: Record<string, ReturnType<typeof orderings>> = {};
    for (const [name, sizes] of Object.entries(runs))
      got[name] = orderings(await simSuite('multi-child', sizes));
    const gap = { mergedSurfacesMoreContradictions: true, surfacedAsOftenInEveryArm: false };
    const noGap = { mergedSurfacesMoreContradictions: false, surfacedAsOftenInEveryArm: true };
    expect(got).toEqual({
      // surfaced 4/21 concatenated, 18/21 merged and final messages; caveat carrying +0.67 / −0.83
      default: { ...gap, mergedCarriesMoreCaveats: true, finalMessagesCarryFewerCaveats: true },
      // 7/21 in every arm; +0.39 / −0.44
      neutral: { ...noGap, mergedCarriesMoreCaveats: true, finalMessagesCarryFewerCaveats: true },
      // 4/21 vs 18/21 (the rates, not the context effects, decide surfacing); +0.11 / −2.00
      noContext: { ...gap, mergedCarriesMoreCaveats: true, finalMessagesCarryFewerCaveats: true },
      // 7/21 in every arm; −0.06 / −1.67
      combined: { ...noGap, mergedCarriesMoreCaveats: false, finalMessagesCarryFewerCaveats: true },
      // near = far = 0.575 alone: 7/21 in every arm; +0.72 / −0.67
      equalNearFar: { ...noGap, mergedCarriesMoreCaveats: true, finalMessagesCarryFewerCaveats: true },
    });
  }, 600_000); // five runs of the 6-case suite (~112k-token requests) in-process
});
