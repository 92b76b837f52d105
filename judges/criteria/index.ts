import type { Criterion } from './define.ts';
import { correctness } from './correctness.ts';
import { restraint } from './restraint.ts';
import { verificationEvidence } from './verification-evidence.ts';
import { proportional } from './proportional.ts';
import { caveatCarrying } from './caveat-carrying.ts';
import { provenance } from './provenance.ts';
import { ownership } from './ownership.ts';

export type { Criterion, ReferencePart } from './define.ts';
export { defineCriterion } from './define.ts';

/**
 * The criteria library: rubrics as data, one file per criterion (explicit registry, no import side
 * effects). `handoff-eval list criteria --json` prints this.
 */
export const criteria = {
  correctness,
  restraint,
  verification_evidence: verificationEvidence,
  proportional,
  caveat_carrying: caveatCarrying,
  provenance,
  ownership,
} satisfies Record<string, Criterion>;

export type CriterionId = keyof typeof criteria;

export const criterionIds = Object.keys(criteria) as CriterionId[];

/** Criteria the config adds (`criteria: [defineCriterion(...)]`), by id; they win over a built-in of the same id. */
export type CriterionRegistry = Readonly<Record<string, Criterion>>;

/** A criterion by id: the config's own first, then the library's (looked up per call, no merged copy). */
export function getCriterion(id: string, extra: CriterionRegistry = {}): Criterion | undefined {
  if (Object.hasOwn(extra, id)) return extra[id];
  return Object.hasOwn(criteria, id) ? (criteria as Record<string, Criterion>)[id] : undefined;
}

/** Every criterion id a case may name: the library's and the config's. */
export function allCriterionIds(extra: CriterionRegistry = {}): string[] {
  return [...new Set([...criterionIds, ...Object.keys(extra)])];
}
