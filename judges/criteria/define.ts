import type { Criterion } from '../../harness/core/index.ts';

export type { Criterion, LabelNeed, ReferencePart } from '../../harness/core/index.ts';

/** Typed identity for a criterion (`criteria: [defineCriterion({...})]` in the config), as `defineStrategy` is for strategies. */
export function defineCriterion<const C extends Criterion>(c: C): C {
  return c;
}
