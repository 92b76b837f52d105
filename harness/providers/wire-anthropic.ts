import type { ChatMessage, ModelRequest, ToolCall, ToolChoice, Usage } from '../core/index.ts';
import { calledToolNames, createIdMap, normalizeMessages } from './wire-shared.ts';

/**
 * The version of the mapping below: **bump it when toAnthropicBody changes what it sends** for a given
 * request. It is in the provider's response-cache scope, so a new mapping never replays answers to the
 * old one.
 */
export const ANTHROPIC_WIRE_VERSION = 1;

/** The Messages API request body we send (a structural subset of the SDK's MessageCreateParams). */
export interface AnthropicBody {
  model: string;
  max_tokens: number;
  system?: string;
  messages: AnthropicMessage[];
  tools?: { name: string; description: string; input_schema: Record<string, unknown> }[];
  tool_choice?: { type: 'auto' } | { type: 'none' } | { type: 'tool'; name: string };
  temperature?: number;
}

export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: AnthropicBlock[];
}

type CacheControl = { cache_control?: { type: 'ephemeral' } };
export type AnthropicBlock = CacheControl &
  (
    | { type: 'text'; text: string }
    | { type: 'tool_use'; id: string; name: string; input: unknown }
    | { type: 'tool_result'; tool_use_id: string; content: string; is_error?: boolean }
  );

/** Placeholder definitions carry this, so a reader of the request sees why they are there. */
const PLACEHOLDER_DESCRIPTION = 'A tool used earlier in this session; it cannot be called now.';

/**
 * ModelRequest → Messages API body. The API wants strictly alternating user/assistant turns starting
 * with user, tool_result blocks first in the message after the tool_use, and tool definitions whenever
 * tool blocks appear; the harness's messages (system-role narration lines, runs of user messages,
 * orphaned calls) are mapped onto that without dropping content. `cachePrefix` puts the cache
 * breakpoint on the last block of the shared prefix, so tools + system + prefix are cached together.
 */
export function toAnthropicBody(req: ModelRequest): AnthropicBody {
  const toolId = createIdMap(128);
  const toolName = createIdMap(128);
  const messages: AnthropicMessage[] = [];
  const prefix = new Set<AnthropicBlock>();
  for (const m of normalizeMessages(req.messages)) {
    const role = m.role === 'assistant' ? 'assistant' : 'user';
    const blocks = blocksOf(m, toolId, toolName);
    if (blocks.length === 0) continue;
    if (req.cachePrefix !== undefined && m.last < req.cachePrefix) for (const b of blocks) prefix.add(b);
    const last = messages[messages.length - 1];
    if (last && last.role === role) last.content = mergeContent(last.content, blocks);
    else messages.push({ role, content: blocks });
  }
  if (messages[0]?.role !== 'user')
    messages.unshift({ role: 'user', content: [{ type: 'text', text: '(session start)' }] });
  markCacheBreakpoint(messages, prefix);
  const body: AnthropicBody = { model: req.model, max_tokens: req.maxTokens, messages };
  if (req.system) body.system = req.system;
  if (req.temperature !== undefined) body.temperature = req.temperature;
  const tools = req.tools?.map((t) => ({
    name: toolName(t.name),
    description: t.description,
    input_schema: t.inputSchema,
  }));
  if (tools?.length) {
    body.tools = tools;
    if (req.toolChoice) body.tool_choice = toolChoiceOf(req.toolChoice, toolName);
  } else if (messages.some((m) => m.content.some((b) => b.type === 'tool_use'))) {
    // The API refuses tool blocks in a request that defines no tools: declare the history's tools, callable never.
    body.tools = calledToolNames(req.messages).map((n) => ({
      name: toolName(n),
      description: PLACEHOLDER_DESCRIPTION,
      input_schema: { type: 'object' },
    }));
    body.tool_choice = { type: 'none' };
  }
  return body;
}

