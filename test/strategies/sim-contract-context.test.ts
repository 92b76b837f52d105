import { describe, expect, it } from 'vitest';
import type { Case, Message } from '../../harness/core/index.ts';
import { createSimProvider } from '../../harness/providers/sim/index.ts';
import { researchResultSpec, validateResearchResult } from '../../strategies/contract-schema.ts';
import { contractRequest as contractPrompt } from '../../strategies/structured-contract.ts';
import { simHintsOf, toChat } from '../../strategies/compose.ts';
import { miniCase, prepare } from './helpers.ts';

/**
 * The sim's structured-contract child fills every slot from what its own context shows — never from
 * the case's reference, which it may use only to recognise what it reads. An empty context gives an
 * empty contract, and the parent-side guards then flag it.
 */
const places = ['the infra repository', 'webhook handlers'];

async function caseWith(messages: (c: Case) => readonly Message[]): Promise<Case> {
  const c = await miniCase();
  return {
    ...c,
    reference: { ...c.reference, notSearched: places },
    source: { ...c.source, messages: messages(c) },
  };
}

async function fill(c: Case) {
  const sim = createSimProvider({ sizes: { large: { contractOmitField: 0 } } });
  const res = await sim.generate({
    purpose: 'contract',
    model: 'sim-large',
    seed: 'ctx/1',
    messages: [...c.source.messages.map(toChat), { role: 'user', text: contractPrompt }],
    tools: [researchResultSpec],
    toolChoice: { type: 'tool', name: 'research_result' },
    maxTokens: 2000,
    sim: simHintsOf(c),
  });
  const record = res.toolCalls[0]!.input as Record<string, any>;
  expect(validateResearchResult(record)).toEqual([]);
  return record;
}

describe('sim contract child: only what its context shows', () => {
  it('an empty context gives an empty contract in every slot', async () => {
    const record = await fill(await caseWith(() => []));
    expect(record).toEqual({
      findings: [],
      assumptions: [],
      unresolved: [],
      coverage: { searched: [], not_searched: [] },
      effort: { tool_calls: 0, budget_exhausted: true },
    });
  });

  it('counts only the calls that ran: one refused for the budget is neither searched nor a tool call (issue 29 item 8)', async () => {
    const record = await fill(
      await caseWith(() => [
        { role: 'user', text: 'Find the affected merchants.' },
        {
          role: 'assistant',
          agent: 'child',
          toolCalls: [
            { id: 'c1', name: 'read_file', input: { path: 'adapters/a.ts' } },
            { id: 'c2', name: 'read_file', input: { path: 'adapters/b.ts' } },
          ],
        },
        {
          role: 'user',
          toolResults: [
            { callId: 'c1', content: '1\texport const a = 1;' },
            {
              callId: 'c2',
              content: 'the tool-call budget of 1 calls is exhausted; this call was not run',
              isError: true,
            },
          ],
        },
      ]),
    );
    expect(record.coverage.searched).toEqual(['read_file: adapters/a.ts']);
    expect(record.effort).toEqual({ tool_calls: 1, budget_exhausted: true });
  });

  it('names as not searched only the places its transcript says it did not search', async () => {
    const silent = await fill(await caseWith((c) => c.source.messages));
    expect(silent.coverage.not_searched).toEqual([]);
    const said = await fill(
      await caseWith((c) => [
        ...c.source.messages,
        { role: 'assistant', agent: 'child', text: 'Not searched: the infra repository.' },
      ]),
    );
    expect(said.coverage.not_searched).toEqual(['the infra repository']);
  });

  it('through the strategy, the guards flag the empty contract as an early stop', async () => {
    const h = await prepare(
      'structured-contract',
      await caseWith(() => []),
      {},
      {
        sim: { sizes: { large: { contractOmitField: 0 } } },
      },
    );
    const guards = h.artifacts.guards as { guard: string; detail: string }[];
    expect(guards.map((g) => g.guard)).toContain('empty-result');
    const contract = h.artifacts.contract as { coverage: { not_searched: string[] } };
    expect(contract.coverage.not_searched).toEqual([]);
    expect(h.payload).toMatch(/budget exhausted: YES/);
  });
});
