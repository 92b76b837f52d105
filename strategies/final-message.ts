import type { Transcript } from '../harness/core/index.ts';
import { defineStrategy } from './define.ts';
import { attachReturn, finishHandoff, receiverHistory } from './compose.ts';
import { framings } from './framing.ts';
import { lastAssistantText } from '../harness/core/transcript/view.ts';

/**
 * What most agent frameworks return from a sub-agent: its last assistant message, nothing else —
 * Claude Code's Task tool, an OpenAI Agents SDK agent used as a tool, an ADK AgentTool. The message
 * arrives as the result of the receiver's pending spawn call (several children: one result, each
 * child's message under a heading); without a receiver history it is a user message. "Last" is the
 * last assistant message that carries text: a session that ended on a bare tool call returns the
 * text before it, and one with no text at all returns a line saying so.
 */
export const finalMessage = defineStrategy({
  name: 'final-message',
  description:
    "The source agent's last assistant message as the return (the spawn call's result), nothing else.",
  seed: 'ledgerline: the parent receives only what the child says at the end (the baseline every return ablation wants; DESIGN §8)',
  deterministic: true,
  params: {},
  async prepare(ctx) {
    const sources = ctx.case.sources ?? [ctx.case.source];
    const parts = sources.map(
      (s, i) =>
        (sources.length > 1 ? `=== child ${i + 1} of ${sources.length}: ${s.id ?? ''} ===\n` : '') +
        finalText(s),
    );
    const payload = parts.join('\n\n');
    const messages = attachReturn(receiverHistory(ctx), payload, "The other agent's final message:");
    return finishHandoff(ctx, {
      system: ctx.case.direction === 'return' ? framings.parent : framings.continuity,
      messages,
      payload,
      retained: sources.length,
      dropped: sources.reduce((n, s) => n + s.messages.length, 0) - sources.length,
    });
  },
});

const NO_TEXT = '(the other agent ended without a text message)';

function finalText(t: Transcript): string {
  return lastAssistantText(t)?.text ?? NO_TEXT;
}