function blocksOf(
  m: ChatMessage,
  toolId: (s: string) => string,
  toolName: (s: string) => string,
): AnthropicBlock[] {
  const blocks: AnthropicBlock[] = [];
  for (const r of m.toolResults ?? [])
    blocks.push({
      type: 'tool_result',
      tool_use_id: toolId(r.callId),
      content: r.content,
      ...(r.isError ? { is_error: true } : {}),
    });
  if (m.text) blocks.push({ type: 'text', text: m.text });
  for (const c of m.toolCalls ?? [])
    blocks.push({ type: 'tool_use', id: toolId(c.id), name: toolName(c.name), input: inputObject(c) });
  return blocks;
}

/** Consecutive same-role messages become one; tool_result blocks must lead the merged content. */
function mergeContent(a: AnthropicBlock[], b: AnthropicBlock[]): AnthropicBlock[] {
  const all = [...a, ...b];
  if (!all.some((x) => x.type === 'tool_result')) return all;
  return [...all.filter((x) => x.type === 'tool_result'), ...all.filter((x) => x.type !== 'tool_result')];
}

/** cache_control on the last block of the shared prefix: tools, system and that prefix are cached as one. */
function markCacheBreakpoint(messages: AnthropicMessage[], prefix: Set<AnthropicBlock>): void {
  if (prefix.size === 0) return;
  let last: AnthropicBlock | undefined;
  for (const m of messages) for (const b of m.content) if (prefix.has(b)) last = b;
  if (last) last.cache_control = { type: 'ephemeral' };
}

/** tool_use.input must be an object; transcripts sometimes hold a raw string. */
function inputObject(c: ToolCall): unknown {
  if (c.input !== null && typeof c.input === 'object' && !Array.isArray(c.input)) return c.input;
  return { input: c.input ?? null };
}

function toolChoiceOf(choice: ToolChoice, toolName: (s: string) => string): AnthropicBody['tool_choice'] {
  if (choice.type === 'tool') return { type: 'tool', name: toolName(choice.name) };
  return { type: choice.type };
}

/** The fields of a Messages API response the harness reads. */
export interface AnthropicReply {
  content: (
    | { type: 'text'; text: string }
    | { type: 'tool_use'; id: string; name: string; input: unknown }
    | { type: string }
  )[];
  stop_reason: string | null;
  model: string;
  usage: {
    input_tokens: number;
    output_tokens: number;
    cache_read_input_tokens?: number | null;
    cache_creation_input_tokens?: number | null;
  };
}

/** What fromAnthropicReply needs of a 2xx body; the transport retries a body without it (undefined: fine). */
export function anthropicReplyProblem(json: unknown): string | undefined {
  const reply = json as { content?: unknown; usage?: unknown } | null;
  if (!Array.isArray(reply?.content)) return 'no content array';
  if (!reply.usage || typeof reply.usage !== 'object') return 'no usage';
  return undefined;
}

/** Reply → text, tool calls (names mapped back to the request's names), stop reason, usage. */
export function fromAnthropicReply(
  reply: AnthropicReply,
  req: ModelRequest,
): { text: string; toolCalls: ToolCall[]; stopReason: string; usage: Usage; model: string } {
  const names = new Map(
    (req.tools ?? []).map((t) => [t.name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 128), t.name]),
  );
  const text: string[] = [];
  const toolCalls: ToolCall[] = [];
  for (const b of reply.content) {
    if (b.type === 'text') text.push((b as { text: string }).text);
    else if (b.type === 'tool_use') {
      const u = b as { id: string; name: string; input: unknown };
      toolCalls.push({ id: u.id, name: names.get(u.name) ?? u.name, input: u.input });
    }
  }
  const u = reply.usage;
  return {
    text: text.join(''),
    toolCalls,
    stopReason: reply.stop_reason ?? 'unknown',
    // input_tokens excludes cache reads and writes here, which is what the price table expects.
    usage: {
      inputTokens: u.input_tokens,
      outputTokens: u.output_tokens,
      cacheReadTokens: u.cache_read_input_tokens ?? 0,
      cacheWriteTokens: u.cache_creation_input_tokens ?? 0,
    },
    model: reply.model,
  };
}
