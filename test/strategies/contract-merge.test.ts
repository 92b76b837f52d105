import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mergeContracts } from '../../strategies/contract-merge.ts';
import { validateResearchResult, type ResearchResult } from '../../strategies/contract-schema.ts';
import { validRecord } from './contract-fixtures.ts';

const phrase = fc.constantFrom(
  '19 merchants pin 2023-10',
  '19 Merchants pin 2023-10.',
  'the fallback re-pins 2023-10',
  'EU adapter pins 2024-04',
  'sandbox pin unknown',
  'gateway logs',
  'flag service',
  'adapters/',
  'merchant_config',
);
const record: fc.Arbitrary<ResearchResult> = fc
  .record({
    findings: fc.array(
      fc.record({
        claim: phrase,
        provenance: fc.array(phrase, { maxLength: 3 }),
        confidence: fc.constantFrom('verified' as const, 'inferred' as const, 'reported' as const),
      }),
      { maxLength: 5 },
    ),
    assumptions: fc.array(phrase, { maxLength: 3 }),
    unresolved: fc.array(fc.record({ question: phrase, would_settle_it: phrase }), { maxLength: 3 }),
    coverage: fc.record(
      { searched: fc.array(phrase, { maxLength: 4 }), not_searched: fc.array(phrase, { maxLength: 4 }) },
      { requiredKeys: ['searched'] },
    ),
    effort: fc.record({ tool_calls: fc.nat(20), budget_exhausted: fc.boolean() }),
    transcript_ref: fc.option(fc.constantFrom('t:a', 't:b', 't:c'), { nil: undefined }),
  })
  .map((r) => JSON.parse(JSON.stringify(r)) as ResearchResult);

describe('mergeContracts (ledgerline: several children, merged mechanically)', () => {
  it('is order-independent', () => {
    fc.assert(
      fc.property(
        fc
          .array(record, { minLength: 1, maxLength: 5 })
          .chain((rs) =>
            fc.tuple(
              fc.constant(rs),
              fc.shuffledSubarray(rs, { minLength: rs.length, maxLength: rs.length }),
            ),
          ),
        ([a, b]) => {
          expect(mergeContracts(b)).toEqual(mergeContracts(a));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('de-duplicates findings on claim, unions unresolved, intersects not_searched, and stays a valid research_result', () => {
    fc.assert(
      fc.property(fc.array(record, { minLength: 1, maxLength: 5 }), (rs) => {
        const m = mergeContracts(rs);
        expect(validateResearchResult(m)).toEqual([]);
        const key = (s: unknown) =>
          String(s)
            .trim()
            .replace(/\s+/g, ' ')
            .replace(/[.;]+$/, '')
            .toLowerCase();
        expect(new Set(m.findings.map((f) => key(f.claim))).size).toBe(m.findings.length);
        expect(new Set(m.findings.map((f) => key(f.claim)))).toEqual(
          new Set(rs.flatMap((r) => r.findings.map((f) => key(f.claim)))),
        );
        expect(new Set(m.unresolved.map((u) => key(u.question)))).toEqual(
          new Set(rs.flatMap((r) => r.unresolved.map((u) => key(u.question)))),
        );
        const lists = rs.map((r) => r.coverage.not_searched).filter((l): l is string[] => Array.isArray(l));
        for (const item of m.coverage.not_searched ?? [])
          for (const l of lists) expect(l.map(key)).toContain(key(item));
        expect(m.effort.tool_calls).toBe(rs.reduce((n, r) => n + (r.effort.tool_calls ?? 0), 0));
        expect(m.sources).toBe(rs.length);
      }),
      { numRuns: 200 },
    );
  });

  it('a claim found by several keeps every provenance and its strongest confidence', () => {
    const a = validRecord();
    const b = validRecord();
    b.findings = [
      {
        claim: '19 Merchants pin API version 2023-10.',
        provenance: ['merchant_config.region'],
        confidence: 'reported',
      },
    ];
    a.findings[0]!.confidence = 'inferred';
    const m = mergeContracts([a, b]);
    const f = m.findings.find((x) => x.claim.toLowerCase().startsWith('19 merchants'))!;
    expect(f.provenance).toEqual(['merchant_config.api_version', 'merchant_config.region']);
    expect(f.confidence).toBe('inferred');
    expect(m.findings).toHaveLength(3);
  });

  it('what none of the children searched is the intersection', () => {
    const r = (not_searched: string[]): ResearchResult => ({
      ...validRecord(),
      coverage: { searched: [], not_searched },
    });
    expect(
      mergeContracts([
        r(['gateway logs', 'flag service', 'sandbox config']),
        r(['flag service', 'gateway logs']),
        r(['gateway logs', 'sandbox config', 'flag service']),
      ]).coverage.not_searched,
    ).toEqual(['flag service', 'gateway logs']);
  });

  it('a question asked in several spellings is kept in its smallest, whatever the order', () => {
    const asking = (...questions: unknown[]): ResearchResult => ({
      ...validRecord(),
      unresolved: questions.map((question) => ({ question, would_settle_it: 'the flag service' })),
    });
    const spellings = [
      'Which pin does the sandbox use',
      'which pin does the sandbox use',
      'Which  pin does the sandbox use.',
    ];
    for (const order of [spellings, [...spellings].reverse()])
      expect(mergeContracts(order.map((q) => asking(q))).unresolved.map((u) => u.question)).toEqual([
        'Which  pin does the sandbox use.',
      ]);
    // A number and a string that print alike: the same one wins in either order.
    const tie = (questions: unknown[]) =>
      mergeContracts(questions.map((q) => asking(q))).unresolved[0]!.question;
    expect(tie([42, '42'])).toBe(tie(['42', 42]));
  });

  it('the budget was exhausted when any child says so, and only then', () => {
    const spent = (budget_exhausted?: boolean): ResearchResult => ({
      ...validRecord(),
      effort: { tool_calls: 3, ...(budget_exhausted === undefined ? {} : { budget_exhausted }) },
    });
    expect(mergeContracts([spent(false), spent(true)]).effort.budget_exhausted).toBe(true);
    expect(mergeContracts([spent(false), spent(false)]).effort.budget_exhausted).toBe(false);
    expect(mergeContracts([spent(), spent(false)]).effort.budget_exhausted).toBe(false);
  });
});
