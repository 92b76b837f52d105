import type { Strategy } from '../core/index.ts';
import type { ArmInput } from './types.ts';
import { InputError } from '../core/errors.ts';

/** Param name → the values to sweep over (numbers, booleans or strings). */
export type SweepGrid = Record<string, readonly (number | boolean | string)[]>;

/** Options of sweep(): params every swept arm shares, the arms' models, and the name before the brackets. */
export interface SweepOptions {
  /** Params every swept arm shares; not part of the arm names. @default {} */
  base?: Record<string, unknown>;
  /** Model aliases of every swept arm. @default the suite's baseline arm's */
  models?: { source: string; receiver: string };
  /** The arm name before the brackets. @default the strategy's name */
  name?: string;
}

/**
 * An ablation grid as arms: one arm per combination of the grid's values, named deterministically
 * `<name>[k1=v1,k2=v2]` with the keys in the grid's order and the combinations in odometer order (the
 * last key varies fastest). `sweep('brick-only', { resultCap: [250, 500], markers: [false, true] })`
 * gives `brick-only[resultCap=250,markers=false]`, `brick-only[resultCap=250,markers=true]`, … .
 * Use the result in a suite selection's `extraArms` or `arms` (docs/config.md, "Sweeps"). Values are
 * checked against the strategy's param spec when the config resolves, naming the field; the shape of
 * the grid is checked here.
 */
export function sweep(
  strategy: string | Strategy<any>,
  grid: SweepGrid,
  opts: SweepOptions = {},
): ArmInput[] {
  const name = typeof strategy === 'string' ? strategy : strategy.name;
  const where = `sweep(${name})`;
  const keys = Object.keys(grid);
  if (keys.length === 0) throw new InputError('bad_sweep', `${where}: the grid names no param`);
  for (const key of keys) checkValues(where, key, grid[key]);
  let combos: Record<string, number | boolean | string>[] = [{}];
  for (const key of keys) combos = combos.flatMap((c) => grid[key]!.map((v) => ({ ...c, [key]: v })));
  return combos.map((params) => ({
    name: sweepArmName(opts.name ?? name, params),
    strategy: name,
    params: { ...opts.base, ...params },
    ...(opts.models ? { models: opts.models } : {}),
  }));
}

/** `<name>[k1=v1,k2=v2]`: how a swept arm is named (keys in the order given). */
export function sweepArmName(name: string, params: Record<string, number | boolean | string>): string {
  return `${name}[${Object.entries(params)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(',')}]`;
}

/** A swept arm's name read back: the base name and the swept values as written; null for any other arm. */
export function parseSweepArmName(arm: string): { base: string; values: Record<string, string> } | null {
  const m = /^(.+)\[([^[\]]+)\]$/.exec(arm);
  if (!m) return null;
  const values: Record<string, string> = {};
  for (const pair of m[2]!.split(',')) {
    const at = pair.indexOf('=');
    if (at <= 0) return null;
    values[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return { base: m[1]!, values };
}

function checkValues(where: string, key: string, values: unknown): void {
  if (!Array.isArray(values) || values.length === 0)
    throw new InputError('bad_sweep', `${where}: ${key}: needs an array of at least one value`);
  const seen = new Set<string>();
  for (const v of values) {
    if (!['number', 'boolean', 'string'].includes(typeof v))
      throw new InputError('bad_sweep', `${where}: ${key}: values must be numbers, booleans or strings`);
    const written = String(v);
    // Arm names must read back: no separator inside a value, no value twice.
    if (/[,=[\]]/.test(written) || written === '')
      throw new InputError('bad_sweep', `${where}: ${key}: value "${written}" is empty or holds , = [ or ]`);
    if (seen.has(written))
      throw new InputError('bad_sweep', `${where}: ${key}: value "${written}" given twice`);
    seen.add(written);
  }
}
