/**
 * A criterion is data: the question the judge answers, anchors for 1, 3 and 5 (2 and 4 fall between),
 * and which parts of a case's reference guide it. `defineCriterion` is an identity helper so each file
 * is type-checked the way `defineStrategy` checks a strategy.
 */
export type ReferencePart =
  'facts' | 'caveats' | 'evidence' | 'provenance' | 'expectedWords' | 'orchestration' | 'sessionShape';

/**
 * facts / caveats / evidence: the reference lists some; provenance: some confident assertion names
 * where it was read; labels: the case labels any assertion at all (a case from `case from-session`
 * has none until someone reads the session).
 */
export type LabelNeed = 'facts' | 'caveats' | 'evidence' | 'provenance' | 'labels';

export interface Criterion {
  id: string;
  title: string;
  /** What the judge decides, in one question. */
  question: string;
  /** What a 1, a 3 and a 5 look like. */
  anchors: { 1: string; 3: string; 5: string };
  /** Parts of the case the judge is shown for this criterion (reference-guided judging). */
  reference: ReferencePart[];
  /**
   * Labels a case must have for a score to mean anything; without them the criterion is unscored
   * with the reason (null, counted and shown — never a vacuous 5). Omitted: scored on any case.
   */
  needs?: LabelNeed[];
  /** Where the criterion comes from (a seed passage), for reviewers reading a report. */
  source: string;
}

export function defineCriterion<const C extends Criterion>(c: C): C {
  return c;
}
