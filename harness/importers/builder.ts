import type { AgentInfo, Draft, Message, ToolCall, ToolResult, Transcript } from '../core/index.ts';

/**
 * A message an importer is still filling: its fields and its result list writable (a later record may
 * complete it: a result's error flag, an appended error observation, a compaction summary's text). It is
 * returned as a readonly Message once makeTranscript builds the Transcript.
 */
export type MessageDraft = Omit<Draft<Message>, 'toolResults'> & { toolResults?: Draft<ToolResult>[] };

/** What an importer dropped, by kind (`thinking`, `attachment:hook_success`, `truncated_line`, …). */
export type Skipped = Record<string, number>;

export function countSkip(skipped: Skipped, kind: string, n = 1): void {
  if (n > 0) skipped[kind] = (skipped[kind] ?? 0) + n;
}

/**
 * Accumulates normalised messages in the Anthropic shape every format is mapped to: tool results
 * live in `user` messages right after the assistant message that made the calls.
 *
 * It also keeps call ids unique within the transcript (ToolCall.id's contract): SWE-agent replays
 * reuse ids such as `call_5iDd…` for several steps, so a repeated id gets a `#n` suffix and a result
 * pairs with the earliest still-unanswered call carrying that original id.
 */
export class TranscriptBuilder {
  readonly messages: MessageDraft[] = [];
  private readonly waiting = new Map<string, string[]>();
  private readonly issued = new Set<string>();

  constructor(readonly agent: string) {}

  userText(text: string, agent = this.agent): void {
    if (text.trim() === '') return;
    this.messages.push({ role: 'user', agent, text });
  }

  /** A compaction summary: stands in for turns that were compacted away; nothing rebuilds them. */
  compaction(text: string, agent = this.agent): void {
    this.messages.push({ role: 'user', agent, text, compacted: true });
  }

  /** Returns the calls as stored (ids made unique). Empty messages (no text, no calls) are not kept. */
  assistant(text: string | undefined, calls: ToolCall[], agent = this.agent): ToolCall[] {
    const stored = calls.map((c) => ({ ...c, id: this.issue(c.id) }));
    const message: MessageDraft = { role: 'assistant', agent };
    if (text !== undefined && text.trim() !== '') message.text = text;
    if (stored.length > 0) message.toolCalls = stored;
    if (message.text !== undefined || message.toolCalls) this.messages.push(message);
    return stored;
  }

  /**
   * Adds a result to the trailing result carrier (a user message with results and no text) or opens
   * one. A result whose call is unknown is kept under its own id; transcriptCounts counts it.
   */
  result(callId: string, content: string, isError?: boolean, agent = this.agent): void {
    this.addResult({ callId, content, ...(isError ? { isError: true } : {}) }, agent);
  }

  /** The same, for a result built by the format (flags such as `cleared` kept). */
  addResult(r: ToolResult, agent = this.agent): void {
    const result: Draft<ToolResult> = { ...r, callId: this.resolve(r.callId) };
    if (!result.isError) delete result.isError;
    const last = this.messages.at(-1);
    if (last && last.role === 'user' && last.toolResults && last.text === undefined && !last.compacted) {
      last.toolResults.push(result);
    } else {
      this.messages.push({ role: 'user', agent, toolResults: [result] });
    }
  }

  /** The last result stored for a call (by original id, so a `#n`-suffixed duplicate counts too). */
  findResult(callId: string): Draft<ToolResult> | undefined {
    for (let i = this.messages.length - 1; i >= 0; i--) {
      const results = this.messages[i]!.toolResults ?? [];
      for (let j = results.length - 1; j >= 0; j--) {
        const r = results[j]!;
        if (r.callId === callId || r.callId.startsWith(`${callId}#`)) return r;
      }
    }
    return undefined;
  }

  private issue(original: string): string {
    let id = original;
    for (let n = 2; this.issued.has(id); n++) id = `${original}#${n}`;
    this.issued.add(id);
    const queue = this.waiting.get(original) ?? [];
    queue.push(id);
    this.waiting.set(original, queue);
    return id;
  }

