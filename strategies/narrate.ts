import type {
  ChatMessage,
  Message,
  ToolCall,
  ToolResult,
  Transcript,
  TruncationMarker,
} from '../harness/core/index.ts';
import { viewOf } from '../harness/core/transcript/view.ts';
import { fence, neutraliseMarkers } from '../harness/core/text/fence.ts';
import { formatArgs } from './render.ts';
import { callSummary, type RetentionPolicy, type TrailFate, type TrailPlan } from './trails.ts';

/**
 * Renders a session for a receiving agent, one source segment at a time (a segment is never split, so
 * no tool call is separated from its result). Dialogue keeps its roles. Tool activity follows the
 * retention plan and is shown one of two ways (ADR 0093 A):
 * - the receiver's OWN trails are replayed as its own tool calls and results;
 * - any OTHER agent's trails are narrated as third-person, system-role text —
 *   `[<name> called <tool>(<args>)]` / `[result: …]` — never as tool calls the receiver never issued.
 *   Narrated results are untrusted text: each is fenced as quoted data (harness/text/fence.ts), and a
 *   forged fence marker inside a result or an argument is neutralised.
 */
export interface SessionRenderOptions {
  plan: TrailPlan;
  policy: RetentionPolicy;
  /** Whose tool activity is the receiver's own; everyone else's is narrated. */
  isOwn: (agent: string | undefined) => boolean;
}

/**
 * A segment of a session as renderSession renders it: the source range, the chat messages and the markers
 * placed.
 */
export interface RenderedSegment {
  /** Source message range [start, end). */
  start: number;
  end: number;
  messages: ChatMessage[];
  /** Source tool calls shown with their results (expanded or retained). */
  shown: number;
  /** Source tool calls listed in a manifest line placed in this segment. */
  listed: number;
  markers: TruncationMarker[];
  /** The segment opens with an assistant message of the source. */
  assistant: boolean;
  /** The segment carries user text (a request). */
  userText: boolean;
}

/** The marker after a retained (older) turn's result cut to the plan's byte budget. */
export const retainedCutMarker = (dropped: number, total: number) =>
  `… (result cut: ${dropped} of ${total} characters not retained — older turn)`;
/** The manifest line standing for a turn whose calls and results the retention plan did not keep. */
export const manifestLine = (turn: number, agent: string, calls: number, summary: string) =>
  `[manifest: turn ${turn} — ${agent} made ${calls} tool call${calls === 1 ? '' : 's'} (${summary}); calls and results not retained in this view]`;

/**
 * A session per segment (an assistant message with its results, never split): the receiver's own trails as
 * its own tool calls, everyone else's narrated as third-person system lines with fenced results, under an
 * optional retention plan (planTrails).
 */
export function renderSession(t: Transcript, opts: SessionRenderOptions): RenderedSegment[] {
  const view = viewOf(t);
  const callIds = new Set<string>();
  for (const m of t.messages) for (const c of m.toolCalls ?? []) callIds.add(c.id);
  const manifested = new Set<number>();
  return view.segments.map((seg) => {
    const out: RenderedSegment = {
      start: seg.start,
      end: seg.end,
      messages: [],
      shown: 0,
      listed: 0,
      markers: [],
      assistant: t.messages[seg.start]!.role === 'assistant',
      userText: false,
    };
    for (let i = seg.start; i < seg.end; i++) {
      const m = t.messages[i]!;
      if (m.role === 'user') renderUser(m, callIds, out);
      else renderAssistant(t, m, i, opts, manifested, out);
    }
    return out;
  });
}

function renderUser(m: Message, callIds: Set<string>, out: RenderedSegment): void {
  if (m.text !== undefined && m.text.trim() !== '') {
    out.messages.push({ role: 'user', text: m.text });
    out.userText = true;
  }
  const strays = (m.toolResults ?? []).filter((r) => !callIds.has(r.callId));
  if (strays.length)
    out.messages.push({
      role: 'system',
      text: strays
        .map((r) => `[result of a call not in this session (${r.callId}): ${fence(r.content).text}]`)
        .join('\n'),
    });
}

