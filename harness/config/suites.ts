import type { ModelSpec, ResolvedSuiteSelection, ArmInput, UserConfig } from './types.ts';
import type { Strategy } from '../core/index.ts';
import { checkLivePrompts } from './live-prompts.ts';
import { ConfigError, InputError } from '../core/errors.ts';
import { getStrategy } from '../../strategies/index.ts';
import { paramProblems } from '../../strategies/define.ts';

interface SuiteContext {
  file: string;
  strategies: Record<string, Strategy<any>>;
  models: Record<string, ModelSpec>;
}

/**
 * The config's suite selections, normalised: ids, the arm names to keep, the arms added (sweeps and
 * inline arms flattened, each checked against its strategy's param spec and the model aliases). With
 * `--suite`, the named suites keep whatever the config says about them (extra arms, arm and case
 * filters); a suite the config does not mention runs whole.
 */
export function resolveSuites(
  value: UserConfig['suites'],
  flag: string[] | undefined,
  ctx: SuiteContext,
): ResolvedSuiteSelection[] | 'all' {
  if (value !== undefined && !Array.isArray(value))
    throw new ConfigError(
      ctx.file,
      'suites',
      'must be an array of suite ids or {id, arms?, cases?, extraArms?}',
    );
  const selections = (value ?? []).map((s, i) => selection(s, `suites[${i}]`, ctx));
  // Selected twice, every cell of the suite would run twice under the same ids.
  selections.forEach((s, i) => {
    const first = selections.findIndex((x) => x.id === s.id);
    if (first < i)
      throw new ConfigError(
        ctx.file,
        `suites[${i}]`,
        `suite "${s.id}" is selected twice (also suites[${first}])`,
      );
  });
  if (flag?.length) {
    const twice = flag.find((id, i) => flag.indexOf(id) !== i);
    if (twice !== undefined) throw new InputError('usage', `--suite: suite "${twice}" is given twice`);
    return flag.map((id) => selections.find((s) => s.id === id) ?? { id });
  }
  return value === undefined ? 'all' : selections;
}

function selection(s: unknown, field: string, ctx: SuiteContext): ResolvedSuiteSelection {
  if (typeof s === 'string') return { id: s };
  const sel = s as Record<string, unknown> | null;
  if (typeof sel !== 'object' || sel === null || typeof sel.id !== 'string')
    throw new ConfigError(ctx.file, field, 'must be a suite id or {id, arms?, cases?, extraArms?}');
  for (const key of Object.keys(sel))
    if (!selectionFields.includes(key))
      throw new ConfigError(
        ctx.file,
        `${field}.${key}`,
        `unknown field; valid: ${selectionFields.join(', ')}`,
      );
  const out: ResolvedSuiteSelection = { id: sel.id };
  // Checked with the other live settings (resolve-config.ts), passed on as given.
  if (sel.mode !== undefined) out.mode = sel.mode as ResolvedSuiteSelection['mode'];
  if (sel.sourceToolBudget !== undefined) out.sourceToolBudget = sel.sourceToolBudget as number;
  const prompts = checkLivePrompts(sel.livePrompts, `${field}.livePrompts`, ctx.file, true);
  if (prompts) out.livePrompts = prompts;
  const added: ArmInput[] = [];
  if (sel.arms !== undefined) {
    const names: string[] = [];
    for (const [i, entry] of list(sel.arms, `${field}.arms`, ctx).entries()) {
      if (typeof entry === 'string') names.push(entry);
      else
        for (const arm of flat(entry, `${field}.arms[${i}]`)) {
          added.push(checkArm(arm.value, arm.field, ctx));
          names.push((arm.value as ArmInput).name);
        }
    }
    out.arms = names;
  }
  if (sel.extraArms !== undefined)
    for (const [i, entry] of list(sel.extraArms, `${field}.extraArms`, ctx).entries())
      for (const arm of flat(entry, `${field}.extraArms[${i}]`))
        added.push(checkArm(arm.value, arm.field, ctx));
  if (added.length) out.extraArms = added;
  if (sel.cases !== undefined) out.cases = names(sel.cases, `${field}.cases`, 'case ids', ctx);
  // The names are checked against the suites and the registries when the experiment loads.
  if (sel.criteria !== undefined)
    out.criteria = names(sel.criteria, `${field}.criteria`, 'criterion ids', ctx);
  if (sel.checks !== undefined) out.checks = names(sel.checks, `${field}.checks`, 'check names', ctx);
  return out;
}

