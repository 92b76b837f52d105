import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { resolveSources } from './sources.ts';
import { checkLivePrompts, type LivePrompts } from './live-prompts.ts';
import { ConfigError } from '../core/errors.ts';
import { packageRoot } from '../version.ts';
import { checkGateSuiteIds, resolveGateThresholds } from './gate-thresholds.ts';
import { checkNumberFlag, type NumberRule } from './numeric-flags.ts';
import type {
  LiveInlineMode,
  ModelSpec,
  ProviderName,
  ResolvedConfig,
  SourceMode,
  UserConfig,
} from './types.ts';
import type { ConfigFlags } from './config-flags.ts';
import { builtinProviderNames } from './types.ts';
import { resolveSuites } from './suites.ts';
import { configDefaults } from './defaults.ts';
import { resolvePlugins } from './plugins.ts';
import { checkConfigSchema } from './config-schema.ts';

/** The built-in model aliases (`configDefaults.models`). */
export const defaultModels: Record<string, ModelSpec> = configDefaults.models;

const defaults = configDefaults;

/** defaults < config file < CLI flags; every field checked, errors name the file and the field. */
export function resolveConfig(
  user: UserConfig,
  flags: ConfigFlags = {},
  file: string | null = null,
): ResolvedConfig {
  const where = file ?? 'config';
  const check = new Checker(where);
  if (typeof user !== 'object' || user === null || Array.isArray(user))
    throw new ConfigError(where, '(root)', 'must export an object (use defineConfig({...}))');
  checkKnownFields(user, where);
  const models = { ...defaultModels, ...check.record(user.models, 'models') } as Record<string, ModelSpec>;
  const providers = check.record(user.providers, 'providers') ?? {};
  const provider = resolveProvider(user.provider, flags.provider, check, providerNamesOf(providers, check));
  const judge = resolveJudge(user, models, check, where);
  const gate = resolveGateThresholds(
    { ...defaults.gate, minMean: {}, ...check.record(user.gate, 'gate') },
    file,
  );
  const strategies = check.record(user.strategies, 'strategies') ?? {};
  const resolved: ResolvedConfig = {
    configFile: file,
    suites: resolveSuites(user.suites, flags.suite, { file: where, strategies, models }),
    arms: flags.arm?.length ? flags.arm : (check.stringArray(user.arms, 'arms') ?? 'all'),
    cases: flags.case?.length ? flags.case : 'all',
    reps:
      flag('--reps', flags.reps, 'positive integer') ?? check.positiveInt(user.reps, 'reps') ?? defaults.reps,
    seed: flag('--seed', flags.seed, 'integer') ?? check.int(user.seed, 'seed') ?? defaults.seed,
    provider,
    models,
    judge,
    concurrency:
      flag('--concurrency', flags.concurrency, 'positive integer') ??
      check.positiveInt(user.concurrency, 'concurrency') ??
      defaults.concurrency,
    budgetTokens: check.positiveInt(user.budgetTokens, 'budgetTokens') ?? defaults.budgetTokens,
    ...resolveLive(user, flags, check),
    ...optionalPrompts(checkLivePrompts(user.livePrompts, 'livePrompts', where, false)),
    cache: resolveCache(user, flags, check),
    outDir: flags.out ?? check.string(user.outDir, 'outDir') ?? defaults.outDir,
    casesDir: check.string(user.casesDir, 'casesDir') ?? defaultCasesDir(),
    sim: resolveSim(user, check),
    providers,
    prices: check.record(user.prices, 'prices') ?? {},
    gate,
    maxErrorRate:
      flag('--max-error-rate', flags.maxErrorRate, { from: 0, to: 1 }) ??
      check.share(user.maxErrorRate, 'maxErrorRate') ??
      gate.maxErrorRate,
    primaryCriterion: check.stringRecord(user.primaryCriterion, 'primaryCriterion') ?? {},
    strategies,
    ...resolvePlugins(user, where),
    quiet: flags.quiet ?? false,
    shard: parseShard(flags.shard, where),
    batch: flags.batch ?? false,
    ...(flags.keepWorlds ? { keepWorlds: true } : {}),
    ...resolveSources(user.sources, flags.source, where, file ? dirname(file) : process.cwd()),
  };
  // The fields above keep their own messages; the schema checks every value they do not (issue 28.12).
  checkConfigSchema(user, where);
  checkGateSuiteIds(resolved, where);
  return resolved;
}

