import type { ModelResponse } from '../core/index.ts';

export type UnusableKind = 'empty_answer' | 'refusal' | 'content_filter';

/**
 * A response nobody can score or should replay: a refusal (Anthropic `stop_reason: "refusal"`, OpenAI
 * `message.refusal`, both mapped to the stop reason `refusal`), a content-filter stop, or no text and
 * no tool call at all. Such a response is never cached, and as the receiver's answer it makes the cell
 * an error row with this kind as its error_code.
 */
export function unusableKind(
  r: Pick<ModelResponse, 'text' | 'toolCalls' | 'stopReason'>,
): UnusableKind | null {
  if (r.stopReason === 'refusal') return 'refusal';
  if (r.stopReason === 'content_filter') return 'content_filter';
  if (r.text.trim() === '' && r.toolCalls.length === 0) return 'empty_answer';
  return null;
}

/**
 * The receiver's final answer, judged by what it says: an answer without text is empty even when it
 * ends on a tool call (its tool rounds ran out, or its handoff serves no tool).
 */
export function unusableAnswer(
  r: Pick<ModelResponse, 'text' | 'toolCalls' | 'stopReason'>,
): UnusableKind | null {
  return unusableKind({ ...r, toolCalls: [] });
}
