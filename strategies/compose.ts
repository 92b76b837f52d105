import type { ChatMessage, Handoff, HandoffStats, ModelResponse, StrategyContext, ToolSpec, Transcript, TruncationMarker, ToolCall } from '../harness/types.ts';
import { countTokens } from '../harness/tokens.ts';
import { allTrailItems } from '../harness/transcript/view.ts';
import { formatArgs, renderMessage } from './render.ts';

/** The receiver's own history before the handoff (the parent's window for a return), as chat messages. */
export function receiverHistory(ctx: StrategyContext): ChatMessage[] {
  return (ctx.case.receiverHistory?.messages ?? []).map(toChat);
}

export function toChat(m: ChatMessage): ChatMessage {
  const out: ChatMessage = { role: m.role };
  if (m.text !== undefined) out.text = m.text;
  if (m.toolCalls) out.toolCalls = m.toolCalls;
  if (m.toolResults) out.toolResults = m.toolResults;
  return out;
}

/**
 * Puts a returned payload into the receiver's history: as the result of the receiver's pending spawn
 * call when its history ends with one (how a child's return really arrives), else as a user message.
 */
export function attachReturn(history: ChatMessage[], payload: string, label: string): ChatMessage[] {
  const pending = pendingCall(history);
  if (pending) return [...history, { role: 'user', toolResults: [{ callId: pending.id, content: payload }] }];
  return [...history, { role: 'user', text: `${label}\n\n${payload}` }];
}

function pendingCall(history: ChatMessage[]): ToolCall | undefined {
  const last = history[history.length - 1];
  if (!last || last.role !== 'assistant' || !last.toolCalls?.length) return undefined;
  return last.toolCalls[last.toolCalls.length - 1];
}

export interface HandoffParts {
  system: string;
  messages: ChatMessage[];
  /** The handoff payload proper, as the receiver sees it. */
  payload: string;
  tools?: ToolSpec[];
  runTool?: Handoff['runTool'];
  artifacts?: Record<string, unknown>;
  markers?: TruncationMarker[];
  retained?: number;
  dropped?: number;
  manifest?: number;
  /** Model calls the strategy made. */
  calls?: ModelResponse[];
}

/** Assembles a Handoff and its stats (chars, tokens, markers, visible tool calls, model-call cost). */
export function finishHandoff(ctx: StrategyContext, parts: HandoffParts): Handoff {
  const calls = parts.calls ?? [];
  const stats: HandoffStats = {
    chars: parts.payload.length,
    tokens: countTokens(parts.payload),
    markers: parts.markers ?? [],
    retained: parts.retained ?? 0,
    dropped: parts.dropped ?? 0,
    manifest: parts.manifest ?? 0,
    toolCallsVisible: visibleSourceCalls(ctx.case.sources ?? [ctx.case.source], parts.messages),
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
    payload: parts.payload,
  };
}

/** How many of the source agents' tool calls the receiver can see: as calls, or named with their arguments in text. */
export function visibleSourceCalls(sources: Transcript[], messages: ChatMessage[]): number {
  const ids = new Set<string>();
  const texts: string[] = [];
  for (const m of messages) {
    for (const c of m.toolCalls ?? []) ids.add(c.id);
    texts.push(renderMessage(m));
  }
  const text = texts.join('\n');
  let n = 0;
  for (const source of sources) {
    for (const item of allTrailItems(source)) {
      if (ids.has(item.call.id) || (text.includes(item.call.name) && text.includes(formatArgs(item.call.input).slice(0, 60)))) n++;
    }
  }
  return n;
}

function sum<T>(xs: T[], f: (x: T) => number): number {
  let s = 0;
  for (const x of xs) s += f(x);
  return s;
}
