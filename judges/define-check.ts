import type { Case, CheckResult, Handoff } from '../harness/core/index.ts';
import type { TextIndex } from '../harness/core/text/cues.ts';

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
  applies?(ctx: CheckContext): boolean;
  run(ctx: CheckContext): CheckVerdict;
}

/** Typed identity helper, as `defineStrategy` and `defineCriterion` are. */
export function defineCheck<const C extends Check>(check: C): C {
  return check;
}
