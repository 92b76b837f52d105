import type {
  ChatMessage,
  ModelResponse,
  ParamsOf,
  StrategyContext,
  Transcript,
} from '../harness/core/index.ts';
import { SubagentContractError } from '../harness/core/errors.ts';
import { defineParams, defineStrategy } from './define.ts';
import { attachReturn, finishHandoff, receiverHistory, simHintsOf, toChat } from './compose.ts';
import { framings } from './framing.ts';
import { researchResultSpec, validateResearchResult, type ResearchResult } from './contract-schema.ts';
import { applyGuards, type GuardFlag } from './contract-guards.ts';
import { mergeContracts } from './contract-merge.ts';
import { createSpanServer, fetchTranscriptSpanSpec, renderContract } from './contract-render.ts';

const contractParams = defineParams({
  maxRetries: {
    type: 'number',
    default: 2,
    description: 'retries after a rejected record before SubagentContractError (ledgerline: max_retries=2)',
  },
  renderBudgetTokens: {
    type: 'number',
    default: 1200,
    description:
      "the parent rendering's budget per child record; only index lists shrink, with markers (ledgerline: ~1.2k tokens; four merged ≈ 5k)",
  },
  transcriptRef: {
    type: 'boolean',
    default: true,
    description: 'store the transcript, set transcript_ref and give the receiver fetch_transcript_span',
  },
  maxTokens: {
    type: 'number',
    default: 2000,
    description: "max output tokens of each contract call (ledgerline's child spent ≈900 filling it)",
  },
});
/** The params prepare receives, inferred from the spec. */
export type ContractParams = ParamsOf<typeof contractParams>;

/**
 * Ledgerline's structured return contract. The source model must return the `research_result` record
 * (strategies/contract-schema.ts, the seed's schema verbatim) as a FORCED tool call; ajv validates it;
 * a rejection goes back to the child as the call's error result with the validator's messages, at most
 * `maxRetries` times, and then the cell fails with a `SubagentContractError` (an error row — never a
 * silent pass). Parent-side guards (strategies/contract-guards.ts) correct and flag what the schema
 * cannot express. The parent receives a deterministic rendering of the record — never the transcript —
 * and, with `transcriptRef`, the transcript stays available on demand through a
 * `fetch_transcript_span(ref, tool_call_id)` tool. With several children (`case.sources`), each fills
 * its own contract and the records are merged mechanically (strategies/contract-merge.ts).
 */
export const structuredContract = defineStrategy({
  name: 'structured-contract',
  description:
    'The source returns a schema-validated research_result record (forced tool call, retries, guards); the receiver gets its rendering and a fetch_transcript_span tool.',
  seed: 'ledgerline: "Specify the fields, and let the schema do the work" — child.run(brief, forced_tool="research_result", max_retries=2); render_for_parent(result) ~1.2k tokens',
  params: contractParams,
  // Live mode: the child knows from its first turn (the seed's effect — "a child which knows it must
  // fill coverage and unresolved spends a little of its reasoning budget on bookkeeping").
  sourceNotice: () => contractNotice,
  async prepare(ctx, params) {
    const sources = ctx.case.sources ?? [ctx.case.source];
    const calls: ModelResponse[] = [];
    const records: ResearchResult[] = [];
    const flags: GuardFlag[] = [];
    const stored: { ref: string; transcript: Transcript }[] = [];
    for (const [i, source] of sources.entries()) {
      const filled = await fillContract(ctx, source, params);
      calls.push(...filled.calls);
      const guarded = applyGuards(filled.result, source);
      const ref = `transcript:${ctx.case.id}${sources.length > 1 ? `#${i + 1}` : ''}`;
      if (params.transcriptRef) {
        guarded.result.transcript_ref = ref;
        stored.push({ ref, transcript: source });
      } else delete guarded.result.transcript_ref;
      records.push(guarded.result);
      flags.push(
        ...guarded.flags.map((f) =>
          sources.length > 1 ? { ...f, detail: `child ${i + 1}: ${f.detail}` } : f,
        ),
      );
    }
    const record = records.length > 1 ? mergeContracts(records) : records[0]!;
    const from =
      sources.length > 1 ? `${sources.length} research children (merged mechanically)` : 'the research child';
    // Each child's record is worth its own budget: four contracts come to about 5k tokens (ledgerline), not 1.2k.
    const rendering = renderContract(record, {
      from,
      budgetTokens: params.renderBudgetTokens * records.length,
      flags,
      transcripts: stored,
    });
    const history = receiverHistory(ctx);
    const messages: ChatMessage[] = attachReturn(
      history,
      rendering.text,
      'Structured result handed over by the other agent:',
    );
    return finishHandoff(ctx, {
      system: ctx.case.direction === 'return' ? framings.parent : framings.continuity,
      messages,
      payload: rendering.text,
      tools: stored.length ? [fetchTranscriptSpanSpec] : [],
      runTool: stored.length ? createSpanServer(stored) : undefined,
      markers: rendering.markers,
      retained: record.findings.length + record.assumptions.length + record.unresolved.length,
      dropped: 0,
      calls,
      artifacts: { contract: record, ...(records.length > 1 ? { contracts: records } : {}), guards: flags },
    });
  },
});