function renderAssistant(
  t: Transcript,
  m: Message,
  i: number,
  opts: SessionRenderOptions,
  manifested: Set<number>,
  out: RenderedSegment,
): void {
  const calls = m.toolCalls ?? [];
  const text = m.text !== undefined && m.text.trim() !== '' ? m.text : undefined;
  const turn = opts.plan.turnOf[i]!;
  const fate: TrailFate | undefined = calls.length ? opts.plan.fates.get(turn) : undefined;
  if (!fate || fate === 'manifest') {
    if (text !== undefined) out.messages.push({ role: 'assistant', text });
    if (fate === 'manifest' && !manifested.has(turn)) {
      manifested.add(turn);
      const trail = viewOf(t).turns[turn]!;
      out.messages.push({
        role: 'system',
        text: manifestLine(turn + 1, m.agent ?? 'the other agent', trail.trail.length, callSummary(trail)),
      });
      out.listed += trail.trail.length;
    }
    return;
  }
  const cap = fate === 'expanded' ? Infinity : opts.policy.retainedResultCap;
  const results = viewOf(t).results;
  out.shown += calls.length;
  if (opts.isOwn(m.agent)) {
    const paired = calls.filter((c) => results.has(c.id));
    const orphans = calls.filter((c) => !results.has(c.id));
    if (text !== undefined || paired.length)
      out.messages.push({
        role: 'assistant',
        ...(text !== undefined ? { text } : {}),
        ...(paired.length ? { toolCalls: paired } : {}),
      });
    if (paired.length)
      out.messages.push({
        role: 'user',
        toolResults: paired.map((c) => ownResult(results.get(c.id)!, cap, out.markers)),
      });
    if (orphans.length)
      out.messages.push({
        role: 'system',
        text: orphans.map((c) => narrateCall(m.agent, c, undefined, cap, out.markers)).join('\n'),
      });
    return;
  }
  if (text !== undefined) out.messages.push({ role: 'assistant', text });
  out.messages.push({
    role: 'system',
    text: calls.map((c) => narrateCall(m.agent, c, results.get(c.id), cap, out.markers)).join('\n'),
  });
}

function ownResult(r: ToolResult, cap: number, markers: TruncationMarker[]): ToolResult {
  const cut = capContent(r.content, cap, markers);
  return {
    callId: r.callId,
    content: cut.marker ? `${cut.text}\n${cut.marker}` : cut.text,
    ...(r.isError ? { isError: true } : {}),
  };
}

/** `[<name> called <tool>(<args>)]` then `[result: <fenced result>]` (third person, quoted data). */
export function narrateCall(
  agent: string | undefined,
  c: ToolCall,
  r: ToolResult | undefined,
  cap: number,
  markers: TruncationMarker[],
): string {
  const head = `[${neutraliseMarkers(agent ?? 'the other agent')} called ${c.name}(${neutraliseMarkers(formatArgs(c.input))})]`;
  if (!r) return `${head}\n[result: (none recorded)]`;
  const cut = capContent(r.content, cap, markers);
  return `${head}\n[result${r.isError ? ' (error)' : ''}: ${fence(cut.text).text}${cut.marker ? `\n${cut.marker}` : ''}]`;
}

function capContent(
  content: string,
  cap: number,
  markers: TruncationMarker[],
): { text: string; marker?: string } {
  if (content.length <= cap) return { text: content };
  const dropped = content.length - cap;
  const marker = retainedCutMarker(dropped, content.length);
  markers.push({ text: marker, kind: 'result', dropped });
  return { text: content.slice(0, cap), marker };
}

/** Every message of a list of rendered segments, in order. */
export function segmentMessages(segments: readonly RenderedSegment[]): ChatMessage[] {
  return segments.flatMap((s) => s.messages);
}
