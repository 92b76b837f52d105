import { describe, expect, it } from 'vitest';
import type { ChatMessage, ModelRequest } from '../../harness/core/index.ts';
import { createSimProvider } from '../../harness/providers/sim/index.ts';
import { countTokens } from '../../harness/core/tokens.ts';
import { researchResultSpec, validateResearchResult } from '../../strategies/contract-schema.ts';
import { simHintsOf, toChat } from '../../strategies/compose.ts';
import { summaryRequest } from '../../strategies/summary.ts';
import { miniCase, prepare } from './helpers.ts';
import { indexText } from '../../harness/core/text/cues.ts';
import { readClaim } from '../../harness/core/text/reading.ts';

/** The sim's source-model behaviours the strategies rely on: contract filling, summaries (DESIGN §4). */
async function contractRequest(seed: string, extra: ChatMessage[] = []): Promise<ModelRequest> {
  const c = await miniCase();
  return {
    purpose: 'contract',
    model: 'sim-large',
    seed,
    messages: [...c.source.messages.map(toChat), { role: 'user', text: 'Return research_result.' }, ...extra],
    tools: [researchResultSpec],
    toolChoice: { type: 'tool', name: 'research_result' },
    maxTokens: 2000,
    sim: simHintsOf(c),
  };
}

describe('sim: filling a contract (purpose contract)', () => {
  it('files what it can see by kind, with provenance from its context, and is deterministic per seed', async () => {
    const sim = createSimProvider({ sizes: { large: { contractOmitField: 0, contractSlotCaveat: 1 } } });
    const req = await contractRequest('s/1');
    const a = await sim.generate(req);
    const b = await sim.generate(req);
    expect(a.toolCalls).toEqual(b.toolCalls);
    const r = a.toolCalls[0]!.input as any;
    expect(validateResearchResult(r)).toEqual([]);
    expect(r.findings).toEqual([
      {
        claim: 'Two merchants pin 2023-10 (m_0007, m_0013)',
        provenance: ['merchant_config.api_version'],
        confidence: 'verified',
      },
    ]);
    // Caveats in the sim's own words (wordings.ts), read as the claim with its qualifier.
    const c = await miniCase();
    const byKind = (k: string) => c.assertions.find((x) => x.kind === k)!;
    expect(r.assumptions).toHaveLength(1);
    expect(r.assumptions[0]).not.toBe(byKind('assumption').statement);
    expect(readClaim(indexText(r.assumptions[0]), byKind('assumption'))).toMatchObject({
      present: true,
      qualified: true,
    });
    expect(readClaim(indexText(r.unresolved[0].question), byKind('hedged'))).toMatchObject({
      present: true,
      qualified: true,
    });
    expect(r.coverage.searched).toHaveLength(2);
    expect(r.effort).toEqual({ tool_calls: 2, budget_exhausted: false });
  });

  it('with paraphrase off, files the recorded statements', async () => {
    const sim = createSimProvider({
      paraphrase: false,
      sizes: { large: { contractOmitField: 0, contractSlotCaveat: 1 } },
    });
    const r = (await sim.generate(await contractRequest('s/1'))).toolCalls[0]!.input as any;
    expect(r.assumptions).toEqual([
      'Assuming the api_version column is authoritative and not overridden per request',
    ]);
    expect(r.unresolved[0].question).toContain('I could not determine whether the sandbox adapter');
  });

  it('a caveat not filed in its slot becomes a verified finding with the qualifier gone (contractSlotCaveat)', async () => {
    const sim = createSimProvider({ sizes: { large: { contractOmitField: 0, contractSlotCaveat: 0 } } });
    const r = (await sim.generate(await contractRequest('s/2'))).toolCalls[0]!.input as any;
    expect(r.assumptions).toEqual([]);
    expect(r.unresolved).toEqual([]);
    expect(r.findings.map((f: any) => f.claim)).toContain('the sandbox adapter uses the same version pin');
  });

  it('omits a field with contractOmitField, and after a rejection naming it never omits that field again', async () => {
    const sim = createSimProvider({ sizes: { large: { contractOmitField: 1 } } });
    const first = await sim.generate(await contractRequest('s/3'));
    const errors = validateResearchResult(first.toolCalls[0]!.input);
    expect(errors).toHaveLength(1);
    const field = /'(\w+)'/.exec(errors[0]!)![1]!;
    const retry = await contractRequest('s/4', [
      { role: 'assistant', toolCalls: first.toolCalls },
      {
        role: 'user',
        toolResults: [
          {
            callId: first.toolCalls[0]!.id,
            isError: true,
            content: `research_result rejected:\n- ${errors[0]}`,
          },
        ],
      },
    ]);
    const second = (await sim.generate(retry)).toolCalls[0]!;
    expect(second.id).toBe('research_result_1');
    expect(second.input).toHaveProperty(field);
  });
});

describe('summary: the source model summarises its own findings', () => {
  it('asks the source model, with its transcript as its own history, for under N tokens, and hands the text over as the spawn call’s result', async () => {
    const c = await miniCase();
    const { scriptedProvider } = await import('./helpers.ts');
    const provider = scriptedProvider([() => ({ text: '- Two merchants pin 2023-10 (m_0007, m_0013)' })]);
    const h = await prepare('summary', c, {}, { provider });
    const req = provider.seen[0]!;
    expect(req.purpose).toBe('summarize');
    expect(req.maxTokens).toBe(400);
    expect(req.messages.slice(0, -1)).toEqual(c.source.messages.map(toChat));
    expect(req.messages.at(-1)!.text).toBe(summaryRequest(400));
    expect(h.messages.at(-1)!.toolResults![0]).toEqual({
      callId: 'spawn_1',
      content: '- Two merchants pin 2023-10 (m_0007, m_0013)',
    });
    expect(h.payload).toBe('- Two merchants pin 2023-10 (m_0007, m_0013)');
    expect(h.stats).toMatchObject({ calls: 1, inputTokens: 10, outputTokens: 5, latencyMs: 7 });
  });

  it('with the sim, the summary stays under its budget', async () => {
    const h = await prepare('summary', await miniCase(), { maxTokens: 30 });
    expect(countTokens(h.payload)).toBeLessThanOrEqual(30);
    expect(h.payload).toContain('m_0007');
  });
});