/** The response cache: on unless the file or --no-cache turns it off; its directory. */
function resolveCache(user: UserConfig, flags: ConfigFlags, check: Checker): ResolvedConfig['cache'] {
  return {
    enabled: flags.cache === false ? false : user.cache !== false,
    dir:
      (typeof user.cache === 'object' ? check.string(user.cache.dir, 'cache.dir') : undefined) ??
      defaults.cache.dir,
  };
}

/** The sim's options: passed to the sim provider as given; its one flag, `paraphrase`, checked here. */
function resolveSim(user: UserConfig, check: Checker): ResolvedConfig['sim'] {
  const sim = check.record(user.sim, 'sim') ?? {};
  if (sim.paraphrase !== undefined && typeof sim.paraphrase !== 'boolean')
    check.fail('sim.paraphrase', 'must be true or false', sim.paraphrase);
  return sim;
}

function optionalPrompts(p: LivePrompts | undefined): { livePrompts?: LivePrompts } {
  return p ? { livePrompts: p } : {};
}

/** The fields a config may have. */
const knownFields = new Set([
  'suites',
  'arms',
  'reps',
  'seed',
  'provider',
  'models',
  'judge',
  'concurrency',
  'budgetTokens',
  'mode',
  'sourceToolBudget',
  'liveInline',
  'livePrompts',
  'cache',
  'outDir',
  'casesDir',
  'sim',
  'providers',
  'prices',
  'gate',
  'maxErrorRate',
  'primaryCriterion',
  'strategies',
  'criteria',
  'checks',
  'reporters',
  'sources',
]);

function checkKnownFields(user: UserConfig, where: string): void {
  for (const key of Object.keys(user))
    if (!knownFields.has(key))
      throw new ConfigError(where, key, `unknown field; valid: ${[...knownFields].join(', ')}`);
}

/** The judge section: its model alias (one of the models), samples, criteria on/off, classify. */
function resolveJudge(
  user: UserConfig,
  models: Record<string, ModelSpec>,
  check: Checker,
  where: string,
): ResolvedConfig['judge'] {
  const criteria = user.judge?.criteria ?? defaults.judge.criteria;
  if (typeof criteria !== 'boolean')
    throw new ConfigError(where, 'judge.criteria', `must be true or false (got ${JSON.stringify(criteria)})`);
  const classify = user.judge?.classify ?? defaults.judge.classify;
  if (!['auto', 'on', 'off'].includes(classify))
    throw new ConfigError(
      where,
      'judge.classify',
      `must be 'auto', 'on' or 'off' (got ${JSON.stringify(classify)})`,
    );
  const judge = {
    model: check.string(user.judge?.model, 'judge.model') ?? defaults.judge.model,
    samples: check.positiveInt(user.judge?.samples, 'judge.samples') ?? defaults.judge.samples,
    criteria,
    classify,
  };
  if (!models[judge.model])
    throw new ConfigError(
      where,
      'judge.model',
      `unknown model alias "${judge.model}"; valid: ${Object.keys(models).join(', ')}`,
    );
  return judge;
}

/** A flag overrides its config field only after passing the same check (a flag is named as itself). */
function flag(name: string, value: number | undefined, rule: NumberRule): number | undefined {
  return value === undefined ? undefined : checkNumberFlag(name, value, rule);
}

/** The providers a role may name: the built-in factories and the config's own (`providers.<name>.create`). */
function providerNamesOf(providers: NonNullable<UserConfig['providers']>, check: Checker): string[] {
  const own = Object.entries(providers).flatMap(([name, p]) => {
    if (p?.create !== undefined && typeof p.create !== 'function')
      check.fail(`providers.${name}.create`, 'must be a provider factory function', p.create);
    return p?.create ? [name] : [];
  });
  return [...new Set([...builtinProviderNames, ...own])];
}

function resolveProvider(
  value: UserConfig['provider'],
  flag: ProviderName | undefined,
  check: Checker,
  known: readonly string[],
): ResolvedConfig['provider'] {
  const valid = (name: unknown, field: string): ProviderName => {
    if (typeof name !== 'string' || !known.includes(name)) {
      throw new ConfigError(
        check.file,
        field,
        `unknown provider "${String(name)}"; valid: ${known.join(', ')}`,
      );
    }
    return name;
  };
  if (flag) {
    const p = valid(flag, '--provider');
    return { source: p, receiver: p, judge: p };
  }
  if (value === undefined || typeof value === 'string') {
    const p = valid(value ?? configDefaults.provider, 'provider');
    return { source: p, receiver: p, judge: p };
  }
  const d = valid(value.default ?? configDefaults.provider, 'provider.default');
  return {
    source: value.source ? valid(value.source, 'provider.source') : d,
    receiver: value.receiver ? valid(value.receiver, 'provider.receiver') : d,
    judge: value.judge ? valid(value.judge, 'provider.judge') : d,
  };
}

