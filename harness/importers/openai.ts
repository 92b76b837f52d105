import type { ToolCall, Transcript } from '../core/index.ts';
import { countSkip, makeTranscript, TranscriptBuilder, type Skipped } from './builder.ts';
import type { FormatImporter, ImportOptions, SessionRef } from './importer.ts';
import type { JsonPath } from './json-locate.ts';
import { isRecord, parseArguments, parseJsonDoc, readSource, stringify, type JsonDoc } from './source.ts';

/**
 * OpenAI Chat Completions messages: a plain array, `{messages: [...]}`, or τ-bench's
 * `{task_id, reward, info, traj: [...]}`. Calls pair by `tool_calls[].id` ↔ `tool_call_id`; the
 * legacy `function_call` / role `function` pair by name, in order (they carry no id).
 */
export const importOpenAI: FormatImporter = (file, options, skipped) => {
  const doc = parseJsonDoc(file, readSource(file));
  const { messages, base, extra } = locateMessages(doc, options);
  return new OpenAIConversion(doc, skipped).run(messages, base, extra);
};

/** τ-bench writes a whole run as an array of `{task_id, trial, reward, traj}`: one session each. */
const isTrajArray = (v: unknown): v is Record<string, unknown>[] =>
  Array.isArray(v) && v.length > 0 && v.every((e) => isRecord(e) && Array.isArray(e.traj));

const trajName = (e: Record<string, unknown>, i: number): string =>
  e.task_id !== undefined
    ? `task-${String(e.task_id)}${e.trial !== undefined ? `-trial-${String(e.trial)}` : ''}`
    : `element-${i}`;

export function openaiSessions(file: string): SessionRef[] {
  const v = parseJsonDoc(file, readSource(file)).value;
  if (!isTrajArray(v)) return [{ name: undefined, options: {} }];
  return v.map((e, i) => ({ name: trajName(e, i), options: { instance: i } }));
}

function locateMessages(
  doc: JsonDoc,
  options: ImportOptions,
): {
  messages: unknown[];
  base: JsonPath;
  extra: Record<string, unknown>;
} {
  const v = doc.value;
  if (isTrajArray(v)) {
    const names = v.map(trajName);
    const wanted = String(options.instance ?? 0);
    const i = names.indexOf(wanted) >= 0 ? names.indexOf(wanted) : /^\d+$/.test(wanted) ? Number(wanted) : -1;
    const e = v[i];
    if (!e)
      return doc.fail(
        [],
        `no element "${wanted}"; this array has ${v.length} (${names.slice(0, 5).join(', ')}, …)`,
      );
    return {
      messages: e.traj as unknown[],
      base: [i, 'traj'],
      extra: { taskId: e.task_id, reward: e.reward, trial: e.trial },
    };
  }
  if (Array.isArray(v)) return { messages: v, base: [], extra: {} };
  if (isRecord(v) && Array.isArray(v.traj)) {
    return {
      messages: v.traj,
      base: ['traj'],
      extra: { taskId: v.task_id, reward: v.reward, trial: v.trial },
    };
  }
  if (isRecord(v) && Array.isArray(v.messages))
    return { messages: v.messages, base: ['messages'], extra: { model: v.model } };
  return doc.fail(
    [],
    'not an OpenAI conversation: expected a list of messages, {messages: [...]} or {traj: [...]}',
  );
}

class OpenAIConversion {
  private readonly b = new TranscriptBuilder('main');
  private readonly system: string[] = [];
  /** Legacy function_call ids we synthesise, by function name, oldest first. */
  private readonly legacy = new Map<string, string[]>();
  private legacyCount = 0;

  constructor(
    private readonly doc: JsonDoc,
    private readonly skipped: Skipped,
  ) {}

  run(messages: unknown[], base: JsonPath, extra: Record<string, unknown>): Transcript {
    messages.forEach((m, i) => this.message(m, [...base, i]));
    const model = typeof extra.model === 'string' ? extra.model : undefined;
    return makeTranscript(this.b.messages, {
      format: 'openai',
      file: this.doc.file,
      id: extra.taskId !== undefined ? String(extra.taskId) : undefined,
      agents: { main: { role: 'primary', ...(model ? { model } : {}) } },
      meta: {
        system: this.system.length > 0 ? this.system.join('\n\n') : undefined,
        reward: extra.reward,
        trial: extra.trial,
      },
    });
  }