export const contractNotice =
  'When you finish you must return your result as a research_result record (a tool call checked against its schema): ' +
  'findings with provenance and confidence, assumptions, unresolved questions with what would settle them, ' +
  'coverage.searched and coverage.not_searched, and effort (tool_calls, budget_exhausted). Keep track of what you search and what you do not.';

/** The instruction that forces the research_result call at the end of a child's session. */
export const contractRequest =
  'Return your result now by calling research_result. Fill every field: findings (each claim with its provenance — file:line, ' +
  'table.column, or url + retrieved_at — and its confidence: verified, inferred or reported), assumptions (what you had to take ' +
  'as true to proceed), unresolved (each open question with what would settle it), coverage (what you searched and what you did ' +
  'not), and effort (your tool calls, and whether you ran out of budget).';

/**
 * The forced call, validated; a rejection is sent back as the call's error result (the child sees the
 * validator's messages) and the call is retried, at most `maxRetries` times.
 */
export async function fillContract(
  ctx: StrategyContext,
  source: Transcript,
  params: Pick<ContractParams, 'maxRetries' | 'maxTokens'>,
): Promise<{ result: ResearchResult; calls: ModelResponse[] }> {
  const messages: ChatMessage[] = [...source.messages.map(toChat), { role: 'user', text: contractRequest }];
  const calls: ModelResponse[] = [];
  let errors: string[] = [];
  for (let attempt = 0; attempt <= params.maxRetries; attempt++) {
    const res = await ctx.call('source', {
      purpose: 'contract',
      messages: [...messages],
      tools: [researchResultSpec],
      toolChoice: { type: 'tool', name: researchResultSpec.name },
      maxTokens: params.maxTokens,
      cachePrefix: source.messages.length,
      sim: simHintsOf(ctx.case),
    });
    calls.push(res);
    const call = res.toolCalls.find((c) => c.name === researchResultSpec.name);
    errors = call ? validateResearchResult(call.input) : [`no ${researchResultSpec.name} tool call was made`];
    if (call && errors.length === 0) return { result: call.input as ResearchResult, calls };
    if (call) {
      messages.push({ role: 'assistant', ...(res.text ? { text: res.text } : {}), toolCalls: [call] });
      messages.push({
        role: 'user',
        toolResults: [{ callId: call.id, isError: true, content: rejection(errors) }],
      });
    } else {
      messages.push({ role: 'assistant', text: res.text || '(no tool call)' });
      messages.push({ role: 'user', text: rejection(errors) });
    }
  }
  throw new SubagentContractError(errors, params.maxRetries + 1);
}

function rejection(errors: string[]): string {
  return `research_result rejected by the schema validator:\n${errors.map((e) => `- ${e}`).join('\n')}\nCall research_result again with a complete record.`;
}
