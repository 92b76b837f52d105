import { describe, expect, it } from 'vitest';
import type { Message, Transcript } from '../../harness/core/index.ts';
import { getStrategy } from '../../strategies/index.ts';
import { resolveParams } from '../../strategies/define.ts';
import { caseOf, contextFor } from './helpers.ts';
import { renderGolden, scripted } from './golden.ts';

/**
 * Golden renderings, second case (issue 32): a longer session — eight tool turns, one result of 2,400
 * characters — so that the cuts show: a middle dropped or summarised, results capped, a budget too
 * small for the whole session. The strategies that cut or plan, each with its defaults, with a tight
 * token budget, and with the options that make it cut. See renderings.test.ts for how to re-record.
 */
const turn = (i: number): Message[] => [
  {
    role: 'assistant',
    agent: 'child',
    text: i % 3 === 0 ? `Step ${i}: checking the next table.` : undefined,
    toolCalls: [{ id: `k${i}`, name: i % 2 ? 'read_file' : 'query_table', input: { target: `t_${i}` } }],
  },
  {
    role: 'user',
    toolResults: [
      {
        callId: `k${i}`,
        content: i === 4 ? `row ${i}: `.repeat(300) : `result ${i}: merchant m_00${10 + i} pins 2023-10`,
        ...(i === 6 ? { isError: true } : {}),
      },
    ],
  },
];
const source: Transcript = {
  agents: { child: { role: 'child', model: 'large' } },
  messages: [
    { role: 'user', agent: 'parent', text: 'Find merchants affected by the 2023-10 retirement.' },
    ...Array.from({ length: 8 }, (_, i) => turn(i + 1)).flat(),
    {
      role: 'assistant',
      agent: 'child',
      text: 'Eight merchants pin 2023-10.\nI could not determine whether the sandbox adapter uses the same pin.',
    },
  ],
};
const longCase = caseOf(source, {
  id: 'golden-2',
  direction: 'return',
  task: 'Which merchants are affected?',
});

const cutting: Record<string, Record<string, unknown>[]> = {
  'brick-only': [{ contextBudgetChars: 600 }, { contextBudgetChars: 600, turnHeadTail: true, markers: true }],
  'parity-narration': [{ contextBudgetChars: 600 }, { contextBudgetChars: 600, middle: 'summarize' }],
  'structured-contract': [{ renderBudgetTokens: 40 }],
  'observation-masking': [{ window: 2 }],
  inline: [{ replay: 'planned' }],
};

describe('golden renderings of a longer session (issue 32)', () => {
  it.each(Object.keys(cutting))('%s', async (name) => {
    const runs: [Record<string, unknown>, number][] = [
      [{}, 200_000],
      [{}, 400],
      ...(cutting[name] ?? []).map((p): [Record<string, unknown>, number] => [p, 200_000]),
    ];
    const out: string[] = [];
    for (const [params, budgetTokens] of runs) {
      const ctx = contextFor(longCase, { provider: scripted(), budgetTokens });
      const strategy = getStrategy(name);
      const h = await strategy.prepare(ctx, resolveParams(strategy, params));
      out.push(`### budget ${budgetTokens} tokens\n` + renderGolden(params, h, ctx.requests));
    }
    await expect(out.join('\n')).toMatchFileSnapshot(`__renderings__/long/${name}.txt`);
  });
});
