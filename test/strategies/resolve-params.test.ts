import { describe, expect, it } from 'vitest';
import { defineStrategy, paramProblems, resolveParams } from '../../strategies/define.ts';
import { finishHandoff } from '../../strategies/finish.ts';
import { InputError } from '../../harness/core/errors.ts';

/**
 * A strategy's params as a config or the CLI gives them (issue 32): the defaults, the CLI's strings,
 * and every malformed value refused with a message naming the strategy, the param and the value.
 */
const s = defineStrategy({
  name: 'typed',
  description: 'd',
  seed: 'test',
  params: {
    n: { type: 'number', default: 3, description: 'a count' },
    on: { type: 'boolean', default: false, description: 'a switch' },
    label: { type: 'string', default: 'x', description: 'a label' },
    mode: { type: 'enum', values: ['drop', 'keep'], default: 'drop', description: 'a choice' },
  },
  prepare: (ctx) => Promise.resolve(finishHandoff(ctx, { system: '', messages: [] })),
});
const none = defineStrategy({
  name: 'bare',
  description: 'd',
  seed: 'test',
  params: {},
  prepare: (ctx) => Promise.resolve(finishHandoff(ctx, { system: '', messages: [] })),
});

const refused = (given: Record<string, unknown>, where?: string) => {
  try {
    resolveParams(s, given, where);
  } catch (err) {
    expect(err).toBeInstanceOf(InputError);
    return [(err as InputError).code, (err as Error).message];
  }
  throw new Error('accepted');
};

describe('resolveParams', () => {
  it('defaults, then the given values; CLI strings are read as their type', () => {
    expect(resolveParams(s)).toEqual({ n: 3, on: false, label: 'x', mode: 'drop' });
    expect(resolveParams(s, { n: '1500', on: 'true', label: 'y', mode: 'keep' })).toEqual({
      n: 1500,
      on: true,
      label: 'y',
      mode: 'keep',
    });
    expect(resolveParams(s, { n: 0, on: true })).toMatchObject({ n: 0, on: true });
    expect(resolveParams(s, { on: 'false' }).on).toBe(false);
    expect(resolveParams(s, { on: false }).on).toBe(false);
  });

  it.each([
    [{ n: 'many' }, 'bad_param', 'strategy typed: param n: must be a number (got "many")'],
    [{ n: 'Infinity' }, 'bad_param', 'strategy typed: param n: must be a number (got "Infinity")'],
    [{ n: true }, 'bad_param', 'strategy typed: param n: must be a number (got true)'],
    [{ on: 'yes' }, 'bad_param', 'strategy typed: param on: must be true or false (got "yes")'],
    [{ on: 1 }, 'bad_param', 'strategy typed: param on: must be true or false (got 1)'],
    [{ label: 5 }, 'bad_param', 'strategy typed: param label: must be a string (got 5)'],
    [
      { mode: 'summarize' },
      'bad_param',
      'strategy typed: param mode: must be one of drop, keep (got "summarize")',
    ],
    [{ mode: 1 }, 'bad_param', 'strategy typed: param mode: must be one of drop, keep (got 1)'],
    [{ size: 1 }, 'unknown_param', 'strategy typed: unknown param "size"; valid: n, on, label, mode'],
  ])('refuses %j', (given, code, message) => {
    expect(refused(given)).toEqual([code, message]);
  });

  it('names the field it is told to, and says "(none)" for a strategy without params', () => {
    expect(refused({ n: 'x' }, 'arms[0].params')).toEqual([
      'bad_param',
      'arms[0].params: param n: must be a number (got "x")',
    ]);
    expect(() => resolveParams(none, { n: 1 })).toThrow('strategy bare: unknown param "n"; valid: (none)');
  });
});

describe('paramProblems: every problem, not just the first', () => {
  it('lists each unknown or mistyped param with its reason, and none for good ones', () => {
    expect(paramProblems(s, { n: 'x', size: 2, on: 'true', mode: 'nope' })).toEqual([
      { param: 'n', detail: 'must be a number (got "x")' },
      { param: 'size', detail: 'unknown param; valid: n, on, label, mode' },
      { param: 'mode', detail: 'must be one of drop, keep (got "nope")' },
    ]);
    expect(paramProblems(s)).toEqual([]);
    expect(paramProblems(none, { a: 1 })).toEqual([{ param: 'a', detail: 'unknown param; valid: (none)' }]);
  });
});