  private resolve(original: string): string {
    return this.waiting.get(original)?.shift() ?? original;
  }
}

export interface TranscriptCounts {
  messages: number;
  toolCalls: number;
  pairedResults: number;
  /** Calls with no result anywhere after them. */
  orphanCalls: number;
  /** Results with no earlier call of that id, and second results for an already answered call. */
  orphanResults: number;
}

/** Counts one transcript (children not included); a result pairs only with a call made before it. */
export function transcriptCounts(messages: readonly Message[]): TranscriptCounts {
  const called = new Set<string>();
  const answered = new Set<string>();
  let toolCalls = 0;
  let orphanResults = 0;
  for (const m of messages) {
    for (const c of m.toolCalls ?? []) {
      toolCalls++;
      called.add(c.id);
    }
    for (const r of m.toolResults ?? []) {
      if (called.has(r.callId) && !answered.has(r.callId)) answered.add(r.callId);
      else orphanResults++;
    }
  }
  const pairedResults = answered.size;
  return {
    messages: messages.length,
    toolCalls,
    pairedResults,
    orphanCalls: toolCalls - pairedResults,
    orphanResults,
  };
}

/** Every transcript of a tree, parent first. */
export function walkTranscripts(root: Transcript): Transcript[] {
  const out: Transcript[] = [root];
  for (const child of Object.values(root.children ?? {})) out.push(...walkTranscripts(child));
  return out;
}

export interface TranscriptParts {
  format: string;
  file: string;
  id?: string;
  agents: Readonly<Record<string, AgentInfo>>;
  children?: Readonly<Record<string, Transcript>>;
  /** Format-specific extras merged into meta (system prompt, away summaries, instance ids…). */
  meta?: Record<string, unknown>;
}

/** Assembles a Transcript and records its own counts in meta (children count themselves). */
export function makeTranscript(messages: readonly Message[], parts: TranscriptParts): Transcript {
  const transcript: Draft<Transcript> = { messages, agents: parts.agents };
  if (parts.id !== undefined) transcript.id = parts.id;
  if (parts.children && Object.keys(parts.children).length > 0) transcript.children = parts.children;
  const meta: Record<string, unknown> = { format: parts.format, file: parts.file };
  for (const [k, v] of Object.entries(parts.meta ?? {})) if (v !== undefined) meta[k] = v;
  meta.counts = transcriptCounts(messages);
  transcript.meta = meta;
  return transcript;
}

/**
 * Collects one model response that arrives spread over several records (Claude Code writes one
 * content block per line; OpenHands one action event per parallel call) into ONE assistant message.
 * Tools start running while the response streams, so results may arrive between the calls of the
 * same response; they are held back and emitted after the assistant message, in arrival order.
 */
export class ResponseGrouper {
  private key: string | undefined;
  private agent: string | undefined;
  private texts: string[] = [];
  private calls: ToolCall[] = [];
  private results: Draft<ToolResult>[] = [];

  constructor(private readonly builder: TranscriptBuilder) {}

  /** Adds part of the response `key`; a different key first flushes the previous response. */
  add(key: string, part: { text?: string; calls?: ToolCall[] }, agent?: string): void {
    if (key !== this.key) this.flush();
    this.key = key;
    this.agent = agent;
    if (part.text !== undefined && part.text.trim() !== '') this.texts.push(part.text);
    this.calls.push(...(part.calls ?? []));
  }

  result(result: ToolResult): void {
    if (this.key === undefined) this.builder.addResult(result, this.agent);
    else this.results.push(result);
  }

  /** The held-back result for a call, so a later record can amend it (OpenHands orphan errors). */
  heldResult(callId: string): Draft<ToolResult> | undefined {
    return this.results.find((r) => r.callId === callId);
  }

  flush(): void {
    if (this.key === undefined) return;
    const text = this.texts.length > 0 ? this.texts.join('\n\n') : undefined;
    this.builder.assistant(text, this.calls, this.agent);
    for (const r of this.results) this.builder.addResult(r, this.agent);
    this.key = undefined;
    this.texts = [];
    this.calls = [];
    this.results = [];
  }
}
