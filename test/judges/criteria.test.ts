import { describe, expect, it } from 'vitest';
import { criteria, criterionIds, getCriterion } from '../../judges/criteria/index.ts';
import { runCli } from '../support/cli.ts';

const required = [
  'correctness',
  'restraint',
  'verification_evidence',
  'proportional',
  'caveat_carrying',
  'provenance',
  'ownership',
];
const parts = [
  'facts',
  'caveats',
  'evidence',
  'provenance',
  'expectedWords',
  'orchestration',
  'sessionShape',
];

describe('criteria library', () => {
  it('has the seven criteria of the design, each keyed by its id with anchors for 1, 3 and 5', () => {
    expect(criterionIds).toEqual(required);
    for (const [key, c] of Object.entries(criteria)) {
      expect(c.id).toBe(key);
      for (const a of [1, 3, 5] as const)
        expect(c.anchors[a].length, `${key} anchor ${a}`).toBeGreaterThan(15);
      expect(new Set([c.anchors[1], c.anchors[3], c.anchors[5]]).size).toBe(3);
      expect(c.question.endsWith('?')).toBe(true);
      for (const p of c.reference) expect(parts).toContain(p);
    }
  });

  it('looks up by id, and not through the prototype', () => {
    expect(getCriterion('restraint')?.title).toBe('Restraint');
    expect(getCriterion('toString')).toBeUndefined();
  });

  it('`handoff-eval list criteria --json` prints every rubric', () => {
    const r = runCli(['list', 'criteria', '--json']);
    expect(r.code).toBe(0);
    const items = JSON.parse(r.stdout) as {
      id: string;
      anchors: Record<string, string>;
      reference: string[];
    }[];
    expect(items.map((i) => i.id)).toEqual(required);
    expect(items[0]!.anchors['5']).toBe(criteria.correctness.anchors[5]);
    expect(items.find((i) => i.id === 'ownership')!.reference).toEqual(['sessionShape']);
  });
});
