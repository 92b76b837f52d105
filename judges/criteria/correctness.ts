import { defineCriterion } from './define.ts';

export const correctness = defineCriterion({
  id: 'correctness',
  title: 'Correctness',
  question:
    'Does the answer state the facts of the reference, and nothing the reference contradicts or leaves unverified as if it were established?',
  anchors: {
    1: 'Misses most reference facts, or states something the reference contradicts.',
    3: 'States about half of the reference facts, or all of them but presents one unverified claim as established.',
    5: 'States every reference fact; nothing contradicts the reference; no unverified claim is presented as established.',
  },
  reference: ['facts', 'caveats'],
  needs: ['facts'],
  source: 'ledgerline: "eval score on 30 escalation cases"',
});
