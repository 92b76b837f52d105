// Transcripts: part of the domain model (harness/core/index.ts).

/** A tool call an agent made: its id (pairs it with its result), the tool name and the arguments. */
export interface ToolCall {
  /** Unique within its transcript; results point at it through `callId`. */
  id: string;
  name: string;
  input: unknown;
}

/** The result of a tool call, by the call's id. */
export interface ToolResult {
  callId: string;
  content: string;
  isError?: boolean;
  /**
   * The source itself replaced the content before the session was captured (Claude Code's context
   * clearing writes `[Old tool result content cleared]`). An empty `content` without it is a real,
   * empty result.
   */
  cleared?: boolean;
}

/** Roles a model request may carry. Transcripts use only `user` and `assistant`. */
export type ChatRole = 'system' | 'user' | 'assistant';

/** A provider-neutral chat message: what strategies hand to receivers and what requests carry. */
export interface ChatMessage {
  role: ChatRole;
  text?: string;
  toolCalls?: ToolCall[];
  toolResults?: ToolResult[];
}

/** One message of a recorded agent session. */
export interface Message extends ChatMessage {
  role: 'user' | 'assistant';
  /** Which agent wrote it (assistant) or addressed it (user); a key of `Transcript.agents`. */
  agent?: string;
  /** True when this message is a compaction summary standing in for turns that were compacted away. */
  compacted?: boolean;
}

/** What an agent is in a handoff: the primary, the model it escalates to, a child, or its parent. */
export type AgentRole = 'primary' | 'escalation' | 'child' | 'parent';

/** An agent of a session: its role and model. */
export interface AgentInfo {
  role: AgentRole;
  model?: string;
}

/** One agent session, normalised. */
export interface Transcript {
  id?: string;
  messages: Message[];
  /** agent name → role and model. */
  agents: Record<string, AgentInfo>;
  /**
   * Child sessions spawned from this one, keyed by the id of the spawning tool call
   * (e.g. Claude Code's Agent/Task call). Imported parents carry their children here.
   */
  children?: Record<string, Transcript>;
  /** Where it came from: importer format, file, counts. Informational only. */
  meta?: Record<string, unknown>;
}

/** A turn: from one user message that carries text to the next. */
export interface Turn {
  index: number;
  /** Message index range [start, end). */
  start: number;
  end: number;
  /** The user text that opened the turn ('' for a leading turn without user text). */
  userText: string;
  /** The tool activity of the turn's assistant messages, in call order. */
  trail: TrailItem[];
}

/** A tool call with its result (undefined for an orphan), its agent and where it was made. */
export interface TrailItem {
  agent: string | undefined;
  call: ToolCall;
  /** Undefined when the call never got a result (an orphan). */
  result: ToolResult | undefined;
  /** Index of the message that made the call. */
  messageIndex: number;
}

/**
 * A segment: an assistant message together with the messages that carry its tool results — the unit
 * trimming may never split. Any other message is a segment of its own.
 */
export interface Segment {
  start: number;
  end: number;
}

/** Derived views of a session (viewOf): turns, segments, results by call id, orphan calls. */
export interface TranscriptView {
  turns: Turn[];
  segments: Segment[];
  /** callId → result, over the whole transcript. */
  results: Map<string, ToolResult>;
  /** Tool calls with no result anywhere. */
  orphans: ToolCall[];
}
