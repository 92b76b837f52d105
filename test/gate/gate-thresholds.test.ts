import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkGateSuiteIds, resolveGateThresholds } from '../../harness/config/gate-thresholds.ts';
import type { GateThresholds } from '../../harness/config/types.ts';

/**
 * A `gate` block the gate cannot read is a config error naming the file, the field, the rule and the
 * value — each rule at its bounds, in every scope (top level, `suites.<id>`, `suites.<id>.arms`, `arms`).
 */
const base = { minMean: {}, maxDrop: 0.5, maxTokenGrowthPct: 25, maxErrorRate: 0.05, minCells: 6 };
const resolve = (over: Record<string, unknown>) =>
  resolveGateThresholds({ ...base, ...over } as unknown as GateThresholds, 'eval.config.ts');
const error = (over: Record<string, unknown>) => {
  try {
    resolve(over);
  } catch (err) {
    return (err as Error).message;
  }
  return 'accepted';
};

describe('gate thresholds', () => {
  it.each([
    [{ minMean: { correctness: 1 } }],
    [{ minMean: { correctness: 5 } }],
    [{ maxDrop: 0 }],
    [{ maxDrop: 4 }],
    [{ maxTokenGrowthPct: -100 }],
    [{ maxTokenGrowthPct: 1_000_000 }],
    [{ maxErrorRate: 0 }],
    [{ maxErrorRate: 1 }],
    [{ minCells: 1 }],
    [{ suites: { s: { minMean: { correctness: null }, exempt: ['a'], arms: { a: { maxDrop: 1 } } } } }],
    [{ arms: { a: { minMean: { caveats: null }, minCells: 2 } } }],
  ])('accepts %j', (over) => {
    expect(error(over)).toBe('accepted');
  });

  it.each([
    [{ minMean: { correctness: 0.99 } }, 'gate.minMean.correctness: must be a number from 1 to 5 (got 0.99)'],
    [{ minMean: { correctness: 5.01 } }, 'gate.minMean.correctness: must be a number from 1 to 5 (got 5.01)'],
    [{ minMean: { correctness: '4' } }, 'gate.minMean.correctness: must be a number from 1 to 5 (got "4")'],
    [
      { minMean: { correctness: Infinity } },
      'gate.minMean.correctness: must be a number from 1 to 5 (got null)',
    ],
    [{ minMean: { correctness: null } }, 'gate.minMean.correctness: must be a number from 1 to 5 (got null)'],
    [{ minMean: [4] }, 'gate.minMean: must be an object {criterion: minimum} (got [4])'],
    [{ maxDrop: 4.01 }, 'gate.maxDrop: must be a number from 0 to 4 (got 4.01)'],
    [{ maxDrop: -0.01 }, 'gate.maxDrop: must be a number from 0 to 4 (got -0.01)'],
    [{ maxDrop: NaN }, 'gate.maxDrop: must be a number from 0 to 4 (got null)'],
    [{ maxTokenGrowthPct: -101 }, 'gate.maxTokenGrowthPct: must be a number from -100 to 1000000 (got -101)'],
    [{ maxErrorRate: 1.01 }, 'gate.maxErrorRate: must be a number from 0 to 1 (got 1.01)'],
    [{ maxErrorRate: '5%' }, 'gate.maxErrorRate: must be a number from 0 to 1 (got "5%")'],
    [{ minCells: 0 }, 'gate.minCells: must be a positive integer (got 0)'],
    [{ minCells: 1.5 }, 'gate.minCells: must be a positive integer (got 1.5)'],
    [{ minCells: '6' }, 'gate.minCells: must be a positive integer (got "6")'],
    [{ maxDrop: undefined }, 'gate.maxDrop: missing (got undefined)'],
    [
      { maxDrops: 1 },
      'gate.maxDrops: unknown field; valid: minMean, maxDrop, maxTokenGrowthPct, maxErrorRate, minCells, suites, arms (got "maxDrops")',
    ],
    [{ suites: [] }, 'gate.suites: must be an object {suite id: thresholds} (got [])'],
    [{ suites: { s: 3 } }, 'gate.suites.s: must be an object of thresholds (got 3)'],
    [{ suites: { s: { exempt: 'a' } } }, 'gate.suites.s.exempt: must be an array of arm names (got "a")'],
    [
      { suites: { s: { exempt: ['a', 2] } } },
      'gate.suites.s.exempt: must be an array of arm names (got ["a",2])',
    ],
    [
      { suites: { s: { minMean: { c: 0 } } } },
      'gate.suites.s.minMean.c: must be a number from 1 to 5 or null (got 0)',
    ],
    [
      { suites: { s: { cells: 1 } } },
      'gate.suites.s.cells: unknown field; valid: minMean, maxDrop, maxTokenGrowthPct, maxErrorRate, minCells, exempt, arms (got "cells")',
    ],
    [
      { suites: { s: { arms: { a: { maxDrop: 5 } } } } },
      'gate.suites.s.arms.a.maxDrop: must be a number from 0 to 4 (got 5)',
    ],
    [{ arms: 'a' }, 'gate.arms: must be an object {arm name: thresholds} (got "a")'],
    [{ arms: { a: null } }, 'gate.arms.a: must be an object of thresholds (got null)'],
    [
      { arms: { a: { exempt: [] } } },
      'gate.arms.a.exempt: unknown field; valid: minMean, maxDrop, maxTokenGrowthPct, maxErrorRate, minCells (got "exempt")',
    ],
  ])('rejects %j: %s', (over, message) => {
    expect(error(over)).toBe(`eval.config.ts: ${message}`);
  });

  it('resolves the limits, an absent minMean as {}, and keeps the scopes it checked', () => {
    const t = resolve({ minMean: undefined, suites: { s: { maxDrop: 1 } }, arms: { a: { minCells: 2 } } });
    expect(t).toEqual({ ...base, minMean: {}, suites: { s: { maxDrop: 1 } }, arms: { a: { minCells: 2 } } });
    expect(() => resolveGateThresholds({ ...base, maxDrop: 9 } as GateThresholds, null)).toThrow(
      /^config: gate\.maxDrop/,
    );
  });
});

describe('checkGateSuiteIds: gate.suites.<id> names a suite under casesDir', () => {
  const casesDir = mkdtempSync(join(tmpdir(), 'he-gate-ids-'));
  afterAll(() => rmSync(casesDir, { recursive: true, force: true }));
  for (const id of ['milk', 'ledgerline']) {
    mkdirSync(join(casesDir, id));
    writeFileSync(join(casesDir, id, 'suite.json'), '{}');
  }
  mkdirSync(join(casesDir, 'notes')); // no suite.json: not a suite
  const check = (suites: Record<string, object>, dir = casesDir) =>
    checkGateSuiteIds({ casesDir: dir, gate: { ...base, suites } as never }, 'eval.config.ts');

  it('accepts the suites there; names the field, the folder and the valid ids (sorted) otherwise', () => {
    expect(() => check({ milk: {}, ledgerline: { maxDrop: 1 } })).not.toThrow();
    expect(() => check({ notes: {} })).toThrow(
      `eval.config.ts: gate.suites.notes: no suite "notes" under ${casesDir}; valid: ledgerline, milk`,
    );
  });

  it('checks nothing when casesDir is missing, a file, or holds no suite', () => {
    expect(() => check({ any: {} }, join(casesDir, 'absent'))).not.toThrow();
    expect(() => check({ any: {} }, join(casesDir, 'milk', 'suite.json'))).not.toThrow();
    expect(() => check({ any: {} }, join(casesDir, 'notes'))).not.toThrow();
  });
});
