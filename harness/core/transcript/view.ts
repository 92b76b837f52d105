import type {
  Draft,
  Message,
  Segment,
  ToolCall,
  ToolResult,
  TrailItem,
  Transcript,
  TranscriptView,
  Turn,
} from '../types/transcript.ts';

const views = new WeakMap<Transcript, TranscriptView>();

/** The derived views of a transcript (turns, segments, trails), computed once per transcript object. */
export function viewOf(transcript: Transcript): TranscriptView {
  let view = views.get(transcript);
  if (!view) {
    view = computeView(transcript.messages);
    views.set(transcript, view);
  }
  return view;
}

/**
 * The derived views of a session's messages (turns, segments, results by call id, orphan calls); viewOf
 * caches it per transcript.
 */
export function computeView(messages: readonly Message[]): TranscriptView {
  const results = new Map<string, ToolResult>();
  for (const m of messages)
    for (const r of m.toolResults ?? []) if (!results.has(r.callId)) results.set(r.callId, r);
  const orphans: ToolCall[] = [];
  for (const m of messages) for (const c of m.toolCalls ?? []) if (!results.has(c.id)) orphans.push(c);
  return { turns: computeTurns(messages, results), segments: computeSegments(messages), results, orphans };
}

/** The last assistant message with text: what a framework returning "the final message" passes. */
export function lastAssistantText(t: Transcript): { index: number; text: string } | undefined {
  for (let i = t.messages.length - 1; i >= 0; i--) {
    const m = t.messages[i]!;
    if (m.role === 'assistant' && m.text && m.text.trim()) return { index: i, text: m.text };
  }
  return undefined;
}

/** A user message that carries text opens a turn (tool-result carriers do not). */
export function opensTurn(m: Message): boolean {
  return m.role === 'user' && typeof m.text === 'string' && m.text.trim() !== '';
}

type TurnDraft = Omit<Draft<Turn>, 'trail'> & { trail: TrailItem[] };

function computeTurns(messages: readonly Message[], results: Map<string, ToolResult>): Turn[] {
  // Built as drafts, returned as the readonly Turn the view caches.
  const turns: TurnDraft[] = [];
  let current: TurnDraft | undefined;
  messages.forEach((m, i) => {
    if (!current || opensTurn(m)) {
      if (current) current.end = i;
      current = {
        index: turns.length,
        start: i,
        end: messages.length,
        userText: opensTurn(m) ? m.text! : '',
        trail: [],
      };
      turns.push(current);
    }
    if (m.role === 'assistant') {
      for (const call of m.toolCalls ?? []) current.trail.push(trailItem(m, call, results, i));
    }
  });
  return turns;
}

function trailItem(
  m: Message,
  call: ToolCall,
  results: Map<string, ToolResult>,
  messageIndex: number,
): TrailItem {
  return { agent: m.agent, call, result: results.get(call.id), messageIndex };
}

/**
 * Segments: an assistant message plus every later message that carries one of its results, up to
 * the last such message (anything in between joins the segment, so no call is ever cut from its result).
 */
function computeSegments(messages: readonly Message[]): Segment[] {
  const resultAt = new Map<string, number>();
  messages.forEach((m, i) => {
    for (const r of m.toolResults ?? []) if (!resultAt.has(r.callId)) resultAt.set(r.callId, i);
  });
  const segments: Segment[] = [];
  let i = 0;
  while (i < messages.length) {
    let end = i + 1;
    for (let j = i; j < end; j++) {
      for (const c of messages[j]!.toolCalls ?? []) {
        const at = resultAt.get(c.id);
        if (at !== undefined && at + 1 > end) end = at + 1;
      }
    }
    segments.push({ start: i, end });
    i = end;
  }
  return segments;
}

/** All tool calls of a transcript with their results, in message order. */
export function allTrailItems(transcript: Transcript): TrailItem[] {
  return viewOf(transcript).turns.flatMap((t) => t.trail);
}

/** The text of the last assistant message that has text (the agent's final answer). */
export function finalAssistantText(transcript: Transcript): string {
  for (let i = transcript.messages.length - 1; i >= 0; i--) {
    const m = transcript.messages[i]!;
    if (m.role === 'assistant' && m.text) return m.text;
  }
  return '';
}