  private message(m: unknown, path: JsonPath): void {
    if (!isRecord(m)) return this.doc.fail(path, 'message is not an object');
    const text = (): string => this.contentText(m.content, [...path, 'content']);
    switch (m.role) {
      case 'system':
      case 'developer':
        // Kept in meta.system, not as a message; counted like everything that is not a message.
        this.system.push(text());
        countSkip(this.skipped, 'system');
        return;
      case 'user':
        this.b.userText(text());
        return;
      case 'assistant':
        return this.assistant(m, path);
      case 'tool':
        if (typeof m.tool_call_id !== 'string')
          return this.doc.fail(path, 'tool message without tool_call_id');
        this.b.result(m.tool_call_id, text());
        return;
      case 'function':
        this.b.result(this.legacy.get(stringify(m.name))?.shift() ?? `function:${stringify(m.name)}`, text());
        return;
      default:
        this.doc.fail([...path, 'role'], `role "${String(m.role)}" is not an OpenAI chat role`);
    }
  }

  private assistant(m: Record<string, unknown>, path: JsonPath): void {
    if (typeof m.reasoning_content === 'string' && m.reasoning_content !== '')
      countSkip(this.skipped, 'reasoning');
    const calls: ToolCall[] = [];
    const toolCalls = m.tool_calls ?? [];
    if (!Array.isArray(toolCalls)) return this.doc.fail([...path, 'tool_calls'], 'tool_calls is not a list');
    toolCalls.forEach((c: unknown, j) => calls.push(this.toolCall(c, [...path, 'tool_calls', j])));
    if (isRecord(m.function_call)) calls.push(this.legacyCall(m.function_call));
    const text =
      m.content === null || m.content === undefined
        ? stringify(m.refusal)
        : this.contentText(m.content, [...path, 'content']);
    this.b.assistant(text === '' ? undefined : text, calls);
  }

  private toolCall(c: unknown, path: JsonPath): ToolCall {
    if (!isRecord(c) || typeof c.id !== 'string') return this.doc.fail(path, 'tool call without an id');
    if (isRecord(c.function))
      return { id: c.id, name: stringify(c.function.name), input: parseArguments(c.function.arguments) };
    // Responses-style custom tools (e.g. apply_patch) carry free-form input instead of JSON arguments.
    if (isRecord(c.custom)) return { id: c.id, name: stringify(c.custom.name), input: c.custom.input ?? '' };
    return this.doc.fail(path, `tool call of unknown type "${String(c.type)}"`);
  }

  private legacyCall(fc: Record<string, unknown>): ToolCall {
    const name = stringify(fc.name);
    const id = `function_call-${++this.legacyCount}`;
    this.legacy.set(name, [...(this.legacy.get(name) ?? []), id]);
    return { id, name, input: parseArguments(fc.arguments) };
  }

  /** A string, or a list of parts (text, image_url, input_audio, file, refusal). */
  private contentText(content: unknown, path: JsonPath): string {
    if (typeof content === 'string') return content;
    if (content === null || content === undefined) return '';
    if (!Array.isArray(content))
      return this.doc.fail(path, 'content is neither a string nor a list of parts');
    return content.map((p: unknown, i) => this.part(p, [...path, i])).join('\n');
  }

  private part(p: unknown, path: JsonPath): string {
    if (typeof p === 'string') return p;
    if (!isRecord(p)) return this.doc.fail(path, 'content part is not an object');
    switch (p.type) {
      case 'text':
      case 'input_text':
      case 'output_text':
        return stringify(p.text);
      case 'refusal':
        return stringify(p.refusal);
      case 'image_url':
      case 'input_image':
        return '[image]';
      case 'input_audio':
        return '[audio]';
      case 'file':
        return '[file]';
      default:
        return this.doc.fail(path, `unknown content part type "${String(p.type)}"`);
    }
  }
}
