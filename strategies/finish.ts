import type {
  ToolCall,
  ChatMessage,
  Handoff,
  HandoffStats,
  ModelResponse,
  StrategyContext,
  ToolSpec,
  Transcript,
  TruncationMarker,
} from '../harness/core/index.ts';
import { countTokens, messagesTokens } from '../harness/core/tokens.ts';
import { allTrailItems } from '../harness/core/transcript/view.ts';
import { formatCall, renderMessages } from './render.ts';
import { oneLine } from './brick.ts';

/** What a strategy hands to `finishHandoff`: what the receiver sees, and what was cut on the way. */
export interface HandoffParts {
  /** The receiver's system framing (see `framings`). */
  system: string;
  /** Every message the receiver sees before its task (the runner appends the task). */
  messages: ChatMessage[];
  /**
   * The handoff payload proper — the part survival is measured on. @default the rendering of the
   * messages after the receiver's own history (its first `case.receiverHistory.messages.length`)
   */
  payload?: string;
  /**
   * When the payload reaches the receiver as messages (own work replayed, narrated trails, a copied
   * dialogue) rather than as one text: those messages, plus any text part placed elsewhere (a brick
   * in the system framing). `tokens` then counts them the way the receiver's request is counted, so
   * `handoff_tokens` is a part of `receiver_window_tokens_after` (docs/results.md#token-figures).
   */
  payloadMessages?: ChatMessage[];
  payloadText?: string;
  /** Tools the receiver gets; `runTool` serves them. @default [] */
  tools?: ToolSpec[];
  runTool?: Handoff['runTool'];
  /** Summaries, contracts, bricks made on the way (shown in reports). @default {} */
  artifacts?: Record<string, unknown>;
  /** Every truncation marker placed, as the building blocks return them (`brick.markers`, …). @default [] */
  markers?: TruncationMarker[];
  /**
   * Items kept, cut, or only listed in a manifest line, in the strategy's own unit (turns, messages,
   * findings). @default source tool calls: visible / listed in manifest lines / neither
   */
  retained?: number;
  dropped?: number;
  manifest?: number;
  /**
   * The model calls the strategy made. Only needed when `ctx.call` is not the harness's: the harness
   * records every call made through its `ctx.call`, and those win.
   */
  calls?: ModelResponse[];
}

const callsMade = new WeakMap<StrategyContext['call'], ModelResponse[]>();

/**
 * Wraps a strategy context's call function so `finishHandoff` can total the calls made through it.
 * The harness builds every StrategyContext with it (run, render, checkStrategy); keyed by the function,
 * so a strategy that spreads its context (`{...ctx, budgetTokens}`) keeps the record.
 */
export function trackCalls(call: StrategyContext['call']): StrategyContext['call'] {
  const made: ModelResponse[] = [];
  const tracked: StrategyContext['call'] = async (role, request) => {
    const response = await call(role, request);
    made.push(response);
    return response;
  };
  callsMade.set(tracked, made);
  return tracked;
}

/** The responses of every model call made through `ctx.call` so far (undefined when it is not tracked). */
export function callsMadeThrough(ctx: Pick<StrategyContext, 'call'>): readonly ModelResponse[] | undefined {
  return callsMade.get(ctx.call);
}

/**
 * Assembles a Handoff and computes every stat from what the receiver sees: payload size (chars, o200k
 * tokens), the source tool calls visible, retained / dropped / manifest counts (unless the strategy
 * counts in its own unit), and the totals of the model calls made through `ctx.call` (calls, tokens,
 * latency, retries, cost). A strategy passes what it built and the markers its building blocks placed;
 * it never fills a stat by hand.
 */
