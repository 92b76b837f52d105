import type {
  GateLimits,
  GateSuiteScope,
  GateThresholds,
  ResolvedConfig,
  ResolvedGateThresholds,
} from './types.ts';
import { ConfigError } from '../core/errors.ts';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export type { ResolvedGateThresholds } from './types.ts';

const limitFields = ['minMean', 'maxDrop', 'maxTokenGrowthPct', 'maxErrorRate', 'minCells'] as const;
const topFields = [...limitFields, 'suites', 'arms'];
const suiteFields = [...limitFields, 'exempt', 'arms'];

type Fail = (field: string, detail: string, got: unknown) => never;
const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The config's `gate` (already merged over the defaults by resolveConfig), checked value by value —
 * the scopes (`suites`, `suites.<id>.arms`, `arms`) as well: a threshold the gate cannot read is a
 * config error naming its field, not a silent pass.
 */
export function resolveGateThresholds(gate: GateThresholds, file: string | null): ResolvedGateThresholds {
  const where = file ?? 'config';
  const fail: Fail = (field, detail, got) => {
    throw new ConfigError(where, `gate.${field}`, `${detail} (got ${JSON.stringify(got)})`);
  };
  checkKeys(gate, topFields, '', fail);
  const limits = checkLimits(gate, '', fail, false);
  const out: ResolvedGateThresholds = {
    minMean: (limits.minMean ?? {}) as Record<string, number>,
    maxDrop: required(limits.maxDrop, 'maxDrop', fail),
    maxTokenGrowthPct: required(limits.maxTokenGrowthPct, 'maxTokenGrowthPct', fail),
    maxErrorRate: required(limits.maxErrorRate, 'maxErrorRate', fail),
    minCells: required(limits.minCells, 'minCells', fail),
  };
  if (gate.suites !== undefined) out.suites = checkSuites(gate.suites, fail);
  if (gate.arms !== undefined) out.arms = checkArms(gate.arms, 'arms', fail);
  return out;
}

function required(v: number | undefined, field: string, fail: Fail): number {
  return v === undefined ? fail(field, 'missing', v) : v;
}

function checkKeys(value: object, valid: readonly string[], at: string, fail: Fail): void {
  for (const key of Object.keys(value))
    if (!valid.includes(key)) fail(`${at}${key}`, `unknown field; valid: ${valid.join(', ')}`, key);
}

/** The five thresholds of one scope; in a scope (not the top level) a criterion's minimum may be null. */
function checkLimits(l: GateLimits, at: string, fail: Fail, scoped: boolean): GateLimits {
  if (l.minMean !== undefined) {
    if (!isRecord(l.minMean)) fail(`${at}minMean`, 'must be an object {criterion: minimum}', l.minMean);
    for (const [criterion, min] of Object.entries(l.minMean)) {
      if (scoped && min === null) continue;
      if (typeof min !== 'number' || !Number.isFinite(min) || min < 1 || min > 5)
        fail(`${at}minMean.${criterion}`, `must be a number from 1 to 5${scoped ? ' or null' : ''}`, min);
    }
  }
  const range = (field: 'maxDrop' | 'maxTokenGrowthPct' | 'maxErrorRate', lo: number, hi: number) => {
    const v = l[field];
    if (v !== undefined && (typeof v !== 'number' || !Number.isFinite(v) || v < lo || v > hi))
      fail(`${at}${field}`, `must be a number from ${lo} to ${hi}`, v);
  };
  range('maxDrop', 0, 4);
  range('maxTokenGrowthPct', -100, 1_000_000);
  range('maxErrorRate', 0, 1);
  if (
    l.minCells !== undefined &&
    (typeof l.minCells !== 'number' || !Number.isInteger(l.minCells) || l.minCells < 1)
  )
    fail(`${at}minCells`, 'must be a positive integer', l.minCells);
  return l;
}

function checkSuites(suites: unknown, fail: Fail): Record<string, GateSuiteScope> {
  if (!isRecord(suites)) fail('suites', 'must be an object {suite id: thresholds}', suites);
  for (const [id, scope] of Object.entries(suites as Record<string, unknown>)) {
    const at = `suites.${id}.`;
    if (!isRecord(scope)) fail(`suites.${id}`, 'must be an object of thresholds', scope);
    const s = scope as GateSuiteScope;
    checkKeys(s, suiteFields, at, fail);
    checkLimits(s, at, fail, true);
    if (s.exempt !== undefined && !(Array.isArray(s.exempt) && s.exempt.every((a) => typeof a === 'string')))
      fail(`${at}exempt`, 'must be an array of arm names', s.exempt);
    if (s.arms !== undefined) checkArms(s.arms, `${at}arms`, fail);
  }
  return suites as Record<string, GateSuiteScope>;
}

function checkArms(arms: unknown, at: string, fail: Fail): Record<string, GateLimits> {
  if (!isRecord(arms)) fail(at, 'must be an object {arm name: thresholds}', arms);
  for (const [name, scope] of Object.entries(arms as Record<string, unknown>)) {
    if (!isRecord(scope)) fail(`${at}.${name}`, 'must be an object of thresholds', scope);
    checkKeys(scope as object, limitFields, `${at}.${name}.`, fail);
    checkLimits(scope as GateLimits, `${at}.${name}.`, fail, true);
  }
  return arms as Record<string, GateLimits>;
}

/**
 * `gate.suites.<id>` must name a suite under casesDir (a typo would otherwise gate nothing: the gate
 * treats a suite absent from run and baseline as a note). Checked when the cases folder exists; arm
 * names are `validate`'s (they need every suite.json and the config's arms).
 */
export function checkGateSuiteIds(config: Pick<ResolvedConfig, 'casesDir' | 'gate'>, where: string): void {
  const ids = suiteIds(config.casesDir);
  if (ids.length === 0) return;
  for (const id of Object.keys(config.gate.suites ?? {}))
    if (!ids.includes(id))
      throw new ConfigError(
        where,
        `gate.suites.${id}`,
        `no suite "${id}" under ${config.casesDir}; valid: ${ids.join(', ')}`,
      );
}

/** The folders under casesDir holding a suite.json (cases/load.ts lists them the same way; config sits below cases). */
function suiteIds(dir: string): string[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return [];
  return readdirSync(dir)
    .filter((d) => existsSync(join(dir, d, 'suite.json')))
    .sort();
}
