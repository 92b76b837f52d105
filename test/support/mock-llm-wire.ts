import { createHash } from 'node:crypto';

/**
 * The two wire protocols as the mock server speaks them: replies (text or a tool call, usage with
 * cache tokens) and the request rules the real APIs enforce, so a request the harness builds wrongly
 * fails here the way it would fail against the vendor (HTTP 400, invalid_request_error).
 */
export type Protocol = 'anthropic' | 'openai';

/** What the mock answers; a responder may return it to script a reply. */
export interface MockReply {
  text?: string;
  toolCall?: { name: string; input: unknown };
  /** Several calls in one message (parallel tool calls); with text, both are sent. */
  toolCalls?: { name: string; input: unknown }[];
  usage?: { input?: number; output?: number; cacheRead?: number; cacheWrite?: number };
  /** The stop reason as the vendor writes it: Anthropic `stop_reason` ("refusal"), OpenAI `finish_reason` ("content_filter"). */
  stop?: string;
  /** OpenAI: `message.refusal`, the model's refusal text (content is then null). */
  refusal?: string;
}

/** The reply's tool calls, whichever field holds them. */
export function callsOf(reply: MockReply): { name: string; input: unknown }[] {
  return reply.toolCalls ?? (reply.toolCall ? [reply.toolCall] : []);
}

export type Responder = (body: any, protocol: Protocol) => MockReply | undefined;

const approxTokens = (s: string) => Math.ceil(s.length / 4);

/** A value that satisfies a JSON Schema's required fields (the default reply to a forced tool call). */
export function sampleFromSchema(schema: any): unknown {
  if (!schema || typeof schema !== 'object') return null;
  if (schema.enum) return schema.enum[0];
  switch (schema.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const k of schema.required ?? []) out[k] = sampleFromSchema(schema.properties?.[k]);
      return out;
    }
    case 'array':
      return schema.minItems === 0 ? [] : [sampleFromSchema(schema.items)];
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return false;
    case 'string':
      return 'mock';
    default:
      return null;
  }
}

function forcedTool(body: any, protocol: Protocol): any | undefined {
  const choice = body.tool_choice;
  const name =
    protocol === 'anthropic' ? (choice?.type === 'tool' ? choice.name : undefined) : choice?.function?.name;
  if (!name) return undefined;
  return (body.tools ?? []).find((t: any) => (protocol === 'anthropic' ? t.name : t.function?.name) === name);
}

/**
 * The default reading of a forced classify_survival call (the survival classifier, issue 26): a claim is
 * kept where the source's own statement of it is in the fenced text word for word, else absent — a mock
 * model that reads literally, for runs that script nothing else (test/support/scripted-reader.ts reads
 * paraphrases). Every claim id the schema lists gets a mark, as a real model is asked to.
 */
function defaultClassify(body: any, schema: any): unknown {
  const ids: string[] = schema.properties.marks.items.properties.assertion_id.enum;
  const first = (body.messages ?? []).find((m: any) => m.role === 'user');
  const user: string =
    typeof first?.content === 'string'
      ? first.content
      : (first?.content ?? []).map((b: any) => b.text ?? '').join('');
  const text = (
    /<<<UNTRUSTED-([0-9a-f]+)>>>([\s\S]*?)<<<END-UNTRUSTED-\1>>>/.exec(user)?.[2] ?? ''
  ).toLowerCase();
  const marks = ids.map((id) => {
    const statement = new RegExp(
      `^- ${id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\[[a-z]+\\] as the source agent stated it: "(.*?)"(?: —|$)`,
      'm',
    ).exec(user)?.[1];
    const kept = statement !== undefined && text.includes(statement.toLowerCase());
    return { assertion_id: id, mark: kept ? 'kept' : 'absent', quote: kept ? statement : '' };
  });
  return { marks };
}

