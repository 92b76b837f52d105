import type { ParamSpec, ParamValue, ParamsOf, Strategy, TypedParamSpec } from '../harness/core/index.ts';
import { InputError } from '../harness/core/errors.ts';

/** A strategy's param specs, keyed by param name. */
export type ParamSpecs = Record<string, TypedParamSpec>;

/**
 * What defineStrategy takes: a strategy whose params' type is inferred from its spec. An enum's default
 * must be one of its values.
 */
export type StrategyDefinition<S extends ParamSpecs> = Omit<Strategy<ParamsOf<S>>, 'params'> & {
  params: S & { [K in keyof S]: { default: ParamValue<S[K]> } };
};

/**
 * Typed identity helper: a strategy is a plain object (name, params with defaults, prepare). The
 * params `prepare` receives are typed from the spec — `{ n: { type: 'number', default: 3, … } }` gives
 * `params.n: number`, an enum the union of its values — so no twin type is written by hand.
 */
export function defineStrategy<const S extends ParamSpecs>(
  strategy: StrategyDefinition<S>,
): Strategy<ParamsOf<S>> {
  return strategy;
}

/** Typed identity helper for a spec shared by a strategy and its helpers: `ParamsOf<typeof spec>` types them. */
export function defineParams<const S extends ParamSpecs>(specs: S): S {
  return specs;
}

/** Defaults < given params; unknown names and wrong types fail with the valid list. */
export function resolveParams(
  strategy: Strategy<any>,
  given: Record<string, unknown> = {},
  where = `strategy ${strategy.name}`,
): Record<string, unknown> {
  const specs = strategy.params as Record<string, ParamSpec>;
  const out: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(specs)) out[name] = spec.default;
  for (const [name, value] of Object.entries(given)) {
    const spec = specs[name];
    if (!spec)
      throw new InputError(
        'unknown_param',
        `${where}: unknown param "${name}"; valid: ${Object.keys(specs).join(', ') || '(none)'}`,
      );
    out[name] = coerce(value, spec, `${where}: param ${name}`);
  }
  return out;
}

/** Every problem of the given params against the strategy's spec (unknown names, wrong types), not just the first. */
export function paramProblems(
  strategy: Strategy<any>,
  given: Record<string, unknown> = {},
): { param: string; detail: string }[] {
  const specs = strategy.params as Record<string, ParamSpec>;
  const out: { param: string; detail: string }[] = [];
  for (const [name, value] of Object.entries(given)) {
    const spec = specs[name];
    if (!spec) {
      out.push({ param: name, detail: `unknown param; valid: ${Object.keys(specs).join(', ') || '(none)'}` });
      continue;
    }
    try {
      coerce(value, spec, '');
    } catch (err) {
      out.push({ param: name, detail: (err as Error).message.replace(/^: /, '') });
    }
  }
  return out;
}

/** Accepts CLI strings ("1500", "true") as well as typed values. */
function coerce(value: unknown, spec: ParamSpec, where: string): unknown {
  switch (spec.type) {
    case 'number': {
      const n = typeof value === 'string' ? Number(value) : value;
      if (typeof n !== 'number' || !Number.isFinite(n))
        throw new InputError('bad_param', `${where}: must be a number (got ${JSON.stringify(value)})`);
      return n;
    }
    case 'boolean': {
      if (value === 'true' || value === true) return true;
      if (value === 'false' || value === false) return false;
      throw new InputError('bad_param', `${where}: must be true or false (got ${JSON.stringify(value)})`);
    }
    case 'enum':
      if (typeof value !== 'string' || !spec.values?.includes(value))
        throw new InputError(
          'bad_param',
          `${where}: must be one of ${spec.values?.join(', ')} (got ${JSON.stringify(value)})`,
        );
      return value;
    default:
      if (typeof value !== 'string')
        throw new InputError('bad_param', `${where}: must be a string (got ${JSON.stringify(value)})`);
      return value;
  }
}
