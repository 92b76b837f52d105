import type { ToolCall, Transcript } from '../harness/core/index.ts';
import { defineStrategy } from './define.ts';
import { attachReturn, finishHandoff, pendingCalls, receiverHistory } from './compose.ts';
import { framings } from './framing.ts';
import { allTrailItems, lastAssistantText } from '../harness/core/transcript/view.ts';

/**
 * What most agent frameworks return from a sub-agent: its last assistant message, nothing else —
 * Claude Code's Task tool, an OpenAI Agents SDK agent used as a tool, an ADK AgentTool. The message
 * arrives as the result of the receiver's pending spawn call — several children spawned by as many
 * pending calls: one result per call, as Claude Code returns them; otherwise one result, each child's
 * message under a heading — with the Task tool's trailer when the call is Claude Code's Task / Agent;
 * without a receiver history it is a user message. "Last" is the
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
    const history = receiverHistory(ctx);
    const pending = pendingCalls(history);
    const framing = ctx.case.direction === 'return' ? framings.parent : framings.continuity;
    const common = {
      system: framing,
      retained: sources.length,
      dropped: sources.reduce((n, s) => n + s.messages.length, 0) - sources.length,
    };
    // Several children, each spawned by its own pending call: one result per call, as Claude Code's
    // Task tool returns them (children in the order of their calls).
    if (sources.length > 1 && pending.length === sources.length) {
      const results = pending.map((call, i) => ({ callId: call.id, content: returned(sources[i]!, call) }));
      return finishHandoff(ctx, {
        ...common,
        messages: [...history, { role: 'user', toolResults: results }],
        payload: results.map((r) => r.content).join('\n\n'),
      });
    }
    const parts = sources.map(
      (s, i) =>
        (sources.length > 1 ? `=== child ${i + 1} of ${sources.length}: ${s.id ?? ''} ===\n` : '') +
        returned(s, sources.length === 1 ? pending[0] : undefined),
    );
    const payload = parts.join('\n\n');
    const messages = attachReturn(history, payload, "The other agent's final message:");
    return finishHandoff(ctx, { ...common, messages, payload });
  },
});

const NO_TEXT = '(the other agent ended without a text message)';

function finalText(t: Transcript): string {
  return lastAssistantText(t)?.text ?? NO_TEXT;
}

/**
 * What a spawn call returns: the child's final message, and — when the call is Claude Code's Task /
 * Agent tool — the trailer that tool appends after it (`agentId: <id>` naming the agent to continue,
 * `<usage>` with its tool uses), so the parent sees what it would have seen. Only fields the case
 * knows are written (no token counts or durations it does not have).
 */
function returned(t: Transcript, call: ToolCall | undefined): string {
  const text = finalText(t);
  if (!call || !taskTools.has(call.name) || t.id === undefined) return text;
  return `${text}\n\nagentId: ${t.id}\n<usage>tool_uses: ${allTrailItems(t).length}</usage>`;
}

const taskTools = new Set(['Task', 'Agent']);
