import { describe, expect, it } from 'vitest';
import type { ArmSummary, SuiteSummary } from '../../reports/summary/types.ts';
import { conditions, simSuite } from '../support/sim-conditions.ts';

/**
 * Which of ledgerline's orderings are set by a rate and which emerge from what the strategies render
 * (issue 14, issue 27 item 8, docs/decisions.md "Calibration"). The suite runs in-process (seed 1,
 * 3 reps) under four conditions (test/support/sim-conditions.ts): the default rates; the seed-derived,
 * fitted and chosen rates made neutral; the two context effects off; and both at once. An ordering the
 * README calls emergent must hold under all four; each one's expected status is pinned here and stated
 * in the docs. The orderings are read off the survival classifier's marks (issue 26).
 */
const caveatKinds = ['hedged', 'assumption', 'unresolved'] as const;

/** Answer survival of the caveats a location holds, pooled over the three caveat kinds. */
function caveatSurvival(a: ArmSummary, location: 'final_message' | 'mid_transcript' | 'tool_result_only') {
  let kept = 0;
  let total = 0;
  for (const k of caveatKinds) {
    const c = a.survivalByLocation.answer[k]?.[location];
    kept += c?.kept ?? 0;
    total += c?.total ?? 0;
  }
  return kept / total;
}

function orderings(suite: SuiteSummary) {
  const arm = (n: string) => suite.arms.find((a) => a.arm === n)!;
  const [inline, fm, ft, sc, sum] = [
    'inline',
    'final-message',
    'full-transcript',
    'structured-contract',
    'summary',
  ].map(arm);
  const diff = (a: ArmSummary, c: string) => a.scores[c]!.vsBaseline!.diff!;
  return {
    finalMessageLosesCaveats: fm!.scores.caveat_carrying!.vsBaseline!.verdict === 'worse',
    finalMessageKeepsItsEnd:
      Math.abs(caveatSurvival(fm!, 'final_message') - caveatSurvival(inline!, 'final_message')) < 0.1,
    transcriptIsInline: suite.criteria.every((c) => Math.abs(diff(ft!, c)) <= 0.05),
    transcriptIsExactlyInline: suite.criteria.every((c) => diff(ft!, c) === 0),
    contractKeepsMidCaveats:
      caveatSurvival(sc!, 'mid_transcript') >= caveatSurvival(inline!, 'mid_transcript'),
    contractNotWorseOnCaveats: sc!.scores.caveat_carrying!.vsBaseline!.verdict !== 'worse',
    summaryLosesHedges: inline!.survival.answer.hedged!.rate! - sum!.survival.answer.hedged!.rate! >= 0.3,
    overstatedSummaryTranscriptContract:
      sum!.overstated.runs > ft!.overstated.runs && ft!.overstated.runs > sc!.overstated.runs,
  };
}

describe('sim calibration: ledgerline under default, neutral, context-free and combined conditions', () => {
  it('records which orderings hold — the emergent ones under every condition, the set ones only with their rate', async () => {
    const got: Record<string, ReturnType<typeof orderings>> = {};
    for (const [name, sizes] of Object.entries(conditions))
      got[name] = orderings(await simSuite('ledgerline', sizes));
    expect(got).toEqual({
      default: {
        finalMessageLosesCaveats: true,
        finalMessageKeepsItsEnd: true,
        transcriptIsInline: true,
        transcriptIsExactlyInline: false,
        contractKeepsMidCaveats: true,
        contractNotWorseOnCaveats: true,
        summaryLosesHedges: true,
        overstatedSummaryTranscriptContract: true,
      },
      neutral: {
        finalMessageLosesCaveats: true,
        finalMessageKeepsItsEnd: true,
        transcriptIsInline: true,
        transcriptIsExactlyInline: false,
        contractKeepsMidCaveats: true,
        contractNotWorseOnCaveats: true,
        summaryLosesHedges: false,
        overstatedSummaryTranscriptContract: false,
      },
      noContext: {
        finalMessageLosesCaveats: true,
        finalMessageKeepsItsEnd: true,
        transcriptIsInline: true,
        transcriptIsExactlyInline: true,
        contractKeepsMidCaveats: true,
        contractNotWorseOnCaveats: true,
        summaryLosesHedges: true,
        // With the classifier deciding (issue 26) and no context effects, transcript, contract and inline
        // each overstate in 5/93 runs — the classifier's own misreads — so transcript > contract needs
        // the position effect and the fitted rates together (summary 14/93 still the most).
        overstatedSummaryTranscriptContract: false,
      },
      combined: {
        finalMessageLosesCaveats: true,
        finalMessageKeepsItsEnd: true,
        transcriptIsInline: true,
        transcriptIsExactlyInline: true,
        // Mid-transcript caveats reach the answer equally (97% vs 97%): nothing but position favoured
        // the contract's, ...
        contractKeepsMidCaveats: true,
        // ... and with a slot kept no more often than a prose qualifier the contract loses caveats that
        // inline keeps: caveat carrying −0.30 [−0.47, −0.14], worse (issue 27 item 8).
        contractNotWorseOnCaveats: false,
        summaryLosesHedges: false,
        overstatedSummaryTranscriptContract: false,
      },
    });
  }, 600_000); // four runs of the suite in-process: a minute or two on a busy machine
});
