import type { Assertion, Reference } from './case.ts';
import type { ChatMessage, ToolCall } from './transcript.ts';

// Model calls: part of the domain model (harness/core/index.ts).

/** The kind of call, for accounting and for the sim's behaviour (never the strategy's name). */
export type CallPurpose =
  | 'answer'
  | 'summarize'
  | 'contract'
  | 'background'
  | 'judge'
  | 'classify'
  /** A turn of the source agent's own tool loop (live mode). */
  | 'act';

/** Whether the model may, must not, or must call a tool (a named one). */
export type ToolChoice = { type: 'auto' } | { type: 'none' } | { type: 'tool'; name: string };

/**
 * Labels the sim provider reads to recognise claims in its context, the way a human reader would;
 * real providers ignore them. They describe the case, never the strategy or arm.
 */
export interface SimHints {
  caseId: string;
  assertions: readonly Assertion[];
  reference: Reference;
  /** The criteria a judge call scores. */
  criteria?: readonly string[];
  /**
   * Live, writable worlds: the file changes the recorded session made in answer to its brief. They stand
   * in for the reasoning a model would do: the acting sim makes one only once its own calls showed it
   * the file (docs/live.md).
   */
  edits?: readonly SimEdit[];
  /**
   * act: the request's first messages that are the parent's window, not the sim's own session
   * (`--live-inline prefix`); the acting sim reads its brief and its steps after them.
   */
  prefixMessages?: number;
}

/** A recorded file change (edit_file / write_file) the acting sim may make in a writable world. */
export interface SimEdit {
  name: 'edit_file' | 'write_file';
  input: Readonly<Record<string, unknown>>;
}

/** What a strategy or judge asks for; the harness adds the model. */
export interface ModelRequestInput {
  purpose: CallPurpose;
  system?: string;
  messages: readonly ChatMessage[];
  tools?: readonly ToolSpec[];
  toolChoice?: ToolChoice;
  maxTokens: number;
  temperature?: number;
  /** Number of leading messages that are a shared prefix worth caching (Anthropic cache_control). */
  cachePrefix?: number;
  sim?: SimHints;
}

/** A request to a model through the one provider interface (ctx.call builds it with the seed). */
export interface ModelRequest extends ModelRequestInput {
  /** The provider's model id. */
  model: string;
  /** A per-cell seed (run seed, cell, rep, call index); deterministic providers use it, and it keys the cache. */
  seed: string;
}

/** Tokens a model call used: input, output, and cache reads and writes. */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

/**
 * A model's answer: text, tool calls, the stop reason, usage, latency, the model that answered, whether the
 * cache served it, retries and cost.
 */
export interface ModelResponse {
  text: string;
  toolCalls: ToolCall[];
  stopReason: string;
  usage: Usage;
  /** Measured latency, or the sim's modelled latency. */
  latencyMs: number;
  model: string;
  requestId?: string;
  /** Served from the response cache. */
  cached: boolean;
  retries: number;
  costUsd: number;
}

/** Options of a provider call: a signal to abort it. */
export interface GenerateOptions {
  signal?: AbortSignal;
}

/** The one provider interface: only providers know a vendor's wire format. */
export interface Provider {
  id: string;
  generate: (request: ModelRequest, options?: GenerateOptions) => Promise<ModelResponse>;
  /**
   * What besides the request changes the output: the base URL of an OpenAI-compatible server, the
   * wire options derived from it, the sim's rates and behaviour version. Part of the response-cache
   * key; a function when it depends on the model. Optional.
   */
  cacheScope?: string | ((model: string) => string);
  /** Release sockets/handles. */
  close?: () => Promise<void>;
}

/** One line of calls.jsonl. */
export interface CallRecord {
  runId: string;
  cellId: string;
  role: ModelRole;
  purpose: CallPurpose;
  provider: string;
  model: string;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  latencyMs: number;
  cached: boolean;
  retries: number;
  costUsd: number;
  /**
   * Why the model stopped, as the vendor says it (end_turn / stop, max_tokens / length, tool_use /
   * tool_calls) — `refusal` and `content_filter` whatever the vendor's spelling. Absent on a failed call.
   */
  stopReason?: string;
  error?: string;
}

/** Who a model call is for: the source agent, the receiver, or a judge. */
export type ModelRole = 'source' | 'receiver' | 'judge';

/** A tool offered to a model: name, description and JSON Schema of its input. */
export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the input. */
  inputSchema: Record<string, unknown>;
}
