import { defineCriterion } from './define.ts';

export const provenance = defineCriterion({
  id: 'provenance',
  title: 'Provenance',
  question:
    'Does the answer say where each finding was read from (file:line, table.column, URL), so a human can check one claim without re-running anything?',
  anchors: {
    1: 'No source for any finding.',
    3: 'Sources for some findings; others unsourced.',
    5: 'Every finding names where it was read from.',
  },
  reference: ['provenance'],
  needs: ['provenance'],
  source: 'ledgerline: provenance was added "after a merchant disputed one of the nineteen"',
});
