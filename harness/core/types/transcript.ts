// Transcripts: part of the domain model (harness/core/index.ts).

/** A tool call an agent made: its id (pairs it with its result), the tool name and the arguments. */
export interface ToolCall {
  /** Unique within its transcript; results point at it through `callId`. */
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
}

/** The result of a tool call, by the call's id. */
export interface ToolResult {
  readonly callId: string;
  readonly content: string;
  readonly isError?: boolean;
  /**
   * The source itself replaced the content before the session was captured (Claude Code's context
   * clearing writes `[Old tool result content cleared]`). An empty `content` without it is a real,
   * empty result.
   */
  readonly cleared?: boolean;
}

/** Roles a model request may carry. Transcripts use only `user` and `assistant`. */
export type ChatRole = 'system' | 'user' | 'assistant';

/** A provider-neutral chat message: what strategies hand to receivers and what requests carry. */
export interface ChatMessage {
  readonly role: ChatRole;
  readonly text?: string;
  readonly toolCalls?: readonly ToolCall[];
  readonly toolResults?: readonly ToolResult[];
}

/** One message of a recorded agent session. */
export interface Message extends ChatMessage {
  readonly role: 'user' | 'assistant';
  /** Which agent wrote it (assistant) or addressed it (user); a key of `Transcript.agents`. */
  readonly agent?: string;
  /** True when this message is a compaction summary standing in for turns that were compacted away. */
  readonly compacted?: boolean;
}

/** What an agent is in a handoff: the primary, the model it escalates to, a child, or its parent. */
export type AgentRole = 'primary' | 'escalation' | 'child' | 'parent';

/** An agent of a session: its role and model. */
export interface AgentInfo {
  readonly role: AgentRole;
  readonly model?: string;
}

/** One agent session, normalised. */
export interface Transcript {
  readonly id?: string;
  readonly messages: readonly Message[];
  /** agent name → role and model. */
  readonly agents: Readonly<Record<string, AgentInfo>>;
  /**
   * Child sessions spawned from this one, keyed by the id of the spawning tool call
   * (e.g. Claude Code's Agent/Task call). Imported parents carry their children here.
   */
  readonly children?: Readonly<Record<string, Transcript>>;
  /** Where it came from: importer format, file, counts. Informational only. */
  readonly meta?: Readonly<Record<string, unknown>>;
}

/** A turn: from one user message that carries text to the next. */
export interface Turn {
  readonly index: number;
  /** Message index range [start, end). */
  readonly start: number;
  readonly end: number;
  /** The user text that opened the turn ('' for a leading turn without user text). */
  readonly userText: string;
  /** The tool activity of the turn's assistant messages, in call order. */
  readonly trail: readonly TrailItem[];
}

/** A tool call with its result (undefined for an orphan), its agent and where it was made. */
export interface TrailItem {
  readonly agent: string | undefined;
  readonly call: ToolCall;
  /** Undefined when the call never got a result (an orphan). */
  readonly result: ToolResult | undefined;
  /** Index of the message that made the call. */
  readonly messageIndex: number;
}

/**
 * A segment: an assistant message together with the messages that carry its tool results — the unit
 * trimming may never split. Any other message is a segment of its own.
 */
export interface Segment {
  readonly start: number;
  readonly end: number;
}

/** Derived views of a session (viewOf): turns, segments, results by call id, orphan calls. */
export interface TranscriptView {
  readonly turns: readonly Turn[];
  readonly segments: readonly Segment[];
  /** callId → result, over the whole transcript. */
  readonly results: ReadonlyMap<string, ToolResult>;
  /** Tool calls with no result anywhere. */
  readonly orphans: readonly ToolCall[];
}

/**
 * A domain value under construction: the readonly type with its own fields writable (one level deep).
 * A builder fills a fresh Draft and returns it as the readonly type; a shared Transcript, Case or
 * Handoff is never a Draft (identity-keyed caches — the runner's handoff memo, the kit's source memo,
 * viewOf — rely on a value not changing once built).
 */
export type Draft<T> = { -readonly [K in keyof T]: T[K] };
