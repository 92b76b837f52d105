import type { ModelRequest, ToolCall, ToolChoice, Usage } from '../core/index.ts';
import { argsText, createIdMap, normalizeMessages, numericSeed, parseArguments } from './wire-shared.ts';

/**
 * The version of the mapping below: **bump it when toOpenAIBody changes what it sends** for a given
 * request. It is in the provider's response-cache scope, with the wire options, so a new mapping never
 * replays answers to the old one.
 */
export const OPENAI_WIRE_VERSION = 2;

/** The Chat Completions request body we send (a structural subset of the SDK's params). */
export interface OpenAIBody {
  model: string;
  messages: OpenAIMessage[];
  max_tokens?: number;
  max_completion_tokens?: number;
  temperature?: number;
  seed?: number;
  tools?: {
    type: 'function';
    function: { name: string; description: string; parameters: Record<string, unknown> };
  }[];
  tool_choice?: 'auto' | 'none' | { type: 'function'; function: { name: string } };
}

export type OpenAIMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | {
      role: 'assistant';
      content: string | null;
      tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
    }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface OpenAIWireOptions {
  /** OpenAI's own API wants max_completion_tokens; most OpenAI-compatible servers know max_tokens. */
  tokenField: 'max_tokens' | 'max_completion_tokens';
  /** Send a numeric seed derived from the request's seed (servers that sample with it are reproducible). */
  sendSeed: boolean;
}

/**
 * ModelRequest → Chat Completions body. System-role narration lines stay system messages in place;
 * tool results become `tool` messages, which must directly follow the assistant message that made the
 * calls, so within a run of messages after such an assistant message the tool messages come first.
 * A run of user text is one user message (joined by a blank line): Chat Completions itself accepts
 * two in a row, but OpenAI-compatible servers whose chat template wants strictly alternating roles
 * (vLLM, llama.cpp) answer 400 "Conversation roles must alternate" — and the Messages API merges
 * such a run into one turn too (docs/decisions.md, 2026-12-03).
 */
export function toOpenAIBody(req: ModelRequest, opts: OpenAIWireOptions): OpenAIBody {
  const callId = createIdMap(40);
  const toolName = createIdMap(64);
  const messages: OpenAIMessage[] = req.system ? [{ role: 'system', content: req.system }] : [];
  let toolsAt = -1;
  for (const m of normalizeMessages(req.messages)) {
    if (m.role === 'assistant') {
      const calls = (m.toolCalls ?? []).map((c) => ({
        id: callId(c.id),
        type: 'function' as const,
        function: { name: toolName(c.name), arguments: argsText(c) },
      }));
      if (!m.text && calls.length === 0) continue;
      messages.push({
        role: 'assistant',
        content: m.text ?? null,
        ...(calls.length ? { tool_calls: calls } : {}),
      });
      toolsAt = calls.length ? messages.length : -1;
      continue;
    }
    const results = (m.toolResults ?? []).map((r) => ({
      role: 'tool' as const,
      tool_call_id: callId(r.callId),
      content: r.isError ? `(tool error) ${r.content}` : r.content,
    }));
    if (results.length && toolsAt >= 0) {
      messages.splice(toolsAt, 0, ...results);
      toolsAt += results.length;
    }
    if (m.text) pushText(messages, m.role === 'system' ? 'system' : 'user', m.text);
  }
  const body: OpenAIBody = { model: req.model, messages, [opts.tokenField]: req.maxTokens };
  if (req.temperature !== undefined) body.temperature = req.temperature;
  if (opts.sendSeed) body.seed = numericSeed(req.seed);
  const tools = (req.tools ?? []).map((t) => ({
    type: 'function' as const,
    function: { name: toolName(t.name), description: t.description, parameters: t.inputSchema },
  }));
  if (tools.length) {
    body.tools = tools;
    if (req.toolChoice) body.tool_choice = toolChoiceOf(req.toolChoice, toolName);
  }
  return body;
}

/** A user text right after a user message joins it; anything else is a message of its own. */
function pushText(messages: OpenAIMessage[], role: 'system' | 'user', text: string): void {
  const last = messages[messages.length - 1];
  if (role === 'user' && last?.role === 'user') last.content = `${last.content}\n\n${text}`;
  else messages.push({ role, content: text });
}

function toolChoiceOf(choice: ToolChoice, toolName: (s: string) => string): OpenAIBody['tool_choice'] {
  if (choice.type === 'tool') return { type: 'function', function: { name: toolName(choice.name) } };
  return choice.type;
}

/** The fields of a Chat Completions response the harness reads. */
export interface OpenAIReply {
  model?: string;
  choices: {
    message: {
      content?: string | null;
      /** The model's refusal, when it refused (content is then null). */
      refusal?: string | null;
      tool_calls?: { id: string; type?: string; function?: { name: string; arguments?: string } }[] | null;
    };
    finish_reason?: string | null;
  }[];
  usage?: {
    prompt_tokens?: number;
    completion_tokens?: number;
    prompt_tokens_details?: { cached_tokens?: number | null } | null;
  } | null;
}

/** What fromOpenAIReply needs of a 2xx body; the transport retries a body without it (undefined: fine). */
export function openaiReplyProblem(json: unknown): string | undefined {
  const choices = (json as { choices?: unknown } | null)?.choices;
  if (!Array.isArray(choices) || choices.length === 0) return 'no choices';
  const message = (choices[0] as { message?: unknown } | null)?.message;
  if (!message || typeof message !== 'object') return 'no choices[0].message';
  return undefined;
}

/**
 * Reply → text, tool calls, stop reason, usage. prompt_tokens includes cached tokens here; they are
 * split out so that inputTokens means uncached input for every provider (the price table's meaning).
 * `usage` is undefined when the server sent none (some local servers); the provider estimates it.
 */
export function fromOpenAIReply(
  reply: OpenAIReply,
  req: ModelRequest,
): { text: string; toolCalls: ToolCall[]; stopReason: string; usage: Usage | undefined; model: string } {
  const names = new Map(
    (req.tools ?? []).map((t) => [t.name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64), t.name]),
  );
  const choice = reply.choices[0];
  const message = choice?.message ?? { content: '' };
  const toolCalls: ToolCall[] = (message.tool_calls ?? [])
    .filter((c) => c.function)
    .map((c) => ({
      id: c.id,
      name: names.get(c.function!.name) ?? c.function!.name,
      input: parseArguments(c.function!.arguments),
    }));
  const u = reply.usage;
  const cached = u?.prompt_tokens_details?.cached_tokens ?? 0;
  const usage =
    u && typeof u.prompt_tokens === 'number'
      ? {
          inputTokens: u.prompt_tokens - cached,
          outputTokens: u.completion_tokens ?? 0,
          cacheReadTokens: cached,
          cacheWriteTokens: 0,
        }
      : undefined;
  // A refusal is a stop reason of its own, whichever way the server says it (message.refusal).
  const refused = typeof message.refusal === 'string' && message.refusal.trim() !== '';
  return {
    text: message.content ?? (refused ? message.refusal! : ''),
    toolCalls,
    stopReason: refused ? 'refusal' : (choice?.finish_reason ?? 'unknown'),
    usage,
    model: reply.model ?? req.model,
  };
}
