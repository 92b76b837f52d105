import type { Arm, Case, Cell, Suite } from '../core/index.ts';
import type { ResolvedConfig } from '../config/types.ts';
import { ConfigError, UnknownNameError } from '../core/errors.ts';
import { listSuiteIds } from '../../cases/load.ts';
import { getStrategy } from '../../strategies/index.ts';
import { resolveParams } from '../../strategies/define.ts';
import { shardOf } from './shard.ts';
import { liveCases, liveSettingsOf, type LiveSettings } from '../live/plan-live.ts';

export interface PlannedCell extends Cell {
  case: Case;
  armSpec: Arm;
  params: Record<string, unknown>;
  baselineArm: string;
  /** Live mode (docs/live.md): the source agent re-runs over the case's world; absent = recorded. */
  live?: LiveSettings;
  /** The suite's primary criterion, recorded on the row (reports build the Holm families from it). */
  primaryCriterion: string;
}

/** suite × case × arm × rep, in a stable order; arm filters and strategy params checked up front. */
export function planCells(suites: Suite[], config: ResolvedConfig): PlannedCell[] {
  const cells: PlannedCell[] = [];
  const primary = primaryCriteria(suites, config);
  const allArmNames = new Set(suites.flatMap((s) => s.arms.map((a) => a.name)));
  if (config.arms !== 'all')
    for (const a of config.arms)
      if (!allArmNames.has(a)) throw new UnknownNameError('arm', a, [...allArmNames].sort(), 'arms');
  for (const suite of suites) {
    const arms =
      config.arms === 'all'
        ? suite.arms
        : suite.arms.filter((a) => (config.arms as string[]).includes(a.name));
    for (const arm of arms) checkArm(arm, suite, config);
    const params = new Map(
      arms.map((a) => [
        a.name,
        resolveParams(
          getStrategy(a.strategy, config.strategies),
          a.params,
          `suite ${suite.id}, arm ${a.name}`,
        ),
      ]),
    );
    const live = new Map(arms.map((a) => [a.name, liveSettingsOf(suite, a, config)]));
    const liveOnly = new Map(
      arms.map((a) => [a.name, live.get(a.name) && new Set(liveCases(suite, a, config))]),
    );
    for (const c of suite.cases) {
      for (const arm of arms) {
        if (liveOnly.get(arm.name) && !liveOnly.get(arm.name)!.has(c)) continue;
        for (let rep = 0; rep < config.reps; rep++) {
          const id = `${suite.id}/${c.id}/${arm.name}/${rep}`;
          cells.push({
            id,
            suite: suite.id,
            caseId: c.id,
            arm: arm.name,
            rep,
            case: c,
            armSpec: arm,
            params: params.get(arm.name)!,
            baselineArm: suite.baselineArm,
            ...(live.get(arm.name) ? { live: live.get(arm.name) } : {}),
            primaryCriterion: primary.get(suite.id)!,
          });
        }
      }
    }
  }
  return config.shard
    ? cells.filter((c) => shardOf(c.id, config.shard!.count) === config.shard!.index)
    : cells;
}

/**
 * Each suite's primary criterion: the config's `primaryCriterion[suite]` > suite.json's > the suite's
 * first criterion. An override naming no suite under casesDir, or no criterion of its suite, fails.
 */
function primaryCriteria(suites: Suite[], config: ResolvedConfig): Map<string, string> {
  const where = config.configFile ?? 'config';
  const overrides = config.primaryCriterion ?? {};
  const known = new Set([...listSuiteIds(config.casesDir), ...suites.map((s) => s.id)]);
  for (const id of Object.keys(overrides))
    if (!known.has(id))
      throw new ConfigError(
        where,
        `primaryCriterion.${id}`,
        `unknown suite; valid: ${[...known].sort().join(', ')}`,
      );
  const out = new Map<string, string>();
  for (const s of suites) {
    const chosen = overrides[s.id] ?? s.primaryCriterion ?? s.criteria[0]!;
    if (!s.criteria.includes(chosen))
      throw new ConfigError(
        where,
        `primaryCriterion.${s.id}`,
        `"${chosen}" is not one of the suite's criteria (${s.criteria.join(', ')})`,
      );
    out.set(s.id, chosen);
  }
  return out;
}

function checkArm(arm: Arm, suite: Suite, config: ResolvedConfig): void {
  getStrategy(arm.strategy, config.strategies, `suite ${suite.id}, arm ${arm.name}`);
  for (const role of ['source', 'receiver'] as const) {
    const alias = arm.models[role];
    if (!config.models[alias])
      throw new UnknownNameError(
        'model alias',
        alias,
        Object.keys(config.models),
        `suite ${suite.id}, arm ${arm.name}, models.${role}`,
      );
  }
}
