import type { Arm } from '../core/index.ts';
import { InputError } from '../core/errors.ts';
import type { ArmInput } from './types.ts';

/**
 * A suite's arms with the config's arms for it (a selection's `extraArms`, inline arms in its `arms`).
 * A config arm named like one of the suite's arms **redefines** that arm in place — how a CI user
 * changes a shipped strategy's settings without renaming the arm the baseline knows it by:
 * `strategy` and `models` default to the suite arm's, and `params` are merged over the suite arm's
 * when the strategy stays the same (a different strategy takes only the params given). Every other
 * config arm is added after the suite's, with the baseline arm's models when it names none.
 * `where` names the selection (`eval.config.ts: suites[0]`) for an added arm that names no strategy.
 */
export function mergeArms(
  suiteId: string,
  suiteArms: readonly Arm[],
  extras: readonly ArmInput[],
  baseModels: Arm['models'],
  where: string,
): Arm[] {
  const own = new Map(suiteArms.map((a) => [a.name, a]));
  const overrides = new Map(extras.filter((e) => own.has(e.name)).map((e) => [e.name, e]));
  const merged = suiteArms.map((a) => {
    const o = overrides.get(a.name);
    return o ? overrideArm(a, o) : a;
  });
  const added = extras
    .filter((e) => !own.has(e.name))
    .map((e): Arm => {
      if (typeof e.strategy !== 'string')
        throw new InputError(
          'config_invalid',
          `${where} (${e.name}).strategy: arm ${e.name}: must name a strategy — or be named like an arm of suite ${suiteId} to redefine it (${suiteArms.map((a) => a.name).join(', ')})`,
        );
      return { ...e, strategy: e.strategy, models: e.models ?? baseModels };
    });
  return [...merged, ...added];
}

function overrideArm(a: Arm, o: ArmInput): Arm {
  const strategy = o.strategy ?? a.strategy;
  const params = strategy === a.strategy ? { ...a.params, ...o.params } : { ...o.params };
  return { ...a, ...o, strategy, params, models: o.models ?? a.models };
}
