import { defineCriterion } from './define.ts';

export const caveatCarrying = defineCriterion({
  id: 'caveat_carrying',
  title: 'Caveat carrying',
  question:
    'Does every claim the source agent flagged as unverified, assumed or open still carry that flag in the answer?',
  anchors: {
    1: 'Flagged claims are stated as established fact, or the caveats are gone.',
    3: 'Some caveats carried; others dropped or turned into fact.',
    5: 'Every flagged claim keeps its hedge, assumption or open question, recognisably.',
  },
  reference: ['caveats'],
  needs: ['caveats'],
  source: 'ledgerline: "nineteen if the config table is authoritative, and I could not check that"',
});
