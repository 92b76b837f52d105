import type { Handoff, ModelResponse, ParamSpec, Strategy, StrategyContext } from '../core/index.ts';
import type { CheckOptions, CheckReport, InvariantName } from './types.ts';
import { invariantNames, shippedCases, shippedTranscripts } from './types.ts';
import { HarnessError, InputError } from '../core/errors.ts';
import { countTokens } from '../core/tokens.ts';
import { resolveConfig } from '../config/resolve-config.ts';
import { createCallPath, type CallPath } from '../calls/call-path.ts';
import { createSimProvider } from '../providers/sim/index.ts';
import { getStrategy } from '../../strategies/index.ts';
import { resolveParams } from '../../strategies/define.ts';
import { trackCalls } from '../../strategies/finish.ts';
import { deepFreeze } from '../../strategies/spawn.ts';
import { kitInputs, type KitInput } from './inputs.ts';
import * as check from './invariants.ts';
import { retention, superset, unmarkedCuts } from './coverage.ts';

const UNLIMITED = 1e12;

interface Env {
  strategy: Strategy<any>;
  calls: CallPath;
  report: CheckReport;
  budgets: number[];
  maxFailures: number;
}

/** checkStrategy's body: every params variant × input × budget, each handoff through every invariant. */
export async function runKit(given: Strategy<any> | string, o: CheckOptions): Promise<CheckReport> {
  const strategy =
    typeof given === 'string' ? getStrategy(given, o.strategies ?? {}, 'check-strategy') : given;
  checkShape(strategy);
  const variants = o.params
    ? [resolveParams(strategy, o.params, `check-strategy ${strategy.name}`)]
    : paramVariants(strategy, o.variants ?? true);
  const inputs = deepFreeze(
    await kitInputs({
      transcripts: o.transcripts ?? [shippedTranscripts],
      casesDirs: o.casesDirs ?? [shippedCases],
      generated: o.generated ?? 12,
      seed: o.seed ?? 1,
    }),
  );
  const config = resolveConfig({ seed: o.seed ?? 1, cache: false, sim: o.sim ?? {} });
  const env: Env = {
    strategy,
    calls: createCallPath({
      config,
      providers: { sim: createSimProvider(o.sim) },
      cache: null,
      runId: 'check-strategy',
      onCall: () => {},
    }),
    report: { ...emptyReport(strategy.name, variants, inputs), declared: { ...strategy.declares } },
    budgets: o.budgets ?? [200_000, 6_000],
    maxFailures: o.maxFailures ?? 100,
  };
  outer: for (const params of variants)
    for (const input of inputs) {
      await checkInput(env, params, input);
      if (env.report.failures.length >= env.maxFailures) break outer;
    }
  const r = env.report;
  if (r.handoffs === 0 && r.errored.length > 0)
    r.failures.push({
      invariant: 'prepares',
      params: variants[0]!,
      input: `all ${r.errored.length} inputs`,
      detail: `prepare() raised an error on every input (first: ${r.errored[0]!.error}); nothing could be checked`,
    });
  r.passed = r.failures.length === 0;
  return r;
}

async function checkInput(env: Env, params: Record<string, unknown>, input: KitInput): Promise<void> {
  const s = env.strategy;
  const fail = (problems: check.Problem[], budget?: number) => {
    for (const p of problems)
      env.report.failures.push({
        ...p,
        params,
        input: budget === undefined ? input.label : `${input.label} at ${budget} tokens`,
      });
  };
  const count = (name: InvariantName) => env.report.checked[name]++;
  let first: Handoff | undefined;
  for (const budget of env.budgets) {
    const built = await build(env, params, input, budget, 0);
    count('prepares');
    if ('error' in built) {
      fail(built.error, budget);
      if (s.deterministic) count('deterministic');
      return;
    }
    if (!built.handoff) return; // an error row's outcome, recorded in `errored`
    const h = built.handoff;
    env.report.handoffs++;
    first ??= h;
    const held = (n: keyof NonNullable<Strategy['declares']>) => s.declares?.[n] === undefined;
    if (held('pairing')) fail(check.pairing(h), budget);
    if (held('markers')) fail(check.markers(h), budget);
    if (held('stats')) fail(check.stats(input.case, h, built.made), budget);
    if (held('tools-served')) fail(check.toolsServed(h), budget);
    for (const n of ['pairing', 'markers', 'stats', 'tools-served'] as const) if (held(n)) count(n);
    if (check.marksCuts(s, params) && held('cuts-marked')) {
      fail(unmarkedCuts(input.case, h, built.made), budget);
      count('cuts-marked');
    }
  }
  if (!first) return;
  const again = await build(env, params, input, env.budgets[0]!, 0);
  count('same-inputs');
  if ('handoff' in again && again.handoff)
    fail(
      check.difference(first, again.handoff, 'same-inputs', 'between two preparations with the same inputs'),
    );
  if (s.deterministic) {
    const rep = await build(env, params, input, env.budgets[0]!, 1);
    count('deterministic');
    if ('handoff' in rep && rep.handoff)
      fail(
        check.difference(
          first,
          rep.handoff,
          'deterministic',
          'between rep 0 and rep 1 of a deterministic strategy',
        ),
      );
  }
  await checkDeclared(env, params, input, fail, count);
}

