import type {
  ChatMessage,
  Message,
  StrategyContext,
  ToolCall,
  Transcript,
} from '../../harness/core/index.ts';
import { briefLength, receiverHistory, replayable } from '../compose.ts';
import { effectiveSnapshot } from '../spawn.ts';
import { framings } from '../framing.ts';
import { pendingCalls } from '../compose.ts';

// Building blocks the framework strategies share: what a framework calls "the conversation" at the
// moment of a handoff, its own handoff call pair, and Python's json.dumps for the frameworks that
// print items with it. Each strategy file says which framework code it follows.

/** The sources a case hands over (several for a multi-child return). */
export function sourcesOf(ctx: StrategyContext): readonly Transcript[] {
  return ctx.case.sources ?? [ctx.case.source];
}

/**
 * The sessions whose end a framework passes on: the sources, or for a spawn the parent's effective
 * context up to its spawn call (what came after the call is not known yet when the child starts).
 */
export function endedSessions(ctx: StrategyContext): readonly Transcript[] {
  if (ctx.case.direction !== 'spawn') return sourcesOf(ctx);
  const snap = effectiveSnapshot(ctx.case.source, ctx.case.spawnCallId);
  return [{ ...ctx.case.source, messages: snap.messages }];
}

/** The receiving agent's name as a framework would print it: the case's, else its role. */
export function receiverName(ctx: StrategyContext): string {
  if (ctx.case.receiverAgent) return ctx.case.receiverAgent;
  return ctx.case.direction === 'return' ? 'parent' : ctx.case.direction === 'spawn' ? 'child' : 'escalation';
}

/** The first agent of a session that wrote an assistant message (its name in the frameworks' prints). */
export function sourceName(t: Transcript, fallback = 'agent'): string {
  return t.messages.find((m) => m.role === 'assistant' && m.agent)?.agent ?? fallback;
}

/**
 * The whole conversation at the handoff, as a framework that passes history sees it: for a spawn, the
 * parent's effective context up to its spawn call; otherwise the receiver's own history, then each
 * source's messages (a child's opening brief, already in the receiver's history, left out). Calls
 * without a result are narrated, so every tool call keeps its result.
 */
export function conversation(
  ctx: StrategyContext,
  as: (messages: readonly Message[]) => ChatMessage[] = replayable,
): { history: ChatMessage[]; work: ChatMessage[] } {
  if (ctx.case.direction === 'spawn') {
    const snap = effectiveSnapshot(ctx.case.source, ctx.case.spawnCallId);
    return { history: [], work: as(snap.messages) };
  }
  const history = receiverHistory(ctx);
  const work = sourcesOf(ctx).flatMap((s) =>
    as(s.messages.slice(briefLength(s.messages, history.length > 0))),
  );
  return { history, work };
}

/**
 * The receiver's history with its pending call(s) answered, one result per call: a content goes to the
 * call that spawned its session (`owners[i]`, the importer's `meta.spawnedBy`) when every content has
 * its call among the pending ones — other pending calls (a TaskUpdate made alongside) are answered
 * with a note, so none is left open; else by position when the counts match; else all contents go to
 * the first call and the others point at it.
 */
export function answerPending(
  history: ChatMessage[],
  contents: readonly string[],
  owners: readonly (string | undefined)[] = [],
): ChatMessage[] {
  const calls = pendingCalls(history);
  if (calls.length === 0) return history;
  const ids = calls.map((c) => c.id);
  // With no content at all, every call is answered as not handed over (nothing is, and `every` of none holds).
  const owned = owners.length === contents.length && owners.every((o) => o !== undefined && ids.includes(o));
  const results = calls.map((c, i) => {
    if (owned) {
      const at = owners.indexOf(c.id);
      return { callId: c.id, content: at >= 0 ? contents[at]! : NOT_HANDED_OVER };
    }
    if (contents.length === calls.length) return { callId: c.id, content: contents[i]! };
    return {
      callId: c.id,
      content:
        i === 0 ? contents.join('\n\n') : `(returned together with the result of call ${calls[0]!.id})`,
    };
  });
  return [...history, { role: 'user', toolResults: results }];
}

const NOT_HANDED_OVER = "(this call's result is not part of the handoff)";

/** The id of the call that spawned each session, where the importer recorded it (`meta.spawnedBy`). */
export function spawnedBy(sessions: readonly Transcript[]): (string | undefined)[] {
  return sessions.map((s) => (typeof s.meta?.spawnedBy === 'string' ? s.meta.spawnedBy : undefined));
}

/** The tool calls of the history's last message when it is an assistant message still waiting for them. */
export { pendingCalls } from '../compose.ts';

/** A tool name in the function-name style the Agents SDK and langgraph-supervisor derive from an agent name. */
export function functionStyle(name: string): string {
  return name
    .trim()
    .replace(/\s+/g, '_')
    .replace(/[^a-zA-Z0-9_]/g, '_')
    .toLowerCase();
}

/** A call id no source uses: `prefix` plus the first free counter. */
export function freshCallId(messages: readonly ChatMessage[], prefix: string): string {
  const used = new Set<string>();
  for (const m of messages) {
    for (const c of m.toolCalls ?? []) used.add(c.id);
    for (const r of m.toolResults ?? []) used.add(r.callId);
  }
  let n = 1;
  while (used.has(`${prefix}${n}`)) n++;
  return `${prefix}${n}`;
}

/** The text of a session's last assistant message ('' when it carries none: the SDKs' empty output). */
export function lastMessageText(t: Transcript): string {
  for (let i = t.messages.length - 1; i >= 0; i--) {
    const m: Message = t.messages[i]!;
    if (m.role === 'assistant') return m.text ?? '';
  }
  return '';
}

/**
 * Python's `json.dumps(value, ensure_ascii=False)`: `", "` and `": "` separators, keys in insertion
 * order, non-ASCII kept. The Agents SDK's nested history prints items with it.
 */
export function pyJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  // String() spells integers, floats, NaN and the infinities as json.dumps does (JSON.stringify
  // writes null for the last three).
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (Array.isArray(value)) return `[${value.map(pyJson).join(', ')}]`;
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}: ${pyJson(v)}`).join(', ')}}`;
}

/** The receiver's system framing, by direction (the frameworks' own instructions are not modelled). */
export function framingFor(ctx: StrategyContext): string {
  return ctx.case.direction === 'return'
    ? framings.parent
    : ctx.case.direction === 'spawn'
      ? framings.child
      : framings.continuity;
}
