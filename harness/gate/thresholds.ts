import type { GateThresholds } from '../config/types.ts';
import { ConfigError } from '../errors.ts';

export type ResolvedGateThresholds = Required<GateThresholds>;

const fields = ['minMean', 'maxDrop', 'maxTokenGrowthPct', 'maxErrorRate', 'minCells'] as const;

/**
 * The config's `gate` (already merged over the defaults by resolveConfig), checked value by value:
 * a threshold the gate cannot read is a config error, not a silent pass.
 */
export function resolveGateThresholds(gate: GateThresholds, file: string | null): ResolvedGateThresholds {
  const where = file ?? 'config';
  const fail = (field: string, detail: string, got: unknown): never => {
    throw new ConfigError(where, `gate.${field}`, `${detail} (got ${JSON.stringify(got)})`);
  };
  for (const key of Object.keys(gate))
    if (!(fields as readonly string[]).includes(key))
      fail(key, `unknown field; valid: ${fields.join(', ')}`, key);
  const minMean = gate.minMean ?? {};
  if (typeof minMean !== 'object' || minMean === null || Array.isArray(minMean))
    fail('minMean', 'must be an object {criterion: minimum}', minMean);
  for (const [criterion, min] of Object.entries(minMean)) {
    if (typeof min !== 'number' || !Number.isFinite(min) || min < 1 || min > 5)
      fail(`minMean.${criterion}`, 'must be a number from 1 to 5', min);
  }
  const number = (
    field: 'maxDrop' | 'maxTokenGrowthPct' | 'maxErrorRate',
    lo: number,
    hi: number,
  ): number => {
    const v = gate[field];
    if (typeof v !== 'number' || !Number.isFinite(v) || v < lo || v > hi)
      fail(field, `must be a number from ${lo} to ${hi}`, v);
    return v as number;
  };
  const minCells = gate.minCells;
  if (typeof minCells !== 'number' || !Number.isInteger(minCells) || minCells < 1)
    fail('minCells', 'must be a positive integer', minCells);
  return {
    minMean,
    maxDrop: number('maxDrop', 0, 4),
    maxTokenGrowthPct: number('maxTokenGrowthPct', -100, 1_000_000),
    maxErrorRate: number('maxErrorRate', 0, 1),
    minCells: minCells as number,
  };
}
