import type { ChatMessage, ModelResponse, StrategyContext, Transcript } from '../harness/core/index.ts';
import { defineStrategy } from './define.ts';
import { attachReturn, finishHandoff, receiverHistory, simHintsOf, toChat } from './compose.ts';
import { framings } from './framing.ts';

/**
 * Ledgerline's free-form summary: a final turn asks the SOURCE model to summarise its findings in under
 * `maxTokens` tokens, with its own transcript as its history; the summary text is what the receiver
 * gets — the result of its pending spawn call for a return, the handed-over summary for an escalation.
 * With several sources (multi-child), each child summarises its own work. What survives is up to the
 * source model's compression, which is the point of the arm: confident claims survive, caveats
 * mostly do not (ledgerline: 96% / 31% / 24%).
 */
export const summary = defineStrategy({
  name: 'summary',
  description: 'The source model summarises its own findings in under N tokens; the summary is handed over.',
  seed: 'ledgerline: "a final turn asking the child to summarise its findings in under 400 tokens"',
  params: {
    maxTokens: {
      type: 'number',
      default: 400,
      description:
        "the summary budget named in the request and set as the call's max tokens (ledgerline: under 400 tokens)",
    },
  },
  async prepare(ctx, params) {
    const sources = ctx.case.sources ?? [ctx.case.source];
    const calls: ModelResponse[] = [];
    for (const source of sources) calls.push(await summarise(ctx, source, params.maxTokens));
    const texts = calls.map(
      (r, i) =>
        (sources.length > 1
          ? `Child ${i + 1} of ${sources.length}${sources[i]!.id ? ` (${sources[i]!.id})` : ''}:\n`
          : '') + r.text.trim(),
    );
    const payload = texts.join('\n\n');
    const history = receiverHistory(ctx);
    const returning = ctx.case.direction === 'return';
    const messages: ChatMessage[] = returning
      ? attachReturn(history, payload, 'Summary returned by the research child:')
      : [
          ...history,
          { role: 'user', text: `Summary of the work so far, handed over by the other agent:\n\n${payload}` },
        ];
    return finishHandoff(ctx, {
      system: returning ? framings.parent : framings.continuity,
      messages,
      payload,
      retained: 0,
      dropped: sources.reduce((n, s) => n + s.messages.length, 0),
      calls,
      artifacts: { summary: payload },
    });
  },
});

export const summaryRequest = (maxTokens: number) =>
  `Summarise your findings in under ${maxTokens} tokens for the agent that will act on them.`;

async function summarise(
  ctx: StrategyContext,
  source: Transcript,
  maxTokens: number,
): Promise<ModelResponse> {
  return ctx.call('source', {
    purpose: 'summarize',
    messages: [...source.messages.map(toChat), { role: 'user', text: summaryRequest(maxTokens) }],
    maxTokens,
    cachePrefix: source.messages.length,
    sim: simHintsOf(ctx.case),
  });
}
