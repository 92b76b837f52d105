import type { ToolCall } from '../core/index.ts';
import { countSkip, TranscriptBuilder, type Skipped } from './builder.ts';
import { isRecord, parseArguments, stringify } from './source.ts';

/** Reports a problem with the item being converted (the caller knows the file and line). */
export type ItemFail = (detail: string) => never;

/**
 * OpenAI Responses API items (and Codex's `ResponseItem`, the same wire shape) → normalised
 * messages. Used by the `responses` importer (item arrays, response objects, NeMo Gym rollouts) and
 * by `codex` (each rollout `response_item` line).
 *
 * The items of one model response (assistant `message`, `function_call`, `custom_tool_call`,
 * `local_shell_call`, server-side calls …) carry no response id on disk, so consecutive assistant-side
 * items form one assistant message; the outputs after them form the result message.
 * `reasoning` is skipped and counted (`reasoning`, or `reasoning_encrypted` when only the encrypted
 * blob is there). Item types we do not read are skipped and counted as `item:<type>` — the way
 * Codex's own reader keeps going past `Other` — never guessed at.
 */
export class ResponsesItems {
  readonly b: TranscriptBuilder;
  readonly system: string[] = [];
  private texts: string[] = [];
  private calls: ToolCall[] = [];
  private synthesized = 0;

  constructor(
    agent: string,
    private readonly skipped: Skipped,
  ) {
    this.b = new TranscriptBuilder(agent);
  }

  item(item: unknown, fail: ItemFail): void {
    if (!isRecord(item)) return fail('item is not an object');
    // EasyInputMessage: `{role, content}` without a type is a message.
    const type = typeof item.type === 'string' ? item.type : 'role' in item ? 'message' : undefined;
    if (type === undefined) return fail('item without a type');
    const handler = handlers[type];
    if (handler) handler(this, item, fail);
    else countSkip(this.skipped, `item:${type}`);
  }

  /** User text from another record (Codex `event_msg` user_message); a repeat of the last user text is dropped. */
  userText(text: string): void {
    this.flush();
    const last = this.b.messages.at(-1);
    if (last?.role === 'user' && !last.toolResults && last.text?.trim() === text.trim()) {
      countSkip(this.skipped, 'duplicate_user_message');
      return;
    }
    this.b.userText(text);
  }

  compaction(text: string): void {
    this.flush();
    this.b.compaction(text);
  }

  call(call: ToolCall): void {
    this.calls.push(call);
  }

  assistantText(text: string): void {
    if (text.trim() !== '') this.texts.push(text);
  }

  result(callId: string, content: string, isError = false): void {
    this.flush();
    this.b.result(callId, content, isError);
  }

  /** An id for a call the item gives none (web search calls may lack one). */
  syntheticId(kind: string): string {
    return `${kind}-${++this.synthesized}`;
  }

  flush(): void {
    if (this.texts.length === 0 && this.calls.length === 0) return;
    this.b.assistant(this.texts.length > 0 ? this.texts.join('\n\n') : undefined, this.calls);
    this.texts = [];
    this.calls = [];
  }

  skip(kind: string): void {
    countSkip(this.skipped, kind);
  }
}

type Handler = (c: ResponsesItems, item: Record<string, unknown>, fail: ItemFail) => void;

