import type { Case, Handoff } from '../core/index.ts';
import { countTokens, messagesTokens, requestTokens } from '../core/tokens.ts';
import { renderMessages } from '../../strategies/render.ts';

// What a result row keeps of a handoff and its case: the text the receiver saw (bounded), the
// handoff's tokens, the context window before it.

/** The most characters of the seen text (and of each artifact) a row keeps. */
const SEEN_LIMIT = 24_000;

/*
 * Per handoff and per case, computed once: a deterministic strategy's handoff is shared by every rep
 * of its case × arm (and a handoff is never changed once built, nor a case during a run).
 */
const seenViews = new WeakMap<Handoff, string>();
const handoffTokenCounts = new WeakMap<Handoff, number>();
const windowsBefore = new WeakMap<Case, number>();

/** What the receiver saw, as the row keeps it. */
export function seenOf(h: Handoff): string {
  let seen = seenViews.get(h);
  if (seen === undefined) {
    seen = bounded(renderMessages(h.messages).join('\n\n'));
    seenViews.set(h, seen);
  }
  return seen;
}

/** Estimated tokens of the receiver request's handoff part: system, the handoff's messages, its tools. */
export function handoffTokens(h: Handoff): number {
  let n = handoffTokenCounts.get(h);
  if (n === undefined) {
    n = requestTokens({ system: h.system, messages: h.messages, tools: h.tools });
    handoffTokenCounts.set(h, n);
  }
  return n;
}

/** The receiver's window before the handoff: its own history and its task (0 without a history). */
export function windowBefore(c: Case): number {
  let n = windowsBefore.get(c);
  if (n === undefined) {
    const history = c.receiverHistory?.messages ?? [];
    n = history.length ? messagesTokens(history) + countTokens(c.task) : 0;
    windowsBefore.set(c, n);
  }
  return n;
}

/** Head and tail of a long text with an explicit marker (rows stay small; reports show what was cut). */
export function bounded(text: string, limit = SEEN_LIMIT): string {
  if (text.length <= limit) return text;
  const head = Math.floor(limit * 0.4);
  const tail = limit - head;
  return `${text.slice(0, head)}\n… (${text.length - limit} characters omitted from this view) …\n${text.slice(text.length - tail)}`;
}

export function boundedArtifacts(a: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(a)) out[k] = typeof v === 'string' ? bounded(v, 8000) : v;
  return out;
}
