import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';

const int = { type: 'integer', minimum: 0 } as const;
const num = { type: 'number' } as const;
const numOrNull = { type: ['number', 'null'] } as const;
const strings = { type: 'array', items: { type: 'string' } } as const;
const interval = {
  oneOf: [{ type: 'null' }, { type: 'array', items: num, minItems: 2, maxItems: 2 }],
} as const;

const scoredCell = {
  type: 'object',
  required: ['case_id', 'rep', 'value'],
  additionalProperties: false,
  properties: { case_id: { type: 'string' }, rep: int, value: numOrNull },
} as const;

const criterion = {
  type: 'object',
  required: ['n', 'unscored', 'mean', 'ci', 'cells'],
  properties: {
    n: int,
    unscored: int,
    mean: numOrNull,
    ci: interval,
    cells: { type: 'array', items: scoredCell },
  },
} as const;

const arm = {
  type: 'object',
  required: ['arm', 'strategy', 'params', 'cells', 'ok', 'errors', 'errorRate', 'tokens', 'scores'],
  properties: {
    arm: { type: 'string', minLength: 1 },
    strategy: { type: 'string' },
    params: { type: 'object' },
    mode: { type: 'string', minLength: 1 },
    models: {
      type: 'object',
      required: ['source', 'receiver', 'judge'],
      properties: { source: strings, receiver: strings, judge: strings },
    },
    cells: int,
    ok: int,
    errors: int,
    errorRate: { type: 'number', minimum: 0, maximum: 1 },
    tokens: {
      type: 'object',
      required: ['handoff', 'windowAfter'],
      properties: { handoff: numOrNull, windowAfter: numOrNull },
    },
    scores: { type: 'object', additionalProperties: criterion },
  },
} as const;

const suite = {
  type: 'object',
  required: ['suite', 'baselineArm', 'cases', 'reps', 'criteria', 'arms'],
  properties: {
    suite: { type: 'string', minLength: 1 },
    baselineArm: { type: 'string' },
    cases: int,
    reps: int,
    criteria: strings,
    arms: { type: 'array', items: arm },
  },
} as const;

const identity = {
  type: 'object',
  required: ['runId', 'seed', 'harnessVersion', 'simulated', 'models', 'suites'],
  properties: {
    runId: { type: 'string' },
    seed: { type: ['integer', 'null'] },
    harnessVersion: { type: 'string' },
    simulated: { type: 'boolean' },
    models: {
      type: 'object',
      required: ['source', 'receiver', 'judge'],
      properties: { source: strings, receiver: strings, judge: strings },
    },
    suites: {
      type: 'array',
      items: {
        type: 'object',
        required: ['suite', 'arms'],
        properties: { suite: { type: 'string' }, arms: strings },
      },
    },
  },
} as const;

const baselineSchema = {
  type: 'object',
  required: ['schema', 'identity', 'suites'],
  properties: { schema: { type: 'string' }, identity, suites: { type: 'array', items: suite } },
} as const;

/** Compiled on first use, by the commands that read a baseline. */
let validate: ValidateFunction | undefined;

/** The first structural problem of a baseline file as "field: what is wrong", or null when it is sound. */
export function validateBaselineShape(value: unknown): string | null {
  validate ??= new Ajv({ allErrors: false, strict: false }).compile(baselineSchema);
  if (!validate(value)) return describe(validate.errors?.[0]);
  const b = value as { suites: { suite: string; arms: { arm: string }[] }[] };
  const seen = new Set<string>();
  for (const [i, s] of b.suites.entries()) {
    if (seen.has(s.suite)) return `suites[${i}].suite: "${s.suite}" appears twice`;
    seen.add(s.suite);
    const arms = new Set<string>();
    for (const [j, a] of s.arms.entries()) {
      if (arms.has(a.arm)) return `suites[${i}].arms[${j}].arm: "${a.arm}" appears twice`;
      arms.add(a.arm);
    }
  }
  return null;
}

function describe(e: ErrorObject | undefined): string {
  if (!e) return '(root): invalid';
  const field = e.instancePath
    ? e.instancePath
        .slice(1)
        .replace(/\/(\d+)(?=\/|$)/g, '[$1]')
        .replace(/\//g, '.')
    : '(root)';
  return `${field}: ${e.message ?? 'invalid'}`;
}