function resolveLive(
  user: UserConfig,
  flags: ConfigFlags,
  check: Checker,
): Pick<ResolvedConfig, 'mode' | 'modeForced' | 'sourceToolBudget' | 'liveInline'> {
  const mode = (v: unknown, field: string): SourceMode | undefined => {
    if (v === undefined) return undefined;
    if (v !== 'recorded' && v !== 'live') check.fail(field, "must be 'recorded' or 'live'", v);
    return v;
  };
  const flagMode = mode(flags.mode, '--mode');
  const budget =
    check.positiveInt(flags.sourceToolBudget, '--source-tool-budget') ??
    check.positiveInt(user.sourceToolBudget, 'sourceToolBudget') ??
    defaults.sourceToolBudget;
  (user.suites ?? []).forEach((s, i) => {
    if (typeof s !== 'object' || s === null) return;
    mode(s.mode, `suites[${i}].mode`);
    check.positiveInt(s.sourceToolBudget, `suites[${i}].sourceToolBudget`);
  });
  const inline = (v: unknown, field: string): LiveInlineMode | undefined => {
    if (v === undefined) return undefined;
    if (v !== 'replay' && v !== 'prefix') check.fail(field, "must be 'replay' or 'prefix'", v);
    return v;
  };
  return {
    mode: flagMode ?? mode(user.mode, 'mode') ?? defaults.mode,
    modeForced: flagMode !== undefined,
    sourceToolBudget: budget,
    liveInline:
      inline(flags.liveInline, '--live-inline') ?? inline(user.liveInline, 'liveInline') ?? 'replay',
  };
}

/**
 * `cases/` where the command runs; without one (a project that installed handoff-eval and has no
 * suites of its own yet), the suites shipped with the package — so `npx handoff-eval run` runs the
 * default experiment anywhere.
 */
function defaultCasesDir(): string {
  return existsSync(defaults.casesDir) ? defaults.casesDir : join(packageRoot, 'cases');
}

export function parseShard(
  value: string | undefined,
  where: string,
): { index: number; count: number } | null {
  if (value === undefined) return null;
  const m = /^(\d+)\/(\d+)$/.exec(value);
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || count < 1 || index < 1 || index > count)
    throw new ConfigError(where, '--shard', `must be i/n with 1 ≤ i ≤ n (got "${value}")`);
  return { index, count };
}

class Checker {
  constructor(readonly file: string) {}
  fail(field: string, detail: string, got: unknown): never {
    throw new ConfigError(this.file, field, `${detail} (got ${JSON.stringify(got)})`);
  }
  int(v: unknown, field: string): number | undefined {
    if (v === undefined) return undefined;
    if (typeof v !== 'number' || !Number.isInteger(v)) this.fail(field, 'must be an integer', v);
    return v;
  }
  positiveInt(v: unknown, field: string): number | undefined {
    const n = this.int(v, field);
    if (n !== undefined && n < 1) this.fail(field, 'must be a positive integer', v);
    return n;
  }
  share(v: unknown, field: string): number | undefined {
    if (v === undefined) return undefined;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 1)
      this.fail(field, 'must be a number from 0 to 1', v);
    return v;
  }
  string(v: unknown, field: string): string | undefined {
    if (v === undefined) return undefined;
    if (typeof v !== 'string' || v === '') this.fail(field, 'must be a non-empty string', v);
    return v;
  }
  stringArray(v: unknown, field: string): string[] | undefined {
    if (v === undefined) return undefined;
    if (!Array.isArray(v) || v.some((x) => typeof x !== 'string'))
      this.fail(field, 'must be an array of strings', v);
    return v;
  }
  /** An object whose every value is a non-empty string (suite id → criterion). */
  stringRecord(v: unknown, field: string): Record<string, string> | undefined {
    const r = this.record(v as object | undefined, field) as Record<string, unknown> | undefined;
    if (r === undefined) return undefined;
    for (const [k, x] of Object.entries(r)) this.string(x, `${field}.${k}`);
    return r as Record<string, string>;
  }
  record<T extends object>(v: T | undefined, field: string): T | undefined {
    if (v === undefined) return undefined;
    if (typeof v !== 'object' || v === null || Array.isArray(v)) this.fail(field, 'must be an object', v);
    return v;
  }
}