export function finishHandoff(ctx: StrategyContext, parts: HandoffParts): Handoff {
  const calls = callsMadeThrough(ctx) ?? parts.calls ?? [];
  const sources = ctx.case.sources ?? [ctx.case.source];
  const payload = parts.payload ?? defaultPayload(ctx, parts.messages);
  const visible = visibleSourceCalls(sources, parts.messages);
  const listed = parts.manifest ?? manifestCalls([parts.system, ...renderMessages(parts.messages)]);
  const total = sources.reduce((n, s) => n + allTrailItems(s).length, 0);
  const stats: HandoffStats = {
    chars: payload.length,
    tokens: parts.payloadMessages
      ? messagesTokens(parts.payloadMessages) + countTokens(parts.payloadText ?? '')
      : countTokens(payload),
    markers: parts.markers ?? [],
    retained: parts.retained ?? visible,
    dropped: parts.dropped ?? Math.max(0, total - visible - listed),
    manifest: listed,
    toolCallsVisible: visible,
    calls: calls.length,
    inputTokens: sum(calls, (c) => c.usage.inputTokens),
    outputTokens: sum(calls, (c) => c.usage.outputTokens),
    latencyMs: sum(calls, (c) => c.latencyMs),
    retries: sum(calls, (c) => c.retries),
    costUsd: sum(calls, (c) => c.costUsd),
  };
  return {
    system: parts.system,
    messages: parts.messages,
    tools: parts.tools ?? [],
    runTool: parts.runTool,
    artifacts: parts.artifacts ?? {},
    stats,
    payload,
  };
}

function defaultPayload(ctx: StrategyContext, messages: readonly ChatMessage[]): string {
  const own = ctx.case.receiverHistory?.messages.length ?? 0;
  return renderMessages(messages)
    .slice(own <= messages.length ? own : 0)
    .join('\n\n');
}

/** Calls listed in manifest lines (`[manifest: turn N — <agent> made K tool calls (…)…]`). */
function manifestCalls(texts: readonly string[]): number {
  let n = 0;
  for (const t of texts) for (const m of t.matchAll(MANIFEST)) n += Number(m[1]);
  return n;
}

const MANIFEST = /\[manifest: turn \d+ — .*? made (\d+) tool calls?/g;

/**
 * How many of the source agents' tool calls the receiver can see: as calls (by id), or written out in
 * full in text — `name(arguments)` as render, brick, narration and contracts print it (the brick's
 * one-line form too). Identical calls count as often as the text shows them. Fenced tool output is
 * skipped: a call is never shown inside a quoted result. (A name plus an argument prefix is not
 * enough: 27 reads under one long directory all matched one visible read.)
 */
export function visibleSourceCalls(sources: readonly Transcript[], messages: readonly ChatMessage[]): number {
  const ids = new Set<string>();
  for (const m of messages) for (const c of m.toolCalls ?? []) ids.add(c.id);
  const text = renderMessages(messages).join('\n').replace(FENCED, '');
  const shown = new Map<string, number>();
  const timesShown = (written: string): number => {
    let n = shown.get(written);
    if (n === undefined) shown.set(written, (n = occurrences(text, written)));
    return n;
  };
  const consume = (call: ToolCall): boolean => {
    const written = [formatCall(call), oneLine(formatCall(call))].find((w) => timesShown(w) > 0);
    if (written === undefined) return false;
    shown.set(written, timesShown(written) - 1);
    return true;
  };
  const items = sources.flatMap((s) => allTrailItems(s).map((x) => x.call));
  // Calls passed as calls first: each one's own rendering (`[… → tool call id] name(args)`) is in the
  // text and must not make an identical call elsewhere in the source count as shown too.
  let n = 0;
  for (const call of items)
    if (ids.has(call.id)) {
      consume(call);
      n++;
    }
  for (const call of items) if (!ids.has(call.id) && consume(call)) n++;
  return n;
}

function occurrences(text: string, needle: string): number {
  let n = 0;
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) n++;
  return n;
}

const FENCED = /<<<UNTRUSTED-([0-9a-f]{16})>>>[\s\S]*?<<<END-UNTRUSTED-\1>>>/g;

function sum<T>(xs: readonly T[], f: (x: T) => number): number {
  let s = 0;
  for (const x of xs) s += f(x);
  return s;
}
