import type { Check, Criterion } from '../core/index.ts';
import { ConfigError } from '../core/errors.ts';
import { configDefaults } from './defaults.ts';
import type { ReporterEntry, ResolvedConfig, UserConfig } from './types.ts';

/** The built-in criterion ids and check names a config's own may not take. */
export interface BuiltinNames {
  criteria: readonly string[];
  checks: readonly string[];
}

/**
 * The config's own criteria, checks and reporters, each checked for shape: a criterion has an id, a
 * question and anchors for 1, 3 and 5; a check a name and a `run`; a reporter is a name (checked
 * against the built-in reporters when the run starts) or an object whose hooks are functions.
 */
export function resolvePlugins(
  user: UserConfig,
  file: string,
): Pick<ResolvedConfig, 'criteria' | 'checks' | 'reporters'> {
  return {
    criteria: resolveCriteria(user.criteria, file),
    checks: resolveChecks(user.checks, file),
    reporters: resolveReporterEntries(user.reporters, file),
  };
}

export const defaultReporters: readonly ReporterEntry[] = configDefaults.reporters;

function array(v: unknown, field: string, file: string): unknown[] {
  if (!Array.isArray(v)) throw new ConfigError(file, field, `must be an array (got ${JSON.stringify(v)})`);
  return v;
}

function resolveCriteria(v: unknown, file: string): Record<string, Criterion> {
  const out: Record<string, Criterion> = {};
  for (const [i, item] of array(v ?? [], 'criteria', file).entries()) {
    const c = item as Partial<Criterion> | null;
    const field = `criteria[${i}]`;
    if (typeof c !== 'object' || c === null || typeof c.id !== 'string' || !/^[a-z][a-z0-9_-]*$/.test(c.id))
      throw new ConfigError(
        file,
        `${field}.id`,
        'must be a criterion (defineCriterion) with an id like "my_criterion"',
      );
    if (typeof c.question !== 'string' || c.question === '')
      throw new ConfigError(file, `${field}.question`, `criterion ${c.id}: must be a non-empty string`);
    for (const k of [1, 3, 5] as const)
      if (typeof c.anchors?.[k] !== 'string')
        throw new ConfigError(file, `${field}.anchors.${k}`, `criterion ${c.id}: must be a string`);
    if (!Array.isArray(c.reference))
      throw new ConfigError(file, `${field}.reference`, `criterion ${c.id}: must be an array (may be empty)`);
    if (Object.hasOwn(out, c.id))
      throw new ConfigError(file, `${field}.id`, `criterion "${c.id}" is defined twice`);
    out[c.id] = c as Criterion;
  }
  return out;
}

function resolveChecks(v: unknown, file: string): Check[] {
  const seen = new Set<string>();
  return array(v ?? [], 'checks', file).map((item, i) => {
    const c = item as Partial<Check> | null;
    const field = `checks[${i}]`;
    if (typeof c !== 'object' || c === null || typeof c.name !== 'string' || c.name === '')
      throw new ConfigError(file, `${field}.name`, 'must be a check (defineCheck) with a name');
    if (typeof c.run !== 'function')
      throw new ConfigError(file, `${field}.run`, `check ${c.name}: must be a function`);
    if (c.applies !== undefined && typeof c.applies !== 'function')
      throw new ConfigError(file, `${field}.applies`, `check ${c.name}: must be a function`);
    if (seen.has(c.name)) throw new ConfigError(file, `${field}.name`, `check "${c.name}" is defined twice`);
    seen.add(c.name);
    return c as Check;
  });
}

const hooks = ['onRunStart', 'onCellEnd', 'onRunEnd', 'onReport'] as const;

function resolveReporterEntries(v: unknown, file: string): ReporterEntry[] {
  if (v === undefined) return [...defaultReporters];
  return array(v, 'reporters', file).map((r, i) => {
    if (typeof r === 'string' && r !== '') return r;
    if (typeof r !== 'object' || r === null)
      throw new ConfigError(
        file,
        `reporters[${i}]`,
        `must be a reporter name or object (got ${JSON.stringify(r)})`,
      );
    for (const h of hooks)
      if (
        (r as Record<string, unknown>)[h] !== undefined &&
        typeof (r as Record<string, unknown>)[h] !== 'function'
      )
        throw new ConfigError(file, `reporters[${i}].${h}`, 'must be a function');
    return r as ReporterEntry;
  });
}

/** Built-in names a config's own criterion or check would shadow: refused, so a report never shows two meanings of one name. */
export function checkShadowing(
  config: Pick<ResolvedConfig, 'criteria' | 'checks' | 'configFile'>,
  builtin: BuiltinNames,
): void {
  const file = config.configFile ?? 'config';
  for (const id of Object.keys(config.criteria))
    if (builtin.criteria.includes(id))
      throw new ConfigError(
        file,
        'criteria',
        `criterion "${id}" is a built-in criterion; give yours another id`,
      );
  for (const c of config.checks)
    if (builtin.checks.includes(c.name))
      throw new ConfigError(file, 'checks', `check "${c.name}" is a built-in check; give yours another name`);
}
