import type { ModelResponse, ModelRole } from '../core/index.ts';

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

/** The stop reasons of an answer cut at its output limit (Anthropic max_tokens, OpenAI length). */
const CUT = new Set(['max_tokens', 'length', 'model_context_window_exceeded']);

/**
 * The roles whose answers in this cell were cut at max_tokens (the source's handoff calls, the
 * receiver's final answer), for the row: `truncated` lists them, and `truncation_allowed` says whether
 * the arm accepts them (`allowTruncation`); a cut the arm does not allow counts against the run's error
 * budget. Empty when nothing was cut. Judge calls are not the work measured and are left out.
 */
export function truncatedRoles(
  made: readonly { role: ModelRole; response: Pick<ModelResponse, 'stopReason'> }[],
  allowed: boolean,
): { truncated?: ModelRole[]; truncation_allowed?: boolean } {
  const roles = new Set<ModelRole>();
  let lastReceiver: string | undefined;
  for (const { role, response } of made) {
    if (role === 'receiver') lastReceiver = response.stopReason;
    else if (role === 'source' && CUT.has(response.stopReason)) roles.add('source');
  }
  if (lastReceiver !== undefined && CUT.has(lastReceiver)) roles.add('receiver');
  if (roles.size === 0) return {};
  return { truncated: [...roles], truncation_allowed: allowed };
}
