import { defineCriterion } from './define.ts';

export const proportional = defineCriterion({
  id: 'proportional',
  title: 'Proportional',
  question:
    'Is the answer as long as the request needs — answering it directly, with no recap of earlier turns and no re-stating of prior work as if it were new?',
  anchors: {
    1: 'Mostly recap or padding; the answer to the actual request is buried.',
    3: 'Answers the request but adds a recap (e.g. "What was implemented (matching the design)") or clearly more than needed.',
    5: 'Answers the request directly at the length it needs; no recap of earlier turns.',
  },
  reference: ['expectedWords'],
  source: 'adr-0093 addendum: proportional 4,4,5 vs 4,5,4; the score-2 recap signature',
});
