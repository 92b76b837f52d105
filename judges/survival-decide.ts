import type {
  Assertion,
  ModelRequestInput,
  ModelResponse,
  Reference,
  SurvivalMark,
  SurvivalResult,
  SurvivalStageName,
} from '../harness/core/index.ts';
import { survival } from './survival.ts';
import { classifyStage, type SurvivalStage } from './survival-llm.ts';

/**
 * Who decides a labelled claim's survival at the payload and in the answer (issue 26): the survival
 * classifier, for every labelled claim — the LLM for real judge providers, the sim's reader under
 * `sim`. The cue matcher (survival.ts) runs first and is recorded beside each decision as a first
 * opinion (`cues`), with the share of claims per stage on which the two differ. It never fills a gap:
 * a stage the classifier fails on after its retry is unscored (null marks, listed in `unscored`, the
 * error in `errors`), and its rates are left empty.
 *
 * `classify: false` (judge.classify 'off') is the one way to let the cues decide; every result then
 * says `decidedBy: 'cues'` and the reports say the figures are cue-based.
 */
export interface DecidedSurvival {
  results: SurvivalResult[];
  decidedBy: 'classifier' | 'cues';
  /** Per stage: share of claims whose cue mark differs from the classifier's (null: stage not classified). */
  disagreement: Partial<Record<SurvivalStageName, number | null>>;
  /** Pooled over both stages: share of marks on which the two agree (the row's survival_agreement). */
  agreement: number | null;
  unscored: SurvivalStageName[];
  errors: string[];
  /** Per stage, claims marked present whose quote is not in the text, read absent (only stages with any). */
  unquoted: Partial<Record<SurvivalStageName, string[]>>;
}

export type ClassifyCall = (r: ModelRequestInput) => Promise<ModelResponse>;

export async function decideSurvival(
  call: ClassifyCall | undefined,
  caseId: string,
  assertions: readonly Assertion[],
  reference: Reference,
  texts: Record<SurvivalStage, string>,
): Promise<DecidedSurvival> {
  const cues = survival(assertions, texts.payload, texts.answer);
  if (!call) {
    const results = cues.map((r) => ({ ...r, decidedBy: 'cues' as const }));
    return {
      results,
      decidedBy: 'cues',
      disagreement: {},
      agreement: null,
      unscored: [],
      errors: [],
      unquoted: {},
    };
  }
  const none = {
    results: [],
    decidedBy: 'classifier' as const,
    agreement: null,
    unscored: [],
    errors: [],
    unquoted: {},
  };
  if (assertions.length === 0) return { ...none, disagreement: { payload: null, answer: null } };
  const read = {
    payload: await classifyStage(call, caseId, assertions, reference, 'payload', texts.payload),
    answer: await classifyStage(call, caseId, assertions, reference, 'answer', texts.answer),
  };
  const results: SurvivalResult[] = cues.map((r) => ({
    ...r,
    payload: read.payload.marks?.get(r.assertionId) ?? null,
    answer: read.answer.marks?.get(r.assertionId) ?? null,
    decidedBy: 'classifier',
    cues: { payload: r.payload as SurvivalMark, answer: r.answer as SurvivalMark },
  }));
  const stages = ['payload', 'answer'] as const;
  const disagreement = Object.fromEntries(stages.map((s) => [s, disagreementAt(results, s)]));
  const compared = stages.filter((s) => read[s].marks).length * results.length;
  const differ = stages.reduce((n, s) => n + (disagreement[s] ?? 0) * results.length, 0);
  return {
    results,
    decidedBy: 'classifier',
    disagreement,
    agreement: compared ? 1 - differ / compared : null,
    unscored: stages.filter((s) => !read[s].marks),
    errors: stages.flatMap((s) => (read[s].error ? [read[s].error!] : [])),
    unquoted: Object.fromEntries(
      stages.filter((s) => read[s].unquoted?.length).map((s) => [s, read[s].unquoted!]),
    ),
  };
}

function disagreementAt(results: readonly SurvivalResult[], stage: SurvivalStage): number | null {
  if (results.length === 0 || results.some((r) => r[stage] === null)) return null;
  return results.filter((r) => r[stage] !== r.cues![stage]).length / results.length;
}
