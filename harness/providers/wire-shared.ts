import type { ChatMessage, Draft, ToolCall, ToolResult } from '../core/index.ts';

/**
 * A message ready for a wire format, with the index of the last request message it came from: a fresh
 * copy normalizeMessages may still change (the request's own messages are never changed).
 */
export interface WireMessage extends Draft<ChatMessage> {
  last: number;
}

/**
 * What both chat wire formats demand of tool activity, applied once before either mapping:
 * consecutive assistant messages are one turn (transcripts often split parallel tool calls across
 * them), every tool call of an assistant message is answered by a result in the run of non-assistant
 * messages right after it, and every result answers such a call. Transcripts do not always honour
 * that (an orphaned call, the spawn call a snapshot excludes, a result whose call was trimmed), and a
 * real API rejects the whole request for it — so unpaired calls and results are demoted to text that
 * still carries the name, arguments and content. Nothing is dropped.
 */
export function normalizeMessages(messages: readonly ChatMessage[]): WireMessage[] {
  const out: WireMessage[] = [];
  messages.forEach((m, i) => {
    const prev = out[out.length - 1];
    if (m.role === 'assistant' && prev?.role === 'assistant') {
      prev.text = joinText(prev.text, m.text);
      if (m.toolCalls?.length) prev.toolCalls = [...(prev.toolCalls ?? []), ...m.toolCalls];
      prev.last = i;
    } else
      out.push({ role: m.role, text: m.text, toolCalls: m.toolCalls, toolResults: m.toolResults, last: i });
  });
  for (let i = 0; i < out.length; i++) {
    const m = out[i]!;
    if (m.role === 'assistant') {
      if (m.toolCalls?.length) pairRun(out, i);
      continue;
    }
    // Results outside a run that follows a calling assistant message (pairRun consumed those).
    if (m.toolResults?.length && !(m as Paired).paired) demoteResults(m, m.toolResults);
  }
  for (const m of out) delete (m as Paired).paired;
  return out;
}

type Paired = WireMessage & { paired?: boolean };

function pairRun(out: WireMessage[], i: number): void {
  const m = out[i]!;
  const runEnd = nextAssistant(out, i + 1);
  const answered = new Set<string>();
  for (let j = i + 1; j < runEnd; j++) for (const r of out[j]!.toolResults ?? []) answered.add(r.callId);
  const calls = m.toolCalls!;
  const kept = calls.filter((c) => answered.has(c.id));
  if (kept.length < calls.length) {
    const orphans = calls.filter((c) => !answered.has(c.id));
    m.text = joinText(
      m.text,
      orphans.map((c) => `[tool call ${c.name}(${argsText(c)}) — no result recorded]`).join('\n'),
    );
    m.toolCalls = kept.length ? kept : undefined;
  }
  const ids = new Set(kept.map((c) => c.id));
  for (let j = i + 1; j < runEnd; j++) {
    const n = out[j] as Paired;
    n.paired = true;
    if (!n.toolResults?.length) continue;
    const stray = n.toolResults.filter((r) => !ids.has(r.callId));
    if (stray.length) demoteResults(n, stray);
    // A second result for the same call cannot be sent either; keep the first one as a result.
    const seen = new Set<string>();
    const good = (n.toolResults ?? []).filter(
      (r) => ids.has(r.callId) && !seen.has(r.callId) && seen.add(r.callId),
    );
    n.toolResults = good.length ? good : undefined;
  }
}

function demoteResults(m: Draft<ChatMessage>, results: readonly ToolResult[]): void {
  const text = results
    .map((r) => `[tool result for ${r.callId}${r.isError ? ' — error' : ''}]\n${r.content}`)
    .join('\n\n');
  m.text = joinText(text, m.text);
  const remaining = (m.toolResults ?? []).filter((r) => !results.includes(r));
  m.toolResults = remaining.length ? remaining : undefined;
}

function nextAssistant(out: readonly ChatMessage[], from: number): number {
  let j = from;
  while (j < out.length && out[j]!.role !== 'assistant') j++;
  return j;
}

function joinText(a: string | undefined, b: string | undefined): string | undefined {
  const parts = [a, b].filter((x): x is string => Boolean(x));
  return parts.length ? parts.join('\n') : undefined;
}

export function argsText(c: ToolCall): string {
  return typeof c.input === 'string' ? c.input : JSON.stringify(c.input ?? {});
}

const VALID_ID = /^[a-zA-Z0-9_-]+$/;

/** Tool names and call ids as the APIs accept them ([a-zA-Z0-9_-], bounded length); stable per request. */
export function createIdMap(maxLength: number): (id: string) => string {
  const map = new Map<string, string>();
  const used = new Set<string>();
  return (id) => {
    let out = map.get(id);
    if (out !== undefined) return out;
    const base =
      VALID_ID.test(id) && id.length <= maxLength
        ? id
        : (id.replace(/[^a-zA-Z0-9_-]/g, '_') || '_').slice(0, maxLength);
    out = base;
    for (let n = 2; used.has(out); n++) out = `${base.slice(0, maxLength - String(n).length - 1)}_${n}`;
    map.set(id, out);
    used.add(out);
    return out;
  };
}

/** Names of the tools called anywhere in the messages (for placeholder definitions). */
export function calledToolNames(messages: readonly ChatMessage[]): string[] {
  const names = new Set<string>();
  for (const m of messages) for (const c of m.toolCalls ?? []) names.add(c.name);
  return [...names];
}

/** Parses tool-call arguments; an unparseable string stays a string (the caller's validator reports it). */
export function parseArguments(raw: string | undefined | null): unknown {
  if (raw === undefined || raw === null || raw === '') return {};
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/** A 31-bit integer from the request's seed string, for APIs that take a numeric sampling seed. */
export function numericSeed(seed: string): number {
  let h = 2166136261;
  for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 16777619);
  return (h >>> 0) & 0x7fffffff;
}
