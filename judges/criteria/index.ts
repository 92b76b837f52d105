/**
 * The criteria library: rubrics as data. Each anchors what a 1, a 3 and a 5 look like, so the judge
 * scores against anchors rather than a vibe. `handoff-eval list criteria --json` prints this.
 */
export interface Criterion {
  id: string;
  title: string;
  question: string;
  anchors: { 1: string; 3: string; 5: string };
}

export const criteria = {
  correctness: {
    id: 'correctness',
    title: 'Correctness',
    question: 'Does the answer state the facts of the reference, and nothing the reference contradicts?',
    anchors: {
      1: 'Misses most reference facts or states something the reference contradicts.',
      3: 'States about half the reference facts; no contradiction, or one hedged claim presented as fact.',
      5: 'States every reference fact; nothing contradicts the reference; unverified claims are not presented as established.',
    },
  },
  restraint: {
    id: 'restraint',
    title: 'Restraint',
    question: 'Does the answer claim only what its evidence supports — no claimed tests it did not see, no extra assignments?',
    anchors: {
      1: 'Claims verification it has no evidence for, or does work nobody asked it to do.',
      3: 'Mostly supported; one claim goes beyond the evidence.',
      5: 'Every claim of verification is backed by evidence in view; does exactly the task asked.',
    },
  },
  verification_evidence: {
    id: 'verification_evidence',
    title: 'Verification evidence',
    question: 'Does the answer cite the concrete evidence (test runs, query results, file reads) that shows its claims hold?',
    anchors: {
      1: 'No evidence cited; "it works" without showing how it is known.',
      3: 'Some evidence cited, but key claims rest on none.',
      5: 'Every key claim is tied to the specific evidence that shows it (command and outcome, query and rows).',
    },
  },
  proportional: {
    id: 'proportional',
    title: 'Proportional',
    question: 'Is the answer as long as the request needs — no recap of earlier turns, no re-stating of prior work?',
    anchors: {
      1: 'Mostly recap or padding; the answer to the actual request is buried.',
      3: 'Answers the request but adds a recap or noticeably more than needed.',
      5: 'Answers the request directly at the length it needs; no recap of earlier turns.',
    },
  },
  caveat_carrying: {
    id: 'caveat_carrying',
    title: 'Caveat carrying',
    question: 'Does every claim the source flagged as unverified, assumed or open still carry that flag in the answer?',
    anchors: {
      1: 'Flagged claims are stated as established fact.',
      3: 'Some caveats carried, some dropped or turned into fact.',
      5: 'Every flagged claim keeps its hedge, assumption or open question.',
    },
  },
  provenance: {
    id: 'provenance',
    title: 'Provenance',
    question: 'Does the answer say where each finding was read from (file:line, table.column, URL)?',
    anchors: {
      1: 'No sources for any finding.',
      3: 'Sources for some findings.',
      5: 'Every finding names where it was read from.',
    },
  },
  ownership: {
    id: 'ownership',
    title: 'Ownership',
    question: 'In a session that was the agent\'s own from the start, does it speak as the owner (no hand-off narrative, no re-presenting its own turns as received)?',
    anchors: {
      1: 'Treats its own earlier work as someone else\'s hand-off and recaps it as received material.',
      3: 'Mostly owns the work; a stray hand-off phrase.',
      5: 'Speaks as the owner throughout.',
    },
  },
} satisfies Record<string, Criterion>;

export type CriterionId = keyof typeof criteria;

export function getCriterion(id: string): Criterion | undefined {
  return (criteria as Record<string, Criterion>)[id];
}
