import { join } from 'node:path';
import type { Arm, Case } from '../../core/index.ts';
import type { ArmInput, ResolvedConfig, ResolvedSuiteSelection } from '../../config/types.ts';
import { HarnessError } from '../../core/errors.ts';
import { rawCases, readSuiteJson, toCase, type SuiteJson } from '../../../cases/load.ts';
import { caseJsonProblems, suiteJsonProblems } from '../../../cases/json-problems.ts';
import { getStrategy } from '../../../strategies/index.ts';
import { paramProblems } from '../../../strategies/define.ts';
import { checkUniqueArms, checkUniqueCases } from '../../../cases/unique.ts';
import { mergeArms } from '../../config/arm-overrides.ts';
import { appliesTo, withoutDirections } from '../../config/frameworks.ts';

/** What validating one suite folder found: every problem, not only the first. */
export interface SuiteCheck {
  file: string;
  problems: string[];
  cases: Case[];
  arms: number;
}

/**
 * A suite folder as `run` would load it under this config, every problem collected: suite.json's
 * schema, its baseline arm, each arm (the suite's and the config's extra arms and sweeps: a known
 * strategy, every param against its spec, known model aliases), each case (generated or a file: the
 * first problem of each), and the selection's arm and case filters.
 */
export async function checkSuiteDir(
  dir: string,
  config: ResolvedConfig,
  sel?: ResolvedSuiteSelection,
  selWhere = 'config: suites',
): Promise<SuiteCheck> {
  const file = join(dir, 'suite.json');
  const out: SuiteCheck = { file, problems: [], cases: [], arms: 0 };
  const fail = (err: unknown) => {
    if (!(err instanceof HarnessError)) throw err;
    out.problems.push(err.message);
  };
  let json: SuiteJson;
  try {
    json = readSuiteJson(dir);
  } catch (err) {
    fail(err);
    return out;
  }
  const schema = suiteJsonProblems(json, file);
  if (schema.length) {
    schema.forEach(fail);
    return out;
  }
  const extra = checkArms(json, file, config, sel, out);
  for (const r of await rawCases(dir, json)) {
    if (r.error) fail(r.error);
    else
      try {
        out.cases.push(await toCase(r.raw, r.file, r.baseDir, json));
      } catch (err) {
        // A schema problem: every one of the case's, not only the first.
        const all = caseJsonProblems(r.raw, r.file);
        if (all.length > 0) all.forEach(fail);
        else fail(err);
      }
  }
  // Names that become cell ids: two arms or cases of one name would give two cells one id.
  for (const unique of [
    () => checkUniqueArms(file, json.id, json.arms, [], selWhere),
    () => checkUniqueArms(file, json.id, [], extra, selWhere),
    () => checkUniqueCases(json.id, out.cases),
  ])
    try {
      unique();
    } catch (err) {
      fail(err);
    }
  for (const id of sel?.cases ?? [])
    if (!out.cases.some((c) => c.id === id))
      out.problems.push(`config: suites.${json.id}.cases: unknown case "${id}" in suite ${json.id}`);
  return out;
}

/**
 * The suite's arms and the config's extra arms (given the baseline arm's models when they name none):
 * the baseline arm exists, each arm's strategy, params and models, the selection's arm names. Returns
 * the extra arms.
 */
function checkArms(
  json: SuiteJson,
  file: string,
  config: ResolvedConfig,
  sel: ResolvedSuiteSelection | undefined,
  out: SuiteCheck,
): ArmInput[] {
  const baseline = json.arms.find((a) => a.name === json.baselineArm);
  if (!baseline)
    out.problems.push(
      `${file}: baselineArm: "${json.baselineArm}" is not one of the suite's arms (${json.arms.map((a) => a.name).join(', ')})`,
    );
  const extra = (sel?.extraArms ?? [])
    .filter((a: ArmInput) => appliesTo(a, json.direction))
    .map((a: ArmInput) => withoutDirections(a));
  let arms = [...json.arms] as Arm[];
  try {
    arms = mergeArms(
      json.id,
      json.arms,
      extra,
      baseline?.models ?? json.arms[0]!.models,
      'config: extraArms',
    );
  } catch (err) {
    out.problems.push((err as Error).message);
  }
  out.arms = arms.length;
  arms.forEach((a, i) =>
    out.problems.push(...armProblems(a, i < json.arms.length ? file : 'config', config)),
  );
  for (const name of sel?.arms ?? [])
    if (!arms.some((a) => a.name === name))
      out.problems.push(
        `config: suites.${json.id}.arms: unknown arm "${name}"; valid: ${arms.map((a) => a.name).join(', ')}`,
      );
  return extra;
}

/** Every problem of one arm: its strategy, each param, each model alias. */
function armProblems(a: Arm, where: string, config: ResolvedConfig): string[] {
  const at = `${where}: arms.${a.name}`;
  let strategy;
  try {
    strategy = getStrategy(a.strategy, config.strategies, at);
  } catch (err) {
    return [(err as Error).message];
  }
  const out = paramProblems(strategy, a.params).map((p) => `${at}.params.${p.param}: ${p.detail}`);
  for (const role of ['source', 'receiver'] as const) {
    const alias = a.models?.[role];
    if (!alias || !config.models[alias])
      out.push(
        `${at}.models.${role}: unknown model alias ${JSON.stringify(alias)}; valid: ${Object.keys(config.models).join(', ')}`,
      );
  }
  return out;
}
