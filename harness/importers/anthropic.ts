import type { Draft, ToolCall, ToolResult, Transcript } from '../core/index.ts';
import { countSkip, makeTranscript, TranscriptBuilder, type Skipped } from './builder.ts';
import type { JsonPath } from './json-locate.ts';
import type { FormatImporter } from './importer.ts';
import { isRecord, parseJsonDoc, readSource, stringify, type JsonDoc } from './source.ts';

/** Reports a problem at a path relative to the content being converted. */
export type Fail = (path: JsonPath, detail: string) => never;

export interface BlockContent {
  texts: string[];
  calls: ToolCall[];
  results: ToolResult[];
}

/**
 * Converts Anthropic Messages content (a string or a list of blocks) — shared by the Anthropic
 * importer and Claude Code, whose lines carry raw Messages API objects. Thinking is dropped and
 * counted; any block type not listed here is an error, so a new format version fails loudly.
 */
export function convertBlocks(
  content: unknown,
  role: 'user' | 'assistant',
  fail: Fail,
  skipped: Skipped,
): BlockContent {
  const out: BlockContent = { texts: [], calls: [], results: [] };
  if (typeof content === 'string') {
    out.texts.push(content);
    return out;
  }
  if (!Array.isArray(content)) fail([], 'content is neither a string nor a list of blocks');
  content.forEach((block: unknown, i) => {
    if (!isRecord(block) || typeof block.type !== 'string') fail([i], 'content block without a type');
    convertBlock(block, role, out, (p, d) => fail([i, ...p], d), skipped);
  });
  return out;
}

function convertBlock(
  block: Record<string, unknown>,
  role: string,
  out: BlockContent,
  fail: Fail,
  skipped: Skipped,
): void {
  switch (block.type) {
    case 'text':
      out.texts.push(stringify(block.text));
      return;
    case 'image':
    case 'document':
      out.texts.push(`[${block.type}]`);
      return;
    case 'thinking':
    case 'redacted_thinking':
      countSkip(skipped, 'thinking');
      return;
    case 'tool_use':
      if (role !== 'assistant') fail([], 'tool_use block in a user message');
      if (typeof block.id !== 'string' || typeof block.name !== 'string')
        fail([], 'tool_use without id or name');
      out.calls.push({ id: block.id, name: block.name, input: block.input ?? {} });
      return;
    case 'tool_result': {
      if (role !== 'user') fail([], 'tool_result block in an assistant message');
      if (typeof block.tool_use_id !== 'string') fail([], 'tool_result without tool_use_id');
      const result: Draft<ToolResult> = {
        callId: block.tool_use_id,
        content: resultText(block.content, (p, d) => fail(['content', ...p], d)),
      };
      if (block.is_error === true) result.isError = true;
      if (clearedMarker.test(result.content)) result.cleared = true;
      out.results.push(result);
      return;
    }
    default:
      fail([], `unknown content block type "${String(block.type)}"`);
  }
}

/** What Claude Code writes in place of a tool result it cleared from the context (microcompact). */
const clearedMarker = /^\s*\[Old tool result content cleared\b/;

/** Tool result content: a string, or text/image blocks — text joined, images as `[image]`. */
export function resultText(content: unknown, fail: Fail): string {
  if (typeof content === 'string') return content;
  if (content === undefined || content === null) return '';
  if (!Array.isArray(content)) fail([], 'tool result content is neither a string nor a list of blocks');
  return content
    .map((block: unknown, i) => {
      if (!isRecord(block)) return fail([i], 'tool result block is not an object');
      if (block.type === 'text') return stringify(block.text);
      if (block.type === 'image' || block.type === 'document') return `[${block.type}]`;
      // Claude Code's ToolSearch answers with references to the tools it loaded.
      if (block.type === 'tool_reference') return `[tool_reference: ${stringify(block.tool_name)}]`;
      return fail([i], `unknown tool result block type "${String(block.type)}"`);
    })
    .join('\n');
}

/** `system` as Anthropic allows it: a string or a list of text blocks. */
export function systemText(system: unknown): string | undefined {
  if (typeof system === 'string') return system;
  if (Array.isArray(system))
    return system.map((b: unknown) => (isRecord(b) ? stringify(b.text) : stringify(b))).join('\n\n');
  return undefined;
}

/** `[ {role, content} … ]` or `{system?, model?, messages: [...]}` (a request body or a saved conversation). */
export const importAnthropic: FormatImporter = (file, _options, skipped) => {
  const doc = parseJsonDoc(file, readSource(file));
  const { messages, base } = locateMessages(doc);
  const root = isRecord(doc.value) ? doc.value : {};
  return anthropicTranscript(doc, messages, base, root, skipped);
};

function locateMessages(doc: JsonDoc): { messages: unknown[]; base: JsonPath } {
  if (Array.isArray(doc.value)) return { messages: doc.value, base: [] };
  if (isRecord(doc.value) && Array.isArray(doc.value.messages))
    return { messages: doc.value.messages, base: ['messages'] };
  return doc.fail([], 'not an Anthropic conversation: expected a list of messages or {messages: [...]}');
}

function anthropicTranscript(
  doc: JsonDoc,
  messages: unknown[],
  base: JsonPath,
  root: Record<string, unknown>,
  skipped: Skipped,
): Transcript {
  const b = new TranscriptBuilder('main');
  messages.forEach((m, i) => {
    const path = [...base, i];
    if (!isRecord(m)) doc.fail(path, 'message is not an object');
    if (m.role !== 'user' && m.role !== 'assistant')
      doc.fail(
        [...path, 'role'],
        `role "${String(m.role)}" is not an Anthropic role (user|assistant); is this an OpenAI conversation? try --from openai`,
      );
    const content = convertBlocks(
      m.content,
      m.role,
      (p, d) => doc.fail([...path, 'content', ...p], d),
      skipped,
    );
    const text = content.texts.length > 0 ? content.texts.join('\n\n') : undefined;
    if (m.role === 'assistant') {
      b.assistant(text, content.calls);
      return;
    }
    for (const r of content.results) b.addResult(r);
    // Text that rides along with results (allowed after the tool_result blocks) becomes its own turn.
    if (text !== undefined) b.userText(text);
  });
  const model = typeof root.model === 'string' ? root.model : undefined;
  const system = systemText(root.system);
  if (system !== undefined) countSkip(skipped, 'system');
  return makeTranscript(b.messages, {
    format: 'anthropic',
    file: doc.file,
    agents: { main: { role: 'primary', ...(model ? { model } : {}) } },
    meta: { system },
  });
}
