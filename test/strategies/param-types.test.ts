import { describe, expect, expectTypeOf, it } from 'vitest';
import { defineStrategy, resolveParams } from '../../strategies/define.ts';
import { finishHandoff } from '../../strategies/finish.ts';
import type { ContractParams } from '../../strategies/structured-contract.ts';
import type { ParityParams } from '../../strategies/parity-narration.ts';
import { strategies } from '../../strategies/index.ts';

// The type-level half of this file is checked by `tsc --noEmit` (test/ is in tsconfig's include): an
// expectTypeOf that does not hold, or a @ts-expect-error line that compiles, fails the type check.

const spec = {
  n: { type: 'number', default: 3, description: 'a count' },
  on: { type: 'boolean', default: false, description: 'a switch' },
  label: { type: 'string', default: 'x', description: 'a label' },
  mode: { type: 'enum', values: ['drop', 'keep'], default: 'drop', description: 'a choice' },
} as const;

const typed = defineStrategy({
  name: 'typed',
  description: 'params typed from their spec',
  seed: 'test',
  params: spec,
  async prepare(ctx, params) {
    expectTypeOf(params).toEqualTypeOf<{ n: number; on: boolean; label: string; mode: 'drop' | 'keep' }>();
    return finishHandoff(ctx, { system: '', messages: [{ role: 'user', text: params.mode }] });
  },
});

describe('strategy param types are inferred from the param spec', () => {
  it('prepare, sourceNotice and properties see the spec’s types; the reference strategies export theirs', () => {
    expectTypeOf(typed.prepare).parameter(1).toEqualTypeOf<{
      n: number;
      on: boolean;
      label: string;
      mode: 'drop' | 'keep';
    }>();
    expectTypeOf<ParityParams['framing']>().toEqualTypeOf<'auto' | 'owner' | 'continuity' | 'handoff'>();
    expectTypeOf<ParityParams['middle']>().toEqualTypeOf<'drop' | 'summarize'>();
    expectTypeOf<ContractParams>().toEqualTypeOf<{
      maxRetries: number;
      renderBudgetTokens: number;
      transcriptRef: boolean;
      maxTokens: number;
    }>();
    expectTypeOf(strategies['brick-only'].prepare)
      .parameter(1)
      .toHaveProperty('framing')
      .toEqualTypeOf<'handoff' | 'continuity'>();
    // The runtime resolution still agrees with the spec the types come from.
    expect(resolveParams(typed, { n: '5', mode: 'keep' })).toEqual({
      n: 5,
      on: false,
      label: 'x',
      mode: 'keep',
    });
  });

  it('a wrong param type, a default of the wrong type or an enum default outside its values fails to compile', () => {
    defineStrategy({
      name: 'wrong-use',
      description: 'd',
      seed: 'test',
      params: spec,
      async prepare(ctx, params) {
        // @ts-expect-error — n is a number, not a string
        const s: string = params.n;
        // @ts-expect-error — 'summarize' is not one of mode's values
        const m: typeof params.mode = 'summarize';
        // @ts-expect-error — no such param
        void params.missing;
        return finishHandoff(ctx, { system: `${s}${m}`, messages: [] });
      },
    });
    defineStrategy({
      name: 'bad-default',
      description: 'd',
      seed: 'test',
      // @ts-expect-error — a number param with a string default
      params: { n: { type: 'number', default: 'three', description: 'a count' } },
      prepare: (ctx) => Promise.resolve(finishHandoff(ctx, { system: '', messages: [] })),
    });
    defineStrategy({
      name: 'bad-enum-default',
      description: 'd',
      seed: 'test',
      params: {
        // @ts-expect-error — the default is not one of the values
        mode: { type: 'enum', values: ['drop', 'keep'], default: 'summarize', description: 'a choice' },
      },
      prepare: (ctx) => Promise.resolve(finishHandoff(ctx, { system: '', messages: [] })),
    });
    defineStrategy({
      name: 'bad-properties',
      description: 'd',
      seed: 'test',
      params: spec,
      // @ts-expect-error — marksCuts must return a boolean; label is a string
      properties: { marksCuts: (p) => p.label },
      prepare: (ctx) => Promise.resolve(finishHandoff(ctx, { system: '', messages: [] })),
    });
    expect(typed.name).toBe('typed');
  });
});
