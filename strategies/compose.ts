import type {
  Case,
  ChatMessage,
  Draft,
  Message,
  SimHints,
  StrategyContext,
  ToolCall,
} from '../harness/core/index.ts';
import { narrateCall } from './narrate.ts';
import { fence } from '../harness/core/text/fence.ts';
import { toChat } from '../harness/core/transcript/chat.ts';

export { toChat };

/**
 * A session's messages as chat messages a model API accepts: a call that never got a result (the agent
 * stopped mid-call) cannot be replayed as a tool call, so it is narrated in a system line —
 * `[<name> called <tool>(<args>)]` / `[result: (none recorded)]` — like parity-narration and the own
 * replay do; a result whose call is not in the session is narrated the same way. A note waits until the
 * results of its message's answered calls have been replayed: the vendors want those results in the
 * very next message, so nothing may come between a call and its result (issue 28 item 1).
 */
export function replayable(messages: readonly Message[]): ChatMessage[] {
  const calls = new Set<string>();
  const answered = new Set<string>();
  for (const m of messages) for (const c of m.toolCalls ?? []) calls.add(c.id);
  for (const m of messages)
    for (const r of m.toolResults ?? []) if (calls.has(r.callId)) answered.add(r.callId);
  const out: ChatMessage[] = [];
  let notes: string[] = [];
  const waiting = new Set<string>();
  const flush = () => {
    if (notes.length) out.push({ role: 'system', text: notes.join('\n') });
    notes = [];
    waiting.clear();
  };
  for (const m of messages) {
    const chat: Draft<ChatMessage> = toChat(m);
    const orphans = (m.toolCalls ?? []).filter((c) => !answered.has(c.id));
    const strays = (m.toolResults ?? []).filter((r) => !calls.has(r.callId));
    if (orphans.length) chat.toolCalls = m.toolCalls!.filter((c) => answered.has(c.id));
    if (strays.length) chat.toolResults = m.toolResults!.filter((r) => calls.has(r.callId));
    if (!chat.toolCalls?.length) delete chat.toolCalls;
    if (!chat.toolResults?.length) delete chat.toolResults;
    // A message that answers nothing still waited on ends the wait (the source itself moved on).
    if (chat.toolCalls || !chat.toolResults?.some((r) => waiting.has(r.callId))) flush();
    if (chat.text !== undefined || chat.toolCalls || chat.toolResults) out.push(chat);
    for (const r of chat.toolResults ?? []) waiting.delete(r.callId);
    for (const c of chat.toolCalls ?? []) waiting.add(c.id);
    notes.push(
      ...orphans.map((c) => narrateCall(m.agent, c, undefined, Infinity, [])),
      ...strays.map((r) => `[result of a call not in this session (${r.callId}): ${fence(r.content).text}]`),
    );
    if (waiting.size === 0) flush();
  }
  flush();
  return out;
}

/** The receiver's own history before the handoff (the parent's window for a return), as chat messages. */
export function receiverHistory(ctx: StrategyContext): ChatMessage[] {
  return (ctx.case.receiverHistory?.messages ?? []).map(toChat);
}

/**
 * Puts a returned payload into the receiver's history: as the result of the receiver's pending spawn
 * call(s) when its history ends with some (how a child's return really arrives), else as a user message.
 * Parallel spawn calls (several children) are all answered, so no call is left without its result: the
 * payload goes to the first, the others point at it.
 */
export function attachReturn(history: ChatMessage[], payload: string, label: string): ChatMessage[] {
  if (pendingCalls(history).length) return closePendingCall(history, payload);
  return [...history, { role: 'user', text: `${label}\n\n${payload}` }];
}

/** Resolves the receiver's pending spawn call(s) (if its history ends with some) with `content`, so pairing stays intact. */
export function closePendingCall(history: ChatMessage[], content: string): ChatMessage[] {
  const pending = pendingCalls(history);
  if (pending.length === 0) return history;
  const first = pending[0]!.id;
  const results = pending.map((c, i) => ({
    callId: c.id,
    content: i === 0 ? content : `(returned together with the result of call ${first})`,
  }));
  return [...history, { role: 'user', toolResults: results }];
}

/**
 * How many leading messages of a child's session are the brief its parent sent — already in the
 * parent's own history, so a return into that history leaves them out (0 without a receiver history).
 */
export function briefLength(messages: readonly ChatMessage[], hasHistory: boolean): number {
  let start = 0;
  if (hasHistory)
    while (
      start < messages.length &&
      messages[start]!.role === 'user' &&
      !messages[start]!.toolResults?.length
    )
      start++;
  return start;
}

/** The case's labels for the sim provider (it recognises claims with them; real providers ignore them). */
export function simHintsOf(c: Case): SimHints {
  return { caseId: c.id, assertions: c.assertions, reference: c.reference };
}

/** The tool calls of the history's last message when it is an assistant message still waiting for them. */
export function pendingCalls(history: readonly ChatMessage[]): readonly ToolCall[] {
  const last = history[history.length - 1];
  if (!last || last.role !== 'assistant' || !last.toolCalls?.length) return [];
  return last.toolCalls;
}

export { finishHandoff, trackCalls, visibleSourceCalls, type HandoffParts } from './finish.ts';