/** The default reply: a forced tool gets a schema-valid call; otherwise a short deterministic text. */
export function defaultReply(body: any, protocol: Protocol): MockReply {
  const tool = forcedTool(body, protocol);
  if (tool) {
    const name = protocol === 'anthropic' ? tool.name : tool.function.name;
    const schema = protocol === 'anthropic' ? tool.input_schema : tool.function.parameters;
    if (name === 'classify_survival') return { toolCall: { name, input: defaultClassify(body, schema) } };
    return { toolCall: { name, input: sampleFromSchema(schema) } };
  }
  const digest = createHash('sha256')
    .update(JSON.stringify(body.messages ?? []))
    .digest('hex')
    .slice(0, 8);
  return { text: `Mock answer ${digest}: the merchants m_0007 and m_0013 pin 2023-10.` };
}

/** A reply id from the request body alone (deterministic whatever the order requests arrive in). */
export function replyId(body: unknown): string {
  return `mock_${createHash('sha256').update(JSON.stringify(body)).digest('hex').slice(0, 12)}`;
}

export class CachePrefixes {
  private seen = new Set<string>();
  /** Anthropic prompt caching: the prefix up to the block marked cache_control, written once, read after. */
  anthropic(body: any): { read: number; write: number } {
    const parts: unknown[] = [body.tools ?? null, body.system ?? null];
    let marked = false;
    for (const m of body.messages ?? []) {
      for (const b of Array.isArray(m.content) ? m.content : []) {
        if (marked) break;
        parts.push(b);
        if (b.cache_control) marked = true;
      }
      if (marked) break;
    }
    if (!marked) return { read: 0, write: 0 };
    const text = JSON.stringify(parts);
    const key = createHash('sha256').update(text).digest('hex');
    const n = approxTokens(text);
    if (this.seen.has(key)) return { read: n, write: 0 };
    this.seen.add(key);
    return { read: 0, write: n };
  }
}

export function anthropicReply(
  body: any,
  reply: MockReply,
  id: string,
  cache: { read: number; write: number },
): unknown {
  const total = approxTokens(JSON.stringify(body.messages ?? []) + (body.system ?? ''));
  const calls = callsOf(reply);
  const uses = calls.map((c, i) => ({
    type: 'tool_use',
    id: calls.length > 1 ? `toolu_${id}_${i}` : `toolu_${id}`,
    name: c.name,
    input: c.input,
  }));
  const content = calls.length
    ? [...(reply.text ? [{ type: 'text', text: reply.text }] : []), ...uses]
    : [{ type: 'text', text: reply.text ?? '' }];
  const outText = calls.length ? JSON.stringify(calls.map((c) => c.input)) : (reply.text ?? '');
  return {
    id: `msg_${id}`,
    type: 'message',
    role: 'assistant',
    model: body.model,
    content,
    stop_reason: reply.stop ?? (calls.length ? 'tool_use' : 'end_turn'),
    stop_sequence: null,
    usage: {
      input_tokens: reply.usage?.input ?? Math.max(1, total - cache.read - cache.write),
      output_tokens: reply.usage?.output ?? Math.max(1, approxTokens(outText)),
      cache_read_input_tokens: reply.usage?.cacheRead ?? cache.read,
      cache_creation_input_tokens: reply.usage?.cacheWrite ?? cache.write,
    },
  };
}

export function openaiReply(body: any, reply: MockReply, id: string): unknown {
  const prompt = approxTokens(JSON.stringify(body.messages ?? []));
  const calls = callsOf(reply);
  const outText = calls.length ? JSON.stringify(calls.map((c) => c.input)) : (reply.text ?? '');
  const message = calls.length
    ? {
        role: 'assistant',
        content: reply.text ?? null,
        tool_calls: calls.map((c, i) => ({
          id: calls.length > 1 ? `call_${id}_${i}` : `call_${id}`,
          type: 'function',
          function: { name: c.name, arguments: JSON.stringify(c.input) },
        })),
      }
    : reply.refusal !== undefined
      ? { role: 'assistant', content: null, refusal: reply.refusal }
      : { role: 'assistant', content: reply.text ?? '' };
  const cached = reply.usage?.cacheRead ?? 0;
  return {
    id: `chatcmpl-${id}`,
    object: 'chat.completion',
    created: 0,
    model: body.model,
    choices: [{ index: 0, message, finish_reason: reply.stop ?? (calls.length ? 'tool_calls' : 'stop') }],
    usage: {
      prompt_tokens: (reply.usage?.input ?? prompt) + cached,
      completion_tokens: reply.usage?.output ?? Math.max(1, approxTokens(outText)),
      prompt_tokens_details: { cached_tokens: cached },
    },
  };
}

