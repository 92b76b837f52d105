import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { defaultSimRates } from '../providers/sim/rates.ts';
import { defaultSimJudge } from '../providers/sim/judge.ts';
import { ConfigError } from '../core/errors.ts';

// The config's one schema (issue 28 item 12): every field a config file may set, checked when it loads
// — a value the run cannot use (a concurrency of 0, a transport it does not have, a sim rate of 5, a
// strategy that is a number) fails there, naming the file and the field, instead of failing every cell
// later. resolve-config.ts keeps its own messages for the fields it has always checked; this schema is
// the rest. `gate` is checked by gate-thresholds.ts (its scopes' rules and messages), functions
// (`providers.<name>.create`, a strategy's hooks) by the code that calls them.

type Schema = Record<string, unknown>;
const posInt: Schema = { type: 'integer', minimum: 1 };
const nonNegInt: Schema = { type: 'integer', minimum: 0 };
const nonNeg: Schema = { type: 'number', minimum: 0 };
const share: Schema = { type: 'number', minimum: 0, maximum: 1 };
const text: Schema = { type: 'string', minLength: 1 };
const object = (properties: Record<string, Schema>, required: string[] = []): Schema => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});
const recordOf = (values: Schema): Schema => ({ type: 'object', additionalProperties: values });

/** A sim rate that is not a probability: its own range (harness/providers/sim/rates.ts documents each). */
const notProbabilities: Record<string, Schema> = {
  contextWindowTokens: posInt,
  parallelReads: posInt,
  referenceTokens: posInt,
  baseMs: nonNeg,
  prefillMsPerToken: nonNeg,
  decodeMsPerToken: nonNeg,
  strength: nonNeg,
  exponent: { type: 'number' },
};

/** The schema of the documented rates, from their defaults: every name known, each in its range. */
function rateSchema(value: unknown, key: string): Schema {
  if (Array.isArray(value)) return { type: 'array', items: rateSchema(value[0], key) };
  if (value && typeof value === 'object')
    return object(Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rateSchema(v, k)])));
  return notProbabilities[key] ?? share;
}

const rates = rateSchema(defaultSimRates.large, 'rates');
const sim = object({
  sizes: object({ small: rates, large: rates, judge: rates }),
  judge: object(Object.fromEntries(Object.keys(defaultSimJudge).map((k) => [k, share]))),
  paraphrase: { type: 'boolean' },
});

const providerSettings = object({
  baseURL: text,
  maxRetries: nonNegInt,
  timeoutMs: posInt,
  concurrency: posInt,
  transport: { enum: ['node', 'fetch'] },
  batch: object({ pollMs: posInt, quietMs: posInt, maxRequests: posInt, maxBytes: posInt }),
  rateLimits: { enum: ['adaptive', 'off'] },
  create: {},
});

const price = object({ input: nonNeg, output: nonNeg, cacheRead: nonNeg, cacheWrite: nonNeg }, [
  'input',
  'output',
]);

export const configSchema: Schema = {
  type: 'object',
  properties: {
    suites: {},
    arms: { type: 'array', items: text },
    reps: posInt,
    seed: { type: 'integer' },
    provider: {
      anyOf: [text, object({ default: text, source: text, receiver: text, judge: text })],
    },
    models: recordOf(recordOf(text)),
    judge: object({
      model: text,
      samples: posInt,
      criteria: { type: 'boolean' },
      classify: { enum: ['auto', 'on', 'off'] },
    }),
    concurrency: posInt,
    budgetTokens: posInt,
    mode: { enum: ['recorded', 'live'] },
    sourceToolBudget: posInt,
    liveInline: { enum: ['replay', 'prefix'] },
    cache: { anyOf: [{ type: 'boolean' }, object({ dir: text })] },
    outDir: text,
    casesDir: text,
    sim,
    providers: recordOf(providerSettings),
    prices: recordOf(price),
    gate: {},
    maxErrorRate: share,
    primaryCriterion: recordOf(text),
    strategies: recordOf({ type: 'object', required: ['name', 'prepare'] }),
    criteria: { type: 'array', items: { type: 'object' } },
    checks: { type: 'array', items: { type: 'object' } },
    reporters: { type: 'array', items: { anyOf: [text, { type: 'object' }] } },
  },
};

let compiled: ValidateFunction | undefined;

/** Checks a config file's export against the schema; the first problem is a ConfigError naming the field. */
export function checkConfigSchema(user: unknown, file: string): void {
  compiled ??= new Ajv({ allErrors: true, strict: false, verbose: true }).compile(configSchema);
  if (compiled(user)) return;
  const e = pick(compiled.errors ?? []);
  if (!e) return;
  const path = e.instancePath.replace(/^\//, '').split('/').filter(Boolean).map(unescape);
  const extra = e.keyword === 'additionalProperties' ? String(e.params.additionalProperty) : undefined;
  const field =
    [...path, ...(extra ? [extra] : [])]
      .map((k, i) => (/^\d+$/.test(k) ? `[${k}]` : i === 0 ? k : `.${k}`))
      .join('') || '(root)';
  throw new ConfigError(file, field, describe(e, user, path));
}

/**
 * The error to show: the first failing field's, and there the deepest (a bad `cache.dir` rather than
 * "cache must match a schema"); an anyOf of plain types reads as "must be boolean or object".
 */
function pick(errors: ErrorObject[]): ErrorObject | undefined {
  const first = errors[0];
  if (!first) return undefined;
  const at = errors.filter(
    (e) => e.instancePath === first.instancePath || e.instancePath.startsWith(`${first.instancePath}/`),
  );
  const deeper = at.filter(
    (e) => e.instancePath !== first.instancePath || !['anyOf', 'type'].includes(e.keyword),
  );
  if (deeper.length > 0) return deeper[0];
  const types = at.filter((e) => e.keyword === 'type').map((e) => String(e.params.type));
  return { ...first, keyword: 'type', message: `must be ${[...new Set(types)].join(' or ')}` };
}

function describe(e: ErrorObject, user: unknown, path: string[]): string {
  const got = path.reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], user);
  const shown = typeof got === 'function' ? 'a function' : JSON.stringify(got);
  if (e.keyword === 'additionalProperties') {
    const valid = Object.keys((e.parentSchema as { properties?: object }).properties ?? {});
    return `unknown field; valid: ${valid.join(', ')}`;
  }
  if (e.keyword === 'enum')
    return `must be one of ${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')} (got ${shown})`;
  if (e.keyword === 'required') return `missing ${String(e.params.missingProperty)} (got ${shown})`;
  return `${e.message ?? 'invalid'} (got ${shown})`;
}

const unescape = (s: string) => s.replace(/~1/g, '/').replace(/~0/g, '~');
