import type { Case } from './case.ts';
import type { CheckResult } from './result.ts';
import type { Handoff } from './handoff.ts';
import type { TextIndex } from '../text/cues.ts';

// The shapes of the judging extension points (judges/ holds the built-in ones and their helpers):
// the config names them, so they live here, below every layer that does.

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

/** An LLM-judged criterion: the question, anchors for 1/3/5, the reference parts shown and the labels it needs. */
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

/** What a deterministic check reads: the case, the handoff the receiver got, and its answer. */
export interface CheckContext {
  readonly case: Case;
  readonly handoff: Handoff;
  readonly answer: string;
  /** The answer lower-cased and split into lines, built once per cell for every check. */
  readonly answerIndex: TextIndex;
}

/** A check's finding; the row records it under the check's name. */
export interface CheckVerdict {
  passed: CheckResult['passed'];
  /** One line saying what was found. @default '' */
  detail?: string;
}

/**
 * A deterministic check: no model involved, so exact and free. `applies` says whether the check means
 * anything for this cell (a check that does not apply leaves no entry, as built-in ones do); `run`
 * returns pass or fail with a one-line detail. A check that throws turns the cell into an error row
 * naming it. Registered built-in ones are in judges/checks.ts; user ones come from the config's `checks`.
 */
export interface Check {
  name: string;
  /** One line for `list checks` and docs. */
  description?: string;
  /**
   * true when the check reads the answer by literal phrases (cue strings, phrase lists): a paraphrase
   * can pass or fail it whatever it means. Reports mark such results as cue-based; no check decides
   * survival (issue 26). @default false
   */
  cueBased?: boolean;
  applies?(ctx: CheckContext): boolean;
  run(ctx: CheckContext): CheckVerdict;
}