/** `superset` and `retention`, where declared: at an unlimited budget, for return and escalation cases. */
async function checkDeclared(
  env: Env,
  params: Record<string, unknown>,
  input: KitInput,
  fail: (p: check.Problem[], budget?: number) => void,
  count: (n: InvariantName) => void,
): Promise<void> {
  if (input.case.direction === 'spawn') return;
  const s = env.strategy;
  const wantsSuperset = check.declared(s.properties?.superset, params) === true;
  const policy = check.declared(s.properties?.retention, params);
  if (!wantsSuperset && !policy) return;
  const built = await build(env, params, input, UNLIMITED, 0);
  if (!('handoff' in built) || !built.handoff) return;
  if (wantsSuperset) {
    fail(superset(input.case, built.handoff), UNLIMITED);
    count('superset');
  }
  if (policy) {
    fail(retention(input.case, built.handoff, policy), UNLIMITED);
    count('retention');
  }
}

type Built = { handoff: Handoff | null; made: ModelResponse[] } | { error: check.Problem[] };

/** One preparation with a fresh context (its own call counters: the same inputs ask the same calls). */
async function build(
  env: Env,
  params: Record<string, unknown>,
  input: KitInput,
  budgetTokens: number,
  rep: number,
): Promise<Built> {
  const s = env.strategy;
  const aliases = { source: 'large', receiver: 'large' };
  const cell = {
    cellId: `check/${input.case.id}`,
    caseId: input.case.id,
    rep,
    aliases,
    made: [] as { response: ModelResponse }[],
  };
  const ctx: StrategyContext = {
    case: input.case,
    arm: { name: 'check', strategy: s.name, params, models: aliases },
    rep,
    budgetTokens,
    tokens: countTokens,
    call: trackCalls(env.calls.forCell(cell as never)),
  };
  if (s.deterministic) ctx.call = () => Promise.reject(new DeterministicCall(s.name));
  try {
    const handoff = await s.prepare(ctx, params);
    return { handoff, made: cell.made.map((m) => m.response) };
  } catch (err) {
    if (err instanceof DeterministicCall)
      return { error: [{ invariant: 'deterministic', detail: err.message }] };
    if (err instanceof HarnessError) {
      env.report.errored.push({ input: input.label, params, error: `${err.code}: ${err.message}` });
      return { handoff: null, made: [] };
    }
    const e = err as Error;
    const where =
      e?.stack
        ?.split('\n')
        .find((l) => /^\s+at /.test(l))
        ?.trim() ?? '';
    return {
      error: [
        {
          invariant: 'prepares',
          detail: `prepare() threw ${e?.name ?? 'an error'}: ${e?.message ?? String(err)} ${where}`.trim(),
        },
      ],
    };
  }
}

class DeterministicCall extends Error {
  constructor(name: string) {
    super(`strategy "${name}" is declared deterministic but asked for a model call`);
  }
}

/** The defaults, then each other value of every enum and boolean param, one at a time. */
function paramVariants(s: Strategy<any>, others: boolean): Record<string, unknown>[] {
  const base = resolveParams(s, {});
  const out = [base];
  if (!others) return out;
  for (const [name, spec] of Object.entries(s.params as Record<string, ParamSpec>)) {
    const values =
      spec.type === 'boolean' ? [true, false] : spec.type === 'enum' ? [...(spec.values ?? [])] : [];
    for (const v of values) if (v !== spec.default) out.push({ ...base, [name]: v });
  }
  return out;
}

/** A strategy the kit can run: a name, a prepare function, params each with a valid default. */
function checkShape(s: Strategy<any>): void {
  const name = typeof s?.name === 'string' && s.name ? s.name : '(unnamed)';
  const bad = (detail: string): never => {
    throw new InputError('bad_strategy', `strategy ${name}: ${detail}`);
  };
  if (typeof s !== 'object' || s === null) bad('not a strategy object (use defineStrategy({...}))');
  if (name === '(unnamed)') bad('name: must be a non-empty string');
  if (typeof s.prepare !== 'function') bad('prepare: must be a function (ctx, params) => Promise<Handoff>');
  if (typeof s.params !== 'object' || s.params === null) bad('params: must be an object (use {} for none)');
  for (const [p, spec] of Object.entries(s.params as Record<string, ParamSpec>)) {
    if (!['number', 'boolean', 'string', 'enum'].includes(spec?.type))
      bad(`params.${p}.type: must be number, boolean, string or enum`);
    try {
      resolveParams(s, { [p]: spec.default });
    } catch (err) {
      bad(`params.${p}.default: ${(err as Error).message.replace(/^.*?: param [^:]+: /, '')}`);
    }
  }
}

function emptyReport(
  name: string,
  variants: Record<string, unknown>[],
  inputs: readonly KitInput[],
): CheckReport {
  const kinds = { transcripts: 0, cases: 0, generated: 0 };
  const seen = new Set<string>();
  for (const i of inputs) {
    const source = i.kind === 'cases' ? i.label : i.label.replace(/ \([^)]*\)$/, '');
    if (!seen.has(source)) kinds[i.kind]++;
    seen.add(source);
  }
  return {
    strategy: name,
    variants,
    handoffs: 0,
    inputs: kinds,
    checked: Object.fromEntries(invariantNames.map((n) => [n, 0])) as Record<InvariantName, number>,
    errored: [],
    failures: [],
    declared: {},
    passed: false,
  };
}
