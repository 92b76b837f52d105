import { describe, expect, it } from 'vitest';
import type { Assertion } from '../../harness/core/index.ts';
import { indexText } from '../../harness/core/text/cues.ts';
import { markOf, overstatedCount, survival, survivalRates } from '../../judges/survival.ts';

const hedged: Assertion = {
  id: 'h',
  kind: 'hedged',
  statement: 'I could not determine whether the sandbox adapter uses the same version pin',
  claim: 'the sandbox adapter uses the same version pin',
  cues: ['sandbox adapter', 'version pin'],
  qualifierCues: ['could not determine', 'unverified'],
};
const assumption: Assertion = {
  id: 'a',
  kind: 'assumption',
  statement: 'Assuming the api_version column is authoritative',
  claim: 'the api_version column is authoritative',
  cues: ['api_version column', 'authoritative'],
  qualifierCues: ['assuming', 'assumption'],
};
const confident: Assertion = {
  id: 'c',
  kind: 'confident',
  statement: '19 merchants pin 2023-10',
  claim: '19 merchants pin 2023-10',
  cues: ['19 merchants', '2023-10'],
};
const unresolved: Assertion = {
  id: 'u',
  kind: 'unresolved',
  statement: 'Open question: does the sandbox adapter pin a version?',
  claim: 'the sandbox adapter pins a version',
  cues: ['sandbox adapter', 'pin'],
  qualifierCues: ['open question', 'unresolved'],
};

const mark = (a: Assertion, text: string) => markOf(a, indexText(text));

describe('deterministic survival matcher', () => {
  it('kept: cues on one line with the qualifier on that line', () => {
    expect(mark(hedged, 'I could not determine whether the SANDBOX ADAPTER uses the same version pin.')).toBe(
      'kept',
    );
  });

  it('kept: qualifier on the line before', () => {
    expect(mark(hedged, 'Unverified:\nthe sandbox adapter uses the same version pin')).toBe('kept');
  });

  it('overstated: qualifier two lines before does not count', () => {
    expect(mark(hedged, 'Unverified:\n\nthe sandbox adapter uses the same version pin')).toBe('overstated');
  });

  it('overstated: the bare claim stated as fact', () => {
    expect(mark(assumption, 'The api_version column is authoritative, so 19 merchants break.')).toBe(
      'overstated',
    );
    expect(mark(unresolved, 'The sandbox adapter does pin 2023-10.')).toBe('overstated');
  });

  it('absent: cues split across lines, or missing', () => {
    expect(mark(hedged, 'the sandbox adapter\nuses the same version pin (could not determine)')).toBe(
      'absent',
    );
    expect(mark(hedged, 'nothing about it')).toBe('absent');
  });

  it('kept: a labelled caveat ("- ASSUMPTION: …")', () => {
    expect(mark(assumption, '- ASSUMPTION: the api_version column is authoritative')).toBe('kept');
  });

  it('one qualified occurrence is enough, even if the claim also appears bare elsewhere', () => {
    expect(
      mark(
        assumption,
        'the api_version column is authoritative\n…\nassuming the api_version column is authoritative',
      ),
    ).toBe('kept');
  });

  it('a confident claim is kept or absent, never overstated', () => {
    expect(mark(confident, '19 merchants pin 2023-10')).toBe('kept');
    expect(mark(confident, '19 merchants pin 2024-01')).toBe('absent');
  });
});

describe('survival at two stages', () => {
  const assertions = [confident, hedged, assumption, unresolved];
  const payload = [
    '19 merchants pin 2023-10',
    'I could not determine whether the sandbox adapter uses the same version pin',
    'Assuming the api_version column is authoritative',
  ].join('\n');
  const answer = ['19 merchants pin 2023-10.', 'The sandbox adapter uses the same version pin.'].join('\n');
  const results = survival(assertions, payload, answer);

  it('marks each assertion in the payload and in the answer', () => {
    expect(results.map((r) => [r.assertionId, r.payload, r.answer])).toEqual([
      ['c', 'kept', 'kept'],
      ['h', 'kept', 'overstated'],
      ['a', 'kept', 'absent'],
      ['u', 'overstated', 'overstated'],
    ]);
  });

  it('rates by kind at each stage (null for kinds the case lacks) and the overstated count', () => {
    expect(survivalRates(results, 'payload')).toEqual({
      confident: 1,
      hedged: 1,
      assumption: 1,
      unresolved: 0,
    });
    expect(survivalRates(results, 'answer')).toEqual({
      confident: 1,
      hedged: 0,
      assumption: 0,
      unresolved: 0,
    });
    expect(survivalRates(survival([confident], 'x', 'y'), 'answer')).toEqual({
      confident: 0,
      hedged: null,
      assumption: null,
      unresolved: null,
    });
    expect(overstatedCount(results)).toBe(2);
  });
});
