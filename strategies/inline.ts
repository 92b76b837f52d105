import type { ChatMessage, Message } from '../harness/types.ts';
import { defineStrategy } from './define.ts';
import { finishHandoff, receiverHistory, toChat } from './compose.ts';
import { framings } from './framing.ts';
import { renderTranscript } from './render.ts';

/**
 * No split — the control arm. The source agent's work is part of the receiver's own history, as if
 * the receiver had done it itself: a parent that ran the research inline, a primary that simply
 * continues. Nothing is summarised, rendered or dropped.
 */
export const inline = defineStrategy({
  name: 'inline',
  description: 'No split: the work is the receiving agent\'s own history (control arm).',
  seed: 'ledgerline: "if the research had run inline"; adr-0093: milk-auto, the primary continuing its own session',
  params: {},
  async prepare(ctx) {
    const history = withoutPendingSpawn(receiverHistory(ctx));
    const own = ownWork(ctx.case.source.messages, history.length > 0);
    const messages: ChatMessage[] = [...history, ...own];
    return finishHandoff(ctx, {
      system: ctx.case.direction === 'return' ? framings.parent : framings.owner,
      messages,
      payload: renderTranscript({ messages: own }),
      retained: own.length,
    });
  },
});

/** The source's messages as the receiver's own; a brief that opened a child session is dropped when the receiver has its own history. */
function ownWork(messages: Message[], hasHistory: boolean): ChatMessage[] {
  let start = 0;
  if (hasHistory) while (start < messages.length && messages[start]!.role === 'user' && !messages[start]!.toolResults?.length) start++;
  return messages.slice(start).map(toChat);
}

/** Inline means the receiver never spawned anyone: a spawn call still waiting for its result is removed. */
function withoutPendingSpawn(history: ChatMessage[]): ChatMessage[] {
  const last = history[history.length - 1];
  if (!last || last.role !== 'assistant' || !last.toolCalls?.length) return history;
  const { toolCalls: _dropped, ...rest } = last;
  return rest.text ? [...history.slice(0, -1), rest] : history.slice(0, -1);
}
