import type { Case, ChatMessage } from '../core/index.ts';
import { toChat } from '../core/transcript/chat.ts';

/**
 * `--live-inline prefix` (docs/live.md#inline-inside-the-parents-window): the parent's window as it
 * stood when it would have split the research off — its recorded history (the case's
 * `receiverHistory`), as chat, without a trailing spawn call that never got its result (the research
 * runs here instead of in a child). Inline's research turns carry it before their brief, so each
 * request pays its prefill, as research run inline in the parent's own session does. Empty for a
 * case whose receiver has no history of its own.
 */
export function parentPrefix(c: Pick<Case, 'receiverHistory'>): ChatMessage[] {
  const history: ChatMessage[] = (c.receiverHistory?.messages ?? []).map(toChat);
  const last = history[history.length - 1];
  if (!last || last.role !== 'assistant' || !last.toolCalls?.length) return history;
  const { toolCalls: _pending, ...rest } = last;
  return rest.text ? [...history.slice(0, -1), rest] : history.slice(0, -1);
}
