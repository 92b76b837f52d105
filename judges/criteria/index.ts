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

export function getCriterion(id: string): Criterion | undefined {
  return Object.hasOwn(criteria, id) ? (criteria as Record<string, Criterion>)[id] : undefined;
}
