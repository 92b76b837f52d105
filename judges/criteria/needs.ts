import type { Case } from '../../harness/core/index.ts';
import type { LabelNeed } from './define.ts';
import { getCriterion, type CriterionRegistry } from './index.ts';

/** What a case lacks for a need, as the reason a report shows. */
const lacks: Record<LabelNeed, (c: Case) => string | null> = {
  facts: (c) => (c.reference.facts.length ? null : 'the case lists no reference facts'),
  caveats: (c) => (c.reference.caveats.length ? null : 'the case labels no caveats to carry'),
  evidence: (c) => (c.reference.evidence?.length ? null : 'the case lists no tool evidence'),
  provenance: (c) =>
    c.assertions.some((a) => a.kind === 'confident' && a.provenance?.length)
      ? null
      : 'no labelled finding names where it was read',
  labels: (c) => (c.assertions.length ? null : 'the case has no labelled assertions'),
};

/**
 * Why a criterion cannot be scored on a case (the labels it needs are missing), or null. Such a
 * criterion is not sent to the judge: its score is null with this reason (issue 14: an unlabelled
 * case used to score 5.00 on every criterion for every arm).
 */
export function unscorableReason(criterion: string, c: Case, extra: CriterionRegistry = {}): string | null {
  for (const need of getCriterion(criterion, extra)?.needs ?? []) {
    const why = lacks[need](c);
    if (why) return `unscored: ${why}`;
  }
  return null;
}
