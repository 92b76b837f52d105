import type { Check } from '../harness/core/index.ts';

export type { Check, CheckContext, CheckVerdict } from '../harness/core/index.ts';

/** Typed identity helper, as `defineStrategy` and `defineCriterion` are. */
export function defineCheck<const C extends Check>(check: C): C {
  return check;
}