const handlers: Record<string, Handler> = {
  message: (c, item, fail) => {
    const text = contentText(item.content, fail);
    switch (item.role) {
      case 'assistant':
        return c.assistantText(text);
      case 'user':
        return c.userText(text);
      case 'system':
      case 'developer':
        c.flush();
        c.system.push(text);
        return c.skip('system');
      default:
        return fail(`message role "${String(item.role)}" is not user, assistant, system or developer`);
    }
  },
  reasoning: (c, item) => {
    const readable = [...arrayOf(item.summary), ...arrayOf(item.content)].some(
      (p) => isRecord(p) && typeof p.text === 'string' && p.text !== '',
    );
    c.skip(readable || !item.encrypted_content ? 'reasoning' : 'reasoning_encrypted');
  },
  function_call: (c, item, fail) =>
    c.call({
      id: requiredId(item.call_id, fail),
      name: qualified(item.namespace, item.name),
      input: parseArguments(item.arguments),
    }),
  custom_tool_call: (c, item, fail) =>
    c.call({ id: requiredId(item.call_id, fail), name: stringify(item.name), input: stringify(item.input) }),
  local_shell_call: (c, item) =>
    c.call({
      id: stringify(item.call_id ?? item.id) || c.syntheticId('local_shell'),
      name: 'local_shell',
      input: item.action ?? {},
    }),
  tool_search_call: (c, item) =>
    c.call({
      id: stringify(item.call_id ?? item.id) || c.syntheticId('tool_search'),
      name: 'tool_search',
      input: item.arguments ?? {},
    }),
  computer_call: (c, item, fail) =>
    c.call({ id: requiredId(item.call_id, fail), name: 'computer', input: item.action ?? {} }),
  // Server-side tools: the API ran them; no output item follows (web search results are not
  // recorded at all, so the call stays unanswered), or the result sits in the call item itself.
  web_search_call: (c, item) =>
    c.call({
      id: stringify(item.id) || c.syntheticId('web_search'),
      name: 'web_search',
      input: item.action ?? {},
    }),
  image_generation_call: (c, item) =>
    serverCall(c, item, 'image_generation', { revised_prompt: item.revised_prompt }, '[image]'),
  file_search_call: (c, item) =>
    serverCall(c, item, 'file_search', { queries: item.queries }, stringify(item.results ?? '')),
  code_interpreter_call: (c, item) =>
    serverCall(c, item, 'code_interpreter', { code: item.code }, stringify(item.outputs ?? '')),
  mcp_call: (c, item) =>
    serverCall(
      c,
      item,
      qualified(item.server_label, item.name),
      parseArguments(item.arguments),
      stringify(item.output ?? item.error ?? ''),
      item.error != null,
    ),
  function_call_output: (c, item, fail) => output(c, requiredId(item.call_id, fail), item.output, fail),
  custom_tool_call_output: (c, item, fail) => output(c, requiredId(item.call_id, fail), item.output, fail),
  computer_call_output: (c, item, fail) => output(c, requiredId(item.call_id, fail), item.output, fail),
  local_shell_call_output: (c, item, fail) =>
    output(c, requiredId(item.call_id ?? item.id, fail), item.output, fail),
  tool_search_output: (c, item, fail) =>
    c.result(requiredId(item.call_id, fail), stringify(item.tools ?? []), item.status === 'failed'),
  compaction: (c) => c.compaction(encryptedCompaction),
  compaction_summary: (c) => c.compaction(encryptedCompaction),
  context_compaction: (c) => c.compaction(encryptedCompaction),
};

const encryptedCompaction = '(context compacted; the summary is encrypted and not readable here)';

function serverCall(
  c: ResponsesItems,
  item: Record<string, unknown>,
  name: string,
  input: unknown,
  result: string,
  isError = false,
): void {
  const id = stringify(item.id) || c.syntheticId(name);
  c.call({ id, name, input });
  c.result(id, result, isError || item.status === 'failed');
}

/** A tool output: a string, a list of content parts, or (older writers) `{content, success}`. */
function output(c: ResponsesItems, callId: string, out: unknown, fail: ItemFail): void {
  if (isRecord(out) && 'content' in out) {
    return c.result(callId, contentText(out.content, fail), out.success === false);
  }
  c.result(callId, contentText(out, fail));
}

function contentText(content: unknown, fail: ItemFail): string {
  if (typeof content === 'string') return content;
  if (content === null || content === undefined) return '';
  if (!Array.isArray(content)) return fail('content is neither a string nor a list of parts');
  return content.map((p: unknown) => partText(p, fail)).join('\n');
}

function partText(p: unknown, fail: ItemFail): string {
  if (typeof p === 'string') return p;
  if (!isRecord(p)) return fail('content part is not an object');
  switch (p.type) {
    case 'input_text':
    case 'output_text':
    case 'text':
    case 'summary_text':
      return stringify(p.text);
    case 'refusal':
      return stringify(p.refusal);
    case 'input_image':
    case 'computer_screenshot':
      return '[image]';
    case 'input_file':
      return '[file]';
    case 'input_audio':
      return '[audio]';
    default:
      return fail(`unknown content part type "${String(p.type)}"`);
  }
}

function requiredId(id: unknown, fail: ItemFail): string {
  if (typeof id !== 'string' || id === '') return fail('tool call item without call_id');
  return id;
}

/** A namespaced tool as the model named it: `mcp__node_repl__` + `js`, or `server` + `.` + `tool`. */
function qualified(namespace: unknown, name: unknown): string {
  const ns = typeof namespace === 'string' ? namespace : '';
  if (ns === '') return stringify(name);
  return /[._/:]$/.test(ns) ? `${ns}${stringify(name)}` : `${ns}.${stringify(name)}`;
}

function arrayOf(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}
