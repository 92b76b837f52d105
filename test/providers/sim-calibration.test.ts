import { describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Summary, ArmSummary } from '../../reports/summary/types.ts';
import { defaultSimRates, type SimRates } from '../../harness/providers/sim/rates.ts';
import { repoRoot, runCli } from '../support/cli.ts';

/**
 * Which of ledgerline's orderings are set by a rate and which emerge from what the strategies render
 * (issue 14, docs/decisions.md "Calibration"). The suite runs three times through the real CLI: with
 * the default rates; with the seed-derived and seed-fitted rates replaced by neutral ones (no kind of
 * claim favoured by the summary, a labelled caveat no more salient than one in prose, a contract slot
 * kept as often as a prose qualifier); and with the two context effects switched off. Each ordering's
 * expected status under each condition is pinned here and stated in the docs.
 */
const large = defaultSimRates.large;
const neutral: Partial<SimRates> = {
  summaryKeep: { confident: 0.96, hedged: 0.96, assumption: 0.96, unresolved: 0.96 },
  answerKeepLabelledQualifier: large.answerKeepQualifier,
  contractSlotCaveat: large.answerKeepQualifier,
};
const noContext: Partial<SimRates> = {
  contextPosition: { ...large.contextPosition, strength: 0 },
  contextLength: { ...large.contextLength, strength: 0 },
};

function run(name: string, sim: Partial<SimRates> | undefined): Summary {
  const dir = mkdtempSync(join(tmpdir(), `he-calib-${name}-`));
  writeFileSync(
    join(dir, 'eval.config.ts'),
    `export default ${JSON.stringify({
      casesDir: join(repoRoot, 'cases'),
      suites: ['ledgerline'],
      reps: 3,
      seed: 1,
      cache: false,
      // The orderings are read off report.json's survival figures: the classifier's marks (issue 26), so
      // the default paraphrasing sim words every caveat its own way and the orderings must survive that.
      ...(sim ? { sim: { sizes: { large: sim } } } : {}),
    })};\n`,
  );
  const r = runCli(['run', '--out', join(dir, 'runs'), '--quiet'], { cwd: dir });
  expect(r.code, r.stderr).toBe(0);
  const runDir = join(dir, 'runs', readdirSync(join(dir, 'runs'))[0]!);
  return JSON.parse(readFileSync(join(runDir, 'report.json'), 'utf8')) as Summary;
}

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

function orderings(s: Summary) {
  const suite = s.suites.find((x) => x.suite === 'ledgerline')!;
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
    summaryLosesHedges: inline!.survival.answer.hedged!.rate! - sum!.survival.answer.hedged!.rate! >= 0.3,
    overstatedSummaryTranscriptContract:
      sum!.overstated.runs > ft!.overstated.runs && ft!.overstated.runs > sc!.overstated.runs,
  };
}

describe('sim calibration: ledgerline under default, neutral and context-free rates', () => {
  it('records which orderings hold — the emergent ones under every condition, the set ones only with their rate', () => {
    const got = {
      default: orderings(run('default', undefined)),
      neutral: orderings(run('neutral', neutral)),
      noContext: orderings(run('no-context', noContext)),
    };
    expect(got).toEqual({
      default: {
        finalMessageLosesCaveats: true,
        finalMessageKeepsItsEnd: true,
        transcriptIsInline: true,
        transcriptIsExactlyInline: false,
        contractKeepsMidCaveats: true,
        summaryLosesHedges: true,
        overstatedSummaryTranscriptContract: true,
      },
      neutral: {
        finalMessageLosesCaveats: true,
        finalMessageKeepsItsEnd: true,
        transcriptIsInline: true,
        transcriptIsExactlyInline: false,
        contractKeepsMidCaveats: true,
        summaryLosesHedges: false,
        overstatedSummaryTranscriptContract: false,
      },
      noContext: {
        finalMessageLosesCaveats: true,
        finalMessageKeepsItsEnd: true,
        transcriptIsInline: true,
        transcriptIsExactlyInline: true,
        contractKeepsMidCaveats: true,
        summaryLosesHedges: true,
        // With the classifier deciding (issue 26) and no context effects, transcript, contract and inline
        // each overstate in 5/93 runs — the classifier's own misreads — so transcript > contract needs
        // the position effect and the fitted rates together (summary 18/93 still the most).
        overstatedSummaryTranscriptContract: false,
      },
    });
  }, 600_000); // three CLI runs of the suite: minutes on a busy machine
});
