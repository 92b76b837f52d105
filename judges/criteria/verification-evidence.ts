import { defineCriterion } from './define.ts';

export const verificationEvidence = defineCriterion({
  id: 'verification_evidence',
  title: 'Verification evidence',
  question:
    'Does the answer cite the concrete evidence (test runs, query results, file reads) that shows its key claims hold?',
  anchors: {
    1: 'No evidence cited; "it works" without showing how that is known.',
    3: 'Some evidence cited, but key claims rest on none.',
    5: 'Every key claim is tied to the specific evidence that shows it (command and outcome, query and rows, file and line).',
  },
  reference: ['evidence'],
  needs: ['evidence'],
  source: 'adr-0093: milk-esc lost on verification evidence — "didn\'t explicitly verify"',
});
