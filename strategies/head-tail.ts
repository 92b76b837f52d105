import type { ChatMessage, ModelResponse, TruncationMarker } from '../harness/core/index.ts';
import { countTokens, messagesTokens } from '../harness/core/tokens.ts';
import type { RenderedSegment } from './narrate.ts';

/**
 * Head+tail trim (ADR 0093 B, trimSplitSpans): when a rendered session exceeds the message budget,
 * the head — the original request and the first plan (every segment up to and including the first
 * assistant segment) — and the most recent segments survive, whole; the middle is dropped with a
 * marker that says how much, or summarised by a model call spliced between head and tail. Cuts fall
 * only at segment boundaries, so a tool call is never separated from its result. Drop-oldest, which
 * made the task framing the first casualty (ADR 0093 Context 4), is what this replaces.
 */
export type MiddlePolicy = 'drop' | 'summarize';

/**
 * Options of trimHeadTail: the token budget, what to do with the middle (omit it, or summarise it through
 * `summarize` within `summaryTokens`).
 */
export interface HeadTailOptions {
  budgetTokens: number;
  middle: MiddlePolicy;
  /** Token budget of a middle summary (reserved before the tail is chosen). */
  summaryTokens: number;
  /** Makes the middle summary (middle: 'summarize'). */
  summarize?: (middle: ChatMessage[], maxTokens: number) => Promise<ModelResponse>;
}

/**
 * What trimHeadTail kept: the messages, the head and tail segments, what the middle held, the markers placed
 * and the model calls made.
 */
export interface HeadTailResult {
  messages: ChatMessage[];
  /** The segments kept verbatim (head + tail). */
  kept: RenderedSegment[];
  /** What the middle held, when there was one. */
  middle: { messages: number; sourceMessages: number; calls: number; summary?: string } | null;
  markers: TruncationMarker[];
  calls: ModelResponse[];
  /** The head alone exceeded the budget (the request is never dropped, so the budget could not hold). */
  overBudget: boolean;
}

/**
 * The marker standing for the dropped (or summarised) middle of a session: how many messages and tool calls.
 */
export const middleMarker = (messages: number, calls: number, summarised: boolean) =>
  `(middle of the session ${summarised ? 'summarised' : 'omitted'} — ${messages} message${messages === 1 ? '' : 's'}, ${calls} tool call${calls === 1 ? '' : 's'}${summarised ? ' not shown verbatim' : ''}; the original request, the first plan and the most recent turns are kept)`;

/** Tokens a middle marker line costs at most (reserved before the tail is chosen). */
const MARKER_RESERVE = 48;

/**
 * Head+tail trim at segment boundaries: the request and first plan plus the newest turns within
 * `budgetTokens`, the middle dropped with a marker or replaced by a summary. No tool call is separated from
 * its result.
 */
export async function trimHeadTail(
  segments: RenderedSegment[],
  opts: HeadTailOptions,
): Promise<HeadTailResult> {
  const tokens = segments.map((s) => messagesTokens(s.messages));
  const total = tokens.reduce((a, b) => a + b, 0);
  const none = {
    messages: segments.flatMap((s) => s.messages),
    kept: segments,
    middle: null,
    markers: [],
    calls: [],
  };
  if (total <= opts.budgetTokens || segments.length < 2)
    return { ...none, overBudget: total > opts.budgetTokens };
  const reserve = MARKER_RESERVE + (opts.middle === 'summarize' ? opts.summaryTokens : 0);
  const cut = planCut(segments, tokens, opts.budgetTokens - reserve);
  const head = segments.slice(0, cut.headEnd);
  const middle = segments.slice(cut.headEnd, cut.tailStart);
  const tail = segments.slice(cut.tailStart);
  if (middle.length === 0) return { ...none, overBudget: true };
  const sourceMessages = middle.reduce((n, s) => n + (s.end - s.start), 0);
  const calls = middle.reduce((n, s) => n + s.shown + s.listed, 0);
  const middleMessages = middle.flatMap((s) => s.messages);
  let summary: string | undefined;
  const made: ModelResponse[] = [];
  if (opts.middle === 'summarize' && opts.summarize) {
    const res = await opts.summarize(middleMessages, opts.summaryTokens);
    made.push(res);
    summary = res.text.trim();
  }
  const marker = middleMarker(sourceMessages, calls, summary !== undefined);
  const spliced: ChatMessage = {
    role: 'system',
    text: summary !== undefined ? `${marker}\n${summary}` : marker,
  };
  return {
    messages: [...head.flatMap((s) => s.messages), spliced, ...tail.flatMap((s) => s.messages)],
    kept: [...head, ...tail],
    middle: {
      messages: middleMessages.length,
      sourceMessages,
      calls,
      ...(summary !== undefined ? { summary } : {}),
    },
    markers: [{ text: marker, kind: 'middle', dropped: sourceMessages }],
    calls: made,
    overBudget: cut.overBudget || (summary !== undefined && countTokens(summary) > opts.summaryTokens),
  };
}

/**
 * Where to cut: the head ends after the first assistant segment (the first plan; at least the first
 * segment, which holds the request); the tail is the longest run of newest segments that fits what
 * the head leaves. When the head alone does not fit, it shrinks to the request segment.
 */
export function planCut(
  segments: RenderedSegment[],
  tokens: number[],
  budget: number,
): { headEnd: number; tailStart: number; overBudget: boolean } {
  const firstPlan = segments.findIndex((s) => s.assistant);
  let headEnd = firstPlan >= 0 ? firstPlan + 1 : 1;
  let used = sumRange(tokens, 0, headEnd);
  if (used > budget) {
    headEnd = Math.max(1, segments.findIndex((s) => s.userText) + 1);
    used = sumRange(tokens, 0, headEnd);
  }
  let tailStart = segments.length;
  while (tailStart > headEnd && used + tokens[tailStart - 1]! <= budget) {
    tailStart--;
    used += tokens[tailStart]!;
  }
  return { headEnd, tailStart, overBudget: used > budget };
}

function sumRange(xs: number[], from: number, to: number): number {
  let s = 0;
  for (let i = from; i < to; i++) s += xs[i]!;
  return s;
}
