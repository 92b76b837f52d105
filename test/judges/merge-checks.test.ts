import { describe, expect, it } from 'vitest';
import { contradictionsCheck, notSearchedCheck } from '../../judges/checks.ts';
import {
  contradictionLines,
  notSearchedLines,
  contradictionNearChars,
} from '../../harness/providers/sim/merge-signals.ts';
import { defaultSimRates } from '../../harness/providers/sim/rates.ts';
import { indexText } from '../../harness/core/text/cues.ts';
import type { Assertion, Case } from '../../harness/core/index.ts';

const a1: Assertion = {
  id: 'live',
  kind: 'confident',
  statement: '17 merchants pin 2023-10 in the live table',
  claim: '17 merchants pin 2023-10 in the live table',
  cues: ['17 merchants', 'live table'],
};
const a2: Assertion = {
  id: 'snap',
  kind: 'confident',
  statement: '20 merchants pin 2023-10 in the snapshot',
  claim: '20 merchants pin 2023-10 in the snapshot',
  cues: ['20 merchants', 'snapshot'],
};
const c = {
  id: 'm',
  assertions: [a1, a2],
  reference: {
    facts: [],
    caveats: [],
    contradictions: [{ between: ['live', 'snap'] as [string, string], topic: 'live vs snapshot' }],
    notSearched: ['the infra repository'],
  },
} as unknown as Case;
const always = (..._k: string[]) => 0;
const never = (..._k: string[]) => 0.999;

describe('multi-child checks', () => {
  it('count a contradiction as surfaced only when both claims share a line with a word of contrast', () => {
    expect(
      contradictionsCheck(
        c,
        indexText('- 17 merchants pin it per the live table versus 20 merchants in the snapshot'),
      ).passed,
    ).toBe(true);
    expect(
      contradictionsCheck(
        c,
        indexText('- 17 merchants pin it per the live table.\n- 20 merchants per the snapshot.'),
      ).passed,
    ).toBe(false);
    expect(
      contradictionsCheck(c, indexText('17 merchants (live table) and 20 merchants (snapshot)')).passed,
    ).toBe(false);
  });

  it('count an unsearched place as named only when the answer says it was not searched', () => {
    expect(
      notSearchedCheck(c, indexText('Not searched by any of the children: the infra repository.')).passed,
    ).toBe(true);
    expect(notSearchedCheck(c, indexText('The infra repository holds the proxy rules.')).passed).toBe(false);
  });
});

describe('the sim on several children', () => {
  const rates = defaultSimRates.large;
  const near =
    '- VERIFIED: 17 merchants pin 2023-10 in the live table\n- VERIFIED: 20 merchants pin 2023-10 in the snapshot';
  const far = `17 merchants pin 2023-10 in the live table\n${'filler line of another transcript\n'.repeat(Math.ceil(contradictionNearChars / 30))}20 merchants pin 2023-10 in the snapshot`;

  it('surfaces a contradiction only when both claims are visible, more often when they sit close together', () => {
    expect(
      contradictionLines(
        c.reference,
        c.assertions,
        indexText('only 17 merchants pin 2023-10 in the live table'),
        rates,
        always,
      ),
    ).toEqual([]);
    const d = (...k: string[]) =>
      k[0] === 'contradiction' ? (rates.surfaceContradictionNear + rates.surfaceContradictionFar) / 2 : 0;
    expect(contradictionLines(c.reference, c.assertions, indexText(near), rates, d)).toHaveLength(1);
    expect(contradictionLines(c.reference, c.assertions, indexText(far), rates, d)).toHaveLength(0);
    const line = contradictionLines(c.reference, c.assertions, indexText(near), rates, always)[0]!;
    expect(contradictionsCheck(c, indexText(line)).passed).toBe(true);
  });

  it('names an unsearched place only when its context says nobody searched it', () => {
    expect(
      notSearchedLines(
        c.reference,
        indexText('- NOT SEARCHED: the infra repository; webhooks'),
        rates,
        always,
      ),
    ).toEqual(['- Not searched by any of the children: the infra repository.']);
    expect(
      notSearchedLines(c.reference, indexText('the infra repository was mentioned once'), rates, always),
    ).toEqual([]);
    expect(
      notSearchedLines(c.reference, indexText('- NOT SEARCHED: the infra repository'), rates, never),
    ).toEqual([]);
  });
});
