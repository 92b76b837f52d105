import type { ChatMessage } from '../../harness/core/index.ts';

/**
 * The vendors' rule for a replayed conversation (issue 28 item 1): the results of an assistant message's
 * calls come in the very next message (Anthropic: tool_result blocks in the next user turn; OpenAI: the
 * `tool` messages right after the assistant message). pairingCheck only asks for a result somewhere
 * later; this asks for it next, so a note inserted between a call and its result is seen.
 */
export function adjacencyProblems(messages: readonly ChatMessage[]): string[] {
  const problems: string[] = [];
  messages.forEach((m, i) => {
    const calls = m.toolCalls ?? [];
    if (calls.length === 0) return;
    const next = new Set((messages[i + 1]?.toolResults ?? []).map((r) => r.callId));
    for (const c of calls)
      if (!next.has(c.id)) problems.push(`message ${i}: call ${c.id} not answered in the next message`);
  });
  return problems;
}
