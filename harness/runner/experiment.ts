import type { Arm, Suite } from '../core/index.ts';
import type { ResolvedConfig } from '../config/types.ts';
import { UnknownNameError } from '../core/errors.ts';
import { loadSuites } from '../../cases/load.ts';
import { getStrategy } from '../../strategies/index.ts';
import { resolveParams } from '../../strategies/define.ts';
import { applyJudging } from './judging.ts';

/**
 * The suites, arms and cases a config selects — the one answer `run`, `run --dry-run`, `list`,
 * `render` and `validate` share: the suites under `casesDir` (all, or `suites` / `--suite`), each with
 * the config's extra arms and sweeps, its arm and case filters, then `arms` / `--arm` and `--case`
 * across suites. Every arm is checked: a known strategy (registered or the config's), params its spec
 * accepts, model aliases the config defines. Unknown names fail with the valid ones.
 */
export async function loadExperiment(config: ResolvedConfig): Promise<Suite[]> {
  const suites = await loadSuites(config.casesDir, config.suites, config.configFile);
  if (config.cases !== 'all') {
    const all = suites.flatMap((s) => s.cases.map((c) => c.id));
    for (const id of config.cases)
      if (!all.includes(id)) throw new UnknownNameError('case', id, [...new Set(all)].sort(), '--case');
  }
  if (config.arms !== 'all') {
    const all = new Set(suites.flatMap((s) => s.arms.map((a) => a.name)));
    for (const a of config.arms)
      if (!all.has(a)) throw new UnknownNameError('arm', a, [...all].sort(), 'arms');
  }
  const cases = config.cases;
  const arms = config.arms;
  return applyJudging(suites, config).map((s) => {
    const kept = arms === 'all' ? s.arms : s.arms.filter((a) => arms.includes(a.name));
    for (const a of kept) checkArm(a, s, config);
    return {
      ...s,
      arms: kept,
      cases: cases === 'all' ? s.cases : s.cases.filter((c) => cases.includes(c.id)),
    };
  });
}

/** An arm's strategy exists, its params resolve and its model aliases are the config's. */
export function checkArm(arm: Arm, suite: Suite, config: ResolvedConfig): Record<string, unknown> {
  const where = `suite ${suite.id}, arm ${arm.name}`;
  const strategy = getStrategy(arm.strategy, config.strategies, where);
  for (const role of ['source', 'receiver'] as const) {
    const alias = arm.models[role];
    if (!config.models[alias])
      throw new UnknownNameError(
        'model alias',
        alias,
        Object.keys(config.models),
        `${where}, models.${role}`,
      );
  }
  return resolveParams(strategy, arm.params, where);
}