const NAME = /^[a-zA-Z0-9_-]{1,128}$/;

/** The Messages API's structural rules; returns the first violation, as the API words it roughly. */
export function checkAnthropic(body: any): string | undefined {
  if (typeof body.model !== 'string' || !body.model) return 'model: field required';
  if (!Number.isInteger(body.max_tokens)) return 'max_tokens: field required';
  const msgs = body.messages;
  if (!Array.isArray(msgs) || msgs.length === 0) return 'messages: at least one message is required';
  if (msgs[0].role !== 'user') return 'messages.0: first message must use the "user" role';
  let pending: string[] = [];
  let toolBlocks = false;
  for (let i = 0; i < msgs.length; i++) {
    const m = msgs[i];
    if (i > 0 && m.role === msgs[i - 1].role)
      return `messages.${i}: roles must alternate between "user" and "assistant"`;
    const blocks = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
    if (!Array.isArray(blocks) || blocks.length === 0) return `messages.${i}: content must be non-empty`;
    for (const b of blocks)
      if (b.type === 'text' && !b.text) return `messages.${i}: text content blocks must be non-empty`;
    const results = blocks.filter((b: any) => b.type === 'tool_result');
    if (pending.length) {
      const lead = blocks
        .slice(0, pending.length)
        .filter((b: any) => b.type === 'tool_result')
        .map((b: any) => b.tool_use_id);
      if (lead.length !== pending.length || pending.some((id) => !lead.includes(id)))
        return `messages.${i}: tool_use ids were found without tool_result blocks immediately after: ${pending.join(', ')}`;
    } else if (results.length)
      return `messages.${i}: unexpected tool_use_id found in tool_result blocks: ${results[0].tool_use_id}`;
    pending = [];
    for (const b of blocks) {
      if (b.type === 'tool_use') {
        if (!NAME.test(b.id) || !NAME.test(b.name))
          return `messages.${i}: tool_use id/name does not match ${NAME}`;
        if (typeof b.input !== 'object' || b.input === null || Array.isArray(b.input))
          return `messages.${i}: tool_use.input must be an object`;
        pending.push(b.id);
      }
      if (b.type === 'tool_use' || b.type === 'tool_result') toolBlocks = true;
    }
    if (m.role !== 'assistant') pending = [];
  }
  if (toolBlocks && !(body.tools?.length > 0))
    return 'Requests which include tool_use or tool_result blocks must define tools.';
  for (const t of body.tools ?? []) if (!NAME.test(t.name)) return `tools: name does not match ${NAME}`;
  const marks = msgs
    .flatMap((m: any) => (Array.isArray(m.content) ? m.content : []))
    .filter((b: any) => b.cache_control).length;
  if (marks > 4) return 'A maximum of 4 blocks with cache_control may be provided.';
  return undefined;
}

/** Chat Completions' structural rules for tool messages. */
export function checkOpenAI(body: any): string | undefined {
  if (typeof body.model !== 'string' || !body.model) return 'model: field required';
  const msgs = body.messages;
  if (!Array.isArray(msgs) || msgs.length === 0) return "'messages' must contain at least one message";
  let open = new Set<string>();
  for (let i = 0; i < msgs.length; i++) {
    const m = msgs[i];
    if (!['system', 'developer', 'user', 'assistant', 'tool'].includes(m.role))
      return `messages[${i}].role: invalid value`;
    if (m.role === 'tool') {
      if (!open.has(m.tool_call_id))
        return `Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls' (messages[${i}])`;
      open.delete(m.tool_call_id);
      continue;
    }
    if (open.size)
      return `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...open].join(', ')}`;
    if (m.role === 'assistant' && m.tool_calls?.length) open = new Set(m.tool_calls.map((c: any) => c.id));
    else if (m.content === null || m.content === undefined || m.content === '')
      return `messages[${i}].content: must be a non-empty string`;
  }
  if (open.size) return `tool_call_ids without response messages: ${[...open].join(', ')}`;
  return undefined;
}
