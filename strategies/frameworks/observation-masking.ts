import type { ChatMessage, TruncationMarker } from '../../harness/core/index.ts';
import { defineStrategy } from '../define.ts';
import { finishHandoff } from '../compose.ts';
import { renderMessages } from '../render.ts';
import { answerPending, conversation, framingFor } from './shared.ts';

/**
 * Observation masking (Lindenbauer et al. 2025, "The Complexity Trap: Simple Observation Masking Is as
 * Efficient as LLM Summarization for Agent Context Management", arXiv 2508.21433): the agent's
 * reasoning and actions stay as they were — every text and every tool call — while every observation
 * (tool result) but the last M is replaced by a placeholder. The paper masks with SWE-agent's
 * last-N-observations history processor; its placeholder is "Old environment output: (N lines
 * omitted)", used here with the dropped line count (recorded as a marker, so the cut is never silent).
 * M defaults to the paper's window of 10. The receiver's own history is left alone; the source's work
 * follows it as messages (the receiver's pending spawn call, if any, is answered first).
 */
export const observationMasking = defineStrategy({
  name: 'observation-masking',
  description:
    'Observation masking (arXiv 2508.21433): all reasoning and actions kept, all but the last M tool results replaced by a placeholder.',
  seed: 'paper: Lindenbauer et al. 2025, "The Complexity Trap" (arXiv 2508.21433), observation masking with a window of M observations',
  deterministic: true,
  declares: {
    'spawn-instructions':
      "hands the receiving agent the whole conversation with its roles, as the framework does: on a spawn the parent's own requests reach the child as user turns",
  },
  params: {
    window: {
      type: 'number',
      default: 10,
      description: 'M: how many of the newest observations stay whole (the paper: 10)',
    },
  },
  async prepare(ctx, params) {
    const { history, work } = conversation(ctx);
    const head = answerPending(history, ["The other agent's work follows as messages."]);
    const { messages: masked, markers } = maskObservations(work, Math.max(0, Math.floor(params.window)));
    return finishHandoff(ctx, {
      system: framingFor(ctx),
      messages: [...head, ...masked],
      payload: renderMessages(masked).join('\n\n'),
      payloadMessages: masked,
      markers,
      retained: work.length,
    });
  },
});

/** The placeholder for one masked observation (SWE-agent's last-N-observations template). */
export const maskedObservation = (lines: number): string =>
  `Old environment output: (${lines} lines omitted)`;

/** Every tool result except the newest `keep` replaced by its placeholder; texts and calls untouched. */
export function maskObservations(
  messages: readonly ChatMessage[],
  keep: number,
): { messages: ChatMessage[]; markers: TruncationMarker[] } {
  const total = messages.reduce((n, m) => n + (m.toolResults?.length ?? 0), 0);
  let seen = 0;
  const markers: TruncationMarker[] = [];
  const out = messages.map((m) => {
    if (!m.toolResults?.length) return m;
    const toolResults = m.toolResults.map((r) => {
      seen++;
      if (total - seen < keep) return r;
      const lines = r.content === '' ? 0 : r.content.split('\n').length;
      const text = maskedObservation(lines);
      markers.push({ text, kind: 'observation', dropped: lines });
      return { ...r, content: text };
    });
    return { ...m, toolResults };
  });
  return { messages: out, markers };
}