const selectionFields = [
  'id',
  'arms',
  'cases',
  'extraArms',
  'mode',
  'sourceToolBudget',
  'livePrompts',
  'criteria',
  'checks',
];

function names(v: unknown, field: string, what: string, ctx: SuiteContext): string[] {
  const items = list(v, field, ctx);
  if (items.some((c) => typeof c !== 'string'))
    throw new ConfigError(ctx.file, field, `must be an array of ${what}`);
  return items as string[];
}

function list(v: unknown, field: string, ctx: SuiteContext): unknown[] {
  if (!Array.isArray(v)) throw new ConfigError(ctx.file, field, 'must be an array');
  return v;
}

/** One arm, or a sweep's arms (an array), each with the field that names it. */
function flat(entry: unknown, field: string): { value: unknown; field: string }[] {
  return Array.isArray(entry)
    ? entry.map((value, j) => ({ value, field: `${field}[${j}]` }))
    : [{ value: entry, field }];
}

/** An arm defined in the config: a name, a known strategy, params its spec accepts, known model aliases. */
function checkArm(value: unknown, field: string, ctx: SuiteContext): ArmInput {
  const arm = value as Partial<ArmInput> | null;
  if (typeof arm !== 'object' || arm === null || typeof arm.name !== 'string' || arm.name === '')
    throw new ConfigError(
      ctx.file,
      field,
      'must be an arm {name, strategy, params?, models?} or a sweep(...)',
    );
  const where = `${ctx.file}: ${field} (${arm.name})`;
  if (
    arm.params !== undefined &&
    (typeof arm.params !== 'object' || arm.params === null || Array.isArray(arm.params))
  )
    throw new ConfigError(ctx.file, `${field}.params`, `arm ${arm.name}: must be an object`);
  // No strategy: it redefines the suite arm of its name (checked, with that arm's strategy, when the
  // suite loads: arm-overrides.ts, then the experiment's arm check).
  if (arm.strategy !== undefined) {
    if (typeof arm.strategy !== 'string' || arm.strategy === '')
      throw new ConfigError(ctx.file, `${field}.strategy`, `arm ${arm.name}: must name a strategy`);
    const strategy = getStrategy(arm.strategy, ctx.strategies, `${where}: strategy`);
    const problem = paramProblems(strategy, arm.params)[0];
    if (problem)
      throw new ConfigError(
        ctx.file,
        `${field}.params.${problem.param}`,
        `arm ${arm.name}: ${problem.detail}`,
      );
  }
  for (const role of ['source', 'receiver'] as const) {
    const alias = arm.models?.[role];
    if (arm.models !== undefined && (typeof alias !== 'string' || !ctx.models[alias]))
      throw new ConfigError(
        ctx.file,
        `${field}.models.${role}`,
        `arm ${arm.name}: unknown model alias ${JSON.stringify(alias)}; valid: ${Object.keys(ctx.models).join(', ')}`,
      );
  }
  if (
    arm.directions !== undefined &&
    (!Array.isArray(arm.directions) ||
      arm.directions.some((d) => !['return', 'escalation', 'spawn'].includes(d)))
  )
    throw new ConfigError(
      ctx.file,
      `${field}.directions`,
      `arm ${arm.name}: must be a list of return, escalation, spawn (got ${JSON.stringify(arm.directions)})`,
    );
  return arm as ArmInput;
}
