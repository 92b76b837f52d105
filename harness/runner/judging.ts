import type { Suite } from '../core/index.ts';
import type { ResolvedConfig } from '../config/types.ts';
import { CaseValidationError, ConfigError, UnknownNameError } from '../core/errors.ts';
import { join } from 'node:path';
import { checkShadowing } from '../config/plugins.ts';
import { builtinChecks } from '../../judges/checks.ts';
import type { Check } from '../../judges/define-check.ts';
import { allCriterionIds, criterionIds } from '../../judges/criteria/index.ts';

type JudgingConfig = Pick<ResolvedConfig, 'suites' | 'criteria' | 'checks' | 'configFile'>;

/** Every check a cell may run: the built-in ones, then the config's own, in order. */
function allChecks(config: JudgingConfig): readonly Check[] {
  return config.checks.length ? [...builtinChecks, ...config.checks] : builtinChecks;
}

const selected = new WeakMap<JudgingConfig, Map<string, readonly Check[]>>();

/** The checks run on a suite's cells: those its selection names (`suites: [{id, checks}]`), else every one. */
export function checksOf(config: JudgingConfig, suiteId: string): readonly Check[] {
  let bySuite = selected.get(config);
  if (!bySuite) selected.set(config, (bySuite = new Map()));
  let checks = bySuite.get(suiteId);
  if (!checks) {
    const names = config.suites === 'all' ? undefined : config.suites.find((s) => s.id === suiteId)?.checks;
    const all = allChecks(config);
    checks = names ? all.filter((c) => names.includes(c.name)) : all;
    bySuite.set(suiteId, checks);
  }
  return checks;
}

/**
 * The config's criteria and checks against the registries, and each suite selection's `criteria`
 * applied: the named criteria replace the suite's and its cases' own (the suite's primary criterion is
 * kept when still among them, else the first one is primary). Unknown names fail with the valid ones.
 */
/**
 * The criteria a suite.json or a case names must be the library's or the config's: an unknown id would
 * load, then fail every cell at its judge call (issue 28 item 12).
 */
function checkCriterionNames(suites: readonly Suite[], known: readonly string[]): void {
  for (const s of suites) {
    const bad = s.criteria.find((c) => !known.includes(c));
    if (bad !== undefined)
      throw new CaseValidationError(
        s.dir ? join(s.dir, 'suite.json') : `suite ${s.id}`,
        undefined,
        `criteria[${s.criteria.indexOf(bad)}]`,
        `unknown criterion "${bad}"; valid: ${known.join(', ')} (or one of the config's criteria)`,
      );
    for (const c of s.cases) {
      const odd = (c.criteria ?? []).find((x) => !known.includes(x));
      if (odd !== undefined)
        throw new CaseValidationError(
          c.file ?? s.dir ?? `suite ${s.id}`,
          c.id,
          `criteria[${c.criteria!.indexOf(odd)}]`,
          `unknown criterion "${odd}"; valid: ${known.join(', ')} (or one of the config's criteria)`,
        );
    }
  }
}

export function applyJudging(suites: Suite[], config: JudgingConfig): Suite[] {
  checkShadowing(config, { criteria: criterionIds, checks: builtinChecks.map((c) => c.name) });
  checkCriterionNames(suites, allCriterionIds(config.criteria));
  if (config.suites === 'all') return suites;
  const checkNames = allChecks(config).map((c) => c.name);
  const criteria = allCriterionIds(config.criteria);
  return suites.map((s) => {
    const sel = (config.suites as Exclude<JudgingConfig['suites'], 'all'>).find((x) => x.id === s.id);
    for (const name of sel?.checks ?? [])
      if (!checkNames.includes(name))
        throw new UnknownNameError('check', name, checkNames, `suites ${s.id}: checks`);
    if (!sel?.criteria) return s;
    if (sel.criteria.length === 0)
      throw new ConfigError(
        config.configFile ?? 'config',
        `suites ${s.id}: criteria`,
        'must name at least one criterion',
      );
    for (const id of sel.criteria)
      if (!criteria.includes(id))
        throw new UnknownNameError('criterion', id, criteria, `suites ${s.id}: criteria`);
    const list = [...sel.criteria];
    return {
      ...s,
      criteria: list,
      primaryCriterion:
        s.primaryCriterion && list.includes(s.primaryCriterion) ? s.primaryCriterion : list[0],
      cases: s.cases.map((c) => ({ ...c, criteria: list })),
    };
  });
}
