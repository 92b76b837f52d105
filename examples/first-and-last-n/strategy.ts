import {
  attachReturn,
  defineStrategy,
  finishHandoff,
  framings,
  receiverHistory,
  renderTranscript,
  viewOf,
  type Transcript,
} from 'handoff-eval';

/**
 * "First and last N": a research child returns the first `n` and the last `n` messages of its
 * session — the brief and first steps, the conclusion — as one rendered string, and nothing of the
 * middle but a marker saying how much was left out. What a claim made mid-session (a hedge, say)
 * loses under it is what the example suite measures.
 *
 * The cut falls on segment boundaries (`viewOf(t).segments`: an assistant message together with the
 * messages carrying its tool results), so no tool call is separated from its result.
 */
export const firstAndLastN = defineStrategy({
  name: 'first-and-last-n',
  description:
    'The child returns its first and last n messages as one string; the middle is omitted with a marker.',
  seed: 'examples/first-and-last-n: a truncated return, the middle of the session dropped',
  // No model call and nothing random: the runner builds it once per case × arm.
  deterministic: true,
  params: {
    n: { type: 'number', default: 3, description: 'messages kept at each end (widened to whole segments)' },
  },
  async prepare(ctx, params) {
    const source = ctx.case.source;
    const { head, tail, omitted } = ends(source, Math.max(1, Math.floor(params.n)));
    const marker = `(… ${omitted} message${omitted === 1 ? '' : 's'} of the session omitted …)`;
    const payload = omitted
      ? [renderTranscript({ messages: head }), marker, renderTranscript({ messages: tail })].join('\n\n')
      : renderTranscript(source);
    return finishHandoff(ctx, {
      system: ctx.case.receiverHistory ? framings.parent : framings.continuity,
      // The result of the parent's pending spawn call (or a user message when there is none).
      messages: attachReturn(receiverHistory(ctx), payload, 'The research child returned:'),
      payload,
      markers: omitted ? [{ text: marker, kind: 'middle', dropped: omitted }] : [],
    });
  },
});

/** The first and last `n` messages, each end widened to whole segments; `omitted` counts the rest. */
function ends(t: Transcript, n: number) {
  const { messages } = t;
  const segments = viewOf(t).segments;
  const headEnd = segments.find((s) => s.end >= n)?.end ?? messages.length;
  const fromEnd = messages.length - n;
  const tailStart = Math.max(
    headEnd,
    [...segments].reverse().find((s) => s.start <= fromEnd)?.start ?? headEnd,
  );
  return {
    head: messages.slice(0, headEnd),
    tail: messages.slice(tailStart),
    omitted: tailStart - headEnd,
  };
}
