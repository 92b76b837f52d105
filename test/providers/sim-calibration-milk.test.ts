import { describe, expect, it } from 'vitest';
import type { ArmSummary, SuiteSummary } from '../../reports/summary/types.ts';
import { bothSizes, conditions, equalSizes, simSuite } from '../support/sim-conditions.ts';

/**
 * Which of milk's orderings (the README's "milk-esc lost to milk-auto" row) emerge from what the
 * escalation is shown and which rest on a rate (issue 27 item 8, docs/decisions.md "Calibration").
 * milk-auto is the small model continuing its session; the three escalations answer with the large
 * one. Besides the four shared conditions, two single-rate ones say which rate a set ordering rests
 * on: the small model given the large one's rates, and no verification claimed without evidence
 * (`overclaimWithoutEvidence` 0, the rate fitted towards this row in commit 5980ce7).
 */
function orderings(suite: SuiteSummary) {
  const arm = (n: string) => suite.arms.find((a) => a.arm === n)!;
  const [brick, parity, pro] = ['milk-esc-brick', 'milk-esc-parity', 'milk-pro'].map(arm) as ArmSummary[];
  const diff = (a: ArmSummary, c: string) => a.scores[c]!.vsBaseline!.diff!;
  const mean = (a: ArmSummary, c: string) => a.scores[c]!.mean!;
  const criteria = ['verification_evidence', 'restraint'];
  return {
    brickLosesVerification: brick!.scores.verification_evidence!.vsBaseline!.verdict === 'worse',
    brickLosesRestraint: diff(brick!, 'restraint') < 0,
    parityBeatsAuto: criteria.every((c) => diff(parity!, c) > 0),
    parityIsPro: criteria.every((c) => Math.abs(mean(parity!, c) - mean(pro!, c)) <= 0.1),
  };
}

describe('sim calibration: milk under default, neutral, context-free and combined conditions', () => {
  it('the brick loses verification evidence under every condition; its restraint loss and the parity arm’s lead rest on rates', async () => {
    const runs = {
      ...conditions,
      equalSizes: equalSizes(),
      noOverclaim: bothSizes({ overclaimWithoutEvidence: 0 }),
    };
    const got: Record<string, ReturnType<typeof orderings>> = {};
    for (const [name, sizes] of Object.entries(runs)) got[name] = orderings(await simSuite('milk', sizes));
    const emergent = { brickLosesVerification: true, parityIsPro: true };
    expect(got).toEqual({
      // verification −1.31 worse, restraint −0.56, parity +0.46 / +0.36 (seed 1, 3 reps)
      default: { ...emergent, brickLosesRestraint: true, parityBeatsAuto: true },
      // verification −2.28 worse, restraint +0.18, parity −0.08 / +0.05
      neutral: { ...emergent, brickLosesRestraint: false, parityBeatsAuto: false },
      // verification −2.03 worse, restraint −0.69, parity +0.79 / +0.21
      noContext: { ...emergent, brickLosesRestraint: true, parityBeatsAuto: true },
      // verification −3.21 worse, restraint +0.21, parity 0.00 / 0.00 (parity = pro = auto)
      combined: { ...emergent, brickLosesRestraint: false, parityBeatsAuto: false },
      // equal sizes alone: the brick's restraint loss grows (−0.95, worse); parity's lead is gone
      equalSizes: { ...emergent, brickLosesRestraint: true, parityBeatsAuto: false },
      // no overclaiming alone: the brick's restraint loss is gone (+0.23); parity still leads (+0.59 / +0.13)
      noOverclaim: { ...emergent, brickLosesRestraint: false, parityBeatsAuto: true },
    });
  }, 600_000); // six runs of the 12-case suite in-process
});
