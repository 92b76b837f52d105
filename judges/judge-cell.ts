import type {
  Case,
  CellDetail,
  CheckResult,
  CriterionScore,
  Handoff,
  ResultRow,
  SurvivalResult,
} from '../harness/core/index.ts';
import { judgeCriteria, type JudgeCall } from './criterion-judge.ts';
import { overstatedCount, survivalByLocation, survivalRates } from './survival.ts';
import { decideSurvival } from './survival-decide.ts';
import { runChecks } from './checks.ts';
import type { Check } from './define-check.ts';
import type { CriterionRegistry } from './criteria/index.ts';
import { unscorableReason } from './criteria/needs.ts';

export interface JudgeCellOptions {
  /** Criterion-judge samples per cell, aggregated by median. @default 1 */
  samples: number;
  /** The judge role's provider (the survival classifier is the LLM for a real one, the sim's reader under sim). */
  provider?: string;
  /**
   * The survival classifier decides every labelled claim's marks: 'on' (and 'auto', its older name).
   * 'off' lets the cue matcher decide; rows then say survival_decided_by 'cues'. @default 'on'
   */
  classify?: 'auto' | 'on' | 'off';
  /** Criterion-judge temperature. @default 0 for one sample, 1 for several */
  temperature?: number;
  /** false: no LLM criterion judge (scores stay empty). @default true */
  criteria?: boolean;
  /** The config's own criteria, by id, beside the library's (a case names the ones it is judged on). @default {} */
  registry?: CriterionRegistry;
  /** The deterministic checks to run, in order. @default builtinChecks */
  checks?: readonly Check[];
}

export type JudgedFields = Pick<
  ResultRow,
  | 'scores'
  | 'unscored'
  | 'judge_errors'
  | 'survival'
  | 'survival_location'
  | 'overstated_count'
  | 'survival_agreement'
  | 'survival_decided_by'
  | 'survival_disagreement'
  | 'survival_unscored'
  | 'checks'
  | 'markers_count'
  | 'tool_calls_visible'
  | 'handoff_tokens'
  | 'handoff_chars'
>;

export interface JudgedCell {
  fields: JudgedFields;
  detail: Pick<CellDetail, 'judge' | 'survival' | 'survival_llm_errors' | 'survival_unquoted'>;
}

/** Every judge of one cell: criterion scores, survival at both stages, deterministic checks → row fields + detail. */
export async function judgeCell(
  c: Case,
  h: Handoff,
  answer: string,
  call: JudgeCall,
  opts: JudgeCellOptions,
): Promise<JudgedCell> {
  // criteria: false (config judge.criteria) skips the LLM criterion judge: no judge call for it at all.
  // A criterion whose labels the case lacks is not judged: it is null with the reason.
  const unscored = Object.fromEntries(
    c.criteria.flatMap((id) => {
      const why = unscorableReason(id, c, opts.registry);
      return why ? [[id, why] as const] : [];
    }),
  );
  const judged = c.criteria.filter((id) => !(id in unscored));
  const judge =
    opts.criteria === false || judged.length === 0
      ? { scores: [] }
      : await judgeCriteria(
          c,
          answer,
          judged,
          { samples: opts.samples, temperature: opts.temperature, registry: opts.registry },
          call,
        );
  const byId = new Map(judge.scores.map((s) => [s.criterion, s]));
  const scores: CriterionScore[] =
    opts.criteria === false ? [] : c.criteria.map((id) => byId.get(id) ?? unscoredScore(id, unscored[id]!));
  const decided = await decideSurvival(
    classifyWanted(opts) ? call : undefined,
    c.id,
    c.assertions,
    c.reference,
    { payload: h.payload, answer },
  );
  const checks: CheckResult[] = runChecks(c, h, answer, opts.checks);
  const det: SurvivalResult[] = decided.results;
  return {
    fields: {
      scores: scoresOf(scores),
      ...(Object.keys(unscored).length && opts.criteria !== false ? { unscored } : {}),
      judge_errors: judge.scores.filter((s) => s.score === null).length,
      survival: { payload: survivalRates(det, 'payload'), answer: survivalRates(det, 'answer') },
      survival_location: {
        payload: survivalByLocation(det, 'payload'),
        answer: survivalByLocation(det, 'answer'),
      },
      overstated_count: overstatedCount(det),
      survival_agreement: decided.agreement,
      survival_decided_by: decided.decidedBy,
      survival_disagreement: decided.disagreement,
      ...(decided.unscored.length ? { survival_unscored: decided.unscored } : {}),
      checks,
      markers_count: h.stats.markers.length,
      tool_calls_visible: h.stats.toolCallsVisible,
      handoff_tokens: h.stats.tokens,
      handoff_chars: h.stats.chars,
    },
    detail: {
      judge: scores,
      survival: det,
      ...(decided.errors.length ? { survival_llm_errors: decided.errors } : {}),
      ...(Object.keys(decided.unquoted).length ? { survival_unquoted: decided.unquoted } : {}),
    },
  };
}

/**
 * Issue 26: the classifier decides for every provider, the sim included (its reader answers purpose
 * 'classify'); only an explicit 'off' hands the decision to the cues.
 */
export function classifyWanted(opts: Pick<JudgeCellOptions, 'classify'>): boolean {
  return opts.classify !== 'off';
}

function unscoredScore(criterion: string, reason: string): CriterionScore {
  return { criterion, score: null, samples: [], rationale: reason, evidence: [], unscored: reason };
}

function scoresOf(scores: CriterionScore[]): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const s of scores) out[s.criterion] = s.score;
  return out;
}
