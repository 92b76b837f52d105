import { describe, expect, it } from 'vitest';
import { loadSuite } from '../../cases/load.ts';
import { getStrategy } from '../../strategies/index.ts';
import { resolveParams } from '../../strategies/define.ts';
import { criteria } from '../../judges/criteria/index.ts';
import { casesDir, isReal, shippedSuites, suite } from './helpers.ts';
import { join } from 'node:path';

describe('shipped suites', () => {
  it('all five load and validate', async () => {
    const ids = (await shippedSuites()).map((s) => s.id).sort();
    expect(ids).toEqual(['esc-owned-parity', 'ledgerline', 'milk', 'multi-child', 'spawn-context']);
  });

  it.each([
    ['ledgerline', 30],
    ['milk', 12],
    ['esc-owned-parity', 8],
    ['spawn-context', 8],
    ['multi-child', 6],
  ])('%s has its generated cases (%i) and at least one real-session case', async (id, generated) => {
    const s = await suite(id);
    expect(s.cases.filter((c) => !isReal(c))).toHaveLength(generated);
    expect(s.cases.filter(isReal).length).toBeGreaterThanOrEqual(1);
  });

  it('every arm names a registered strategy with valid params, and every criterion is in the library', async () => {
    for (const s of await shippedSuites()) {
      expect(s.arms.map((a) => a.name)).toContain(s.baselineArm);
      for (const a of s.arms) {
        expect(() => resolveParams(getStrategy(a.strategy), a.params)).not.toThrow();
        expect(['small', 'large']).toContain(a.models.source);
        expect(['small', 'large']).toContain(a.models.receiver);
      }
      for (const c of s.criteria) expect(Object.keys(criteria)).toContain(c);
    }
  });

  it('case ids are unique within a suite and every case carries the suite direction', async () => {
    for (const s of await shippedSuites()) {
      const ids = s.cases.map((c) => c.id);
      expect(new Set(ids).size).toBe(ids.length);
      for (const c of s.cases) expect(c.direction).toBe(s.direction);
    }
  });

  it('the suites the seeds name carry their arms', async () => {
    expect((await suite('ledgerline')).arms.map((a) => a.strategy)).toEqual([
      'inline',
      'full-transcript',
      'final-message',
      'summary',
      'structured-contract',
    ]);
    const milk = await suite('milk');
    expect(milk.arms.find((a) => a.name === 'milk-esc-brick')).toMatchObject({
      strategy: 'brick-only',
      params: { markers: false, framing: 'handoff' },
      models: { receiver: 'large' },
    });
    expect(milk.arms.find((a) => a.name === 'milk-auto')).toMatchObject({
      strategy: 'inline',
      models: { source: 'small', receiver: 'small' },
    });
    expect((await suite('spawn-context')).arms.find((a) => a.name === 'spawn-recent')?.params).toEqual({
      n: 2,
    });
    expect((await suite('multi-child')).arms.map((a) => a.strategy)).toEqual([
      'full-transcript',
      'final-message',
      'structured-contract',
    ]);
  });

  it('loading a suite twice gives the same cases (generators are pure)', async () => {
    const a = await loadSuite(join(casesDir, 'spawn-context'));
    const b = await loadSuite(join(casesDir, 'spawn-context'));
    expect(JSON.stringify(b.cases)).toBe(JSON.stringify(a.cases));
  });
});
