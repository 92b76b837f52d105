import type { ToolCall, ToolResult, Transcript } from '../core/index.ts';
import { countSkip, makeTranscript, TranscriptBuilder, type Skipped } from './builder.ts';
import type { FormatImporter, SessionRef } from './importer.ts';
import { readInspectLog, resolveAttachments } from './inspect-log.ts';
import type { JsonPath } from './json-locate.ts';
import { isRecord, parseArguments, stringify } from './source.ts';

/**
 * inspect_ai logs: EvalLog JSON or a `.eval` zip (read with fflate; see inspect-log.ts), one sample's
 * `messages` (ChatMessages) — `--sample N` picks it, `import --all` writes every one. `arguments`
 * is already a dict; a tool message's `error {type, message}` (or the older `tool_error` string)
 * marks the result as an error; `attachment://` references are resolved from the sample.
 */
export const importInspect: FormatImporter = (file, options, skipped) => {
  const log = readInspectLog(file);
  if (log.samples.length === 0)
    return log.fail(undefined, [], 'EvalLog has no samples (was it written with samples excluded?)');
  const index = options.sample ?? 0;
  const raw: unknown = log.samples[index];
  if (!Number.isInteger(index) || !isRecord(raw)) {
    return log.fail(
      undefined,
      ['samples'],
      `no sample ${index}; this log has ${log.samples.length} (use --sample 0…${log.samples.length - 1})`,
    );
  }
  if (!Array.isArray(raw.messages)) return log.fail(index, [], 'sample has no messages');
  const attachments = isRecord(raw.attachments) ? raw.attachments : {};
  const sample = { ...raw, messages: resolveAttachments(raw.messages, attachments) as unknown[] };
  const model = typeof log.eval.model === 'string' ? log.eval.model : undefined;
  const fail: Fail = (path, detail) => log.fail(index, path, detail);
  return new InspectConversion(file, fail, skipped).run(sample, index, model, log.samples.length);
};

/** Every sample of a log, named `<id>` or `<id>_epoch_<n>` when the log has several epochs. */
export function inspectSessions(file: string): SessionRef[] {
  const log = readInspectLog(file);
  const epochs = new Set(log.samples.map((s) => (isRecord(s) ? s.epoch : undefined)));
  return log.samples.map((s, i) => {
    const r = isRecord(s) ? s : {};
    const id = r.id !== undefined ? String(r.id) : `sample-${i}`;
    return { name: epochs.size > 1 ? `${id}_epoch_${String(r.epoch)}` : id, options: { sample: i } };
  });
}

type Fail = (path: JsonPath, detail: string) => never;

class InspectConversion {
  private readonly b = new TranscriptBuilder('main');
  private readonly system: string[] = [];
  private readonly serverUses: { call: ToolCall; result: ToolResult }[] = [];

  constructor(
    private readonly file: string,
    private readonly fail: Fail,
    private readonly skipped: Skipped,
  ) {}

  run(
    sample: Record<string, unknown>,
    index: number,
    model: string | undefined,
    sampleCount: number,
  ): Transcript {
    (sample.messages as unknown[]).forEach((m, i) => this.message(m, ['messages', i]));
    return makeTranscript(this.b.messages, {
      format: 'inspect',
      file: this.file,
      id: sample.id !== undefined ? String(sample.id) : undefined,
      agents: { main: { role: 'primary', ...(model ? { model } : {}) } },
      meta: {
        system: this.system.length > 0 ? this.system.join('\n\n') : undefined,
        sample: index,
        samples: sampleCount,
        epoch: sample.epoch,
      },
    });
  }

  private message(m: unknown, path: JsonPath): void {
    if (!isRecord(m)) return this.fail(path, 'message is not an object');
    const text = this.content(m.content, [...path, 'content']);
    switch (m.role) {
      case 'system':
        this.system.push(text);
        countSkip(this.skipped, 'system');
        return;
      case 'user':
        this.b.userText(text);
        return;
      case 'assistant': {
        const calls = Array.isArray(m.tool_calls)
          ? m.tool_calls.map((c: unknown, j) => this.toolCall(c, [...path, 'tool_calls', j]))
          : [];
        // Server-side tool use (web search, MCP, code execution) sits in the content with its result.
        const server = this.serverUses.splice(0);
        const stored = this.b.assistant(text, [...calls, ...server.map((u) => u.call)]);
        for (const u of server)
          this.b.result(stored.find((c) => c.id === u.call.id)!.id, u.result.content, u.result.isError);
        return;
      }
      case 'tool': {
        if (typeof m.tool_call_id !== 'string') return this.fail(path, 'tool message without tool_call_id');
        // `tool_error` is the pre-0.3.x string form (inspect converts it to `error` on load).
        const error = isRecord(m.error)
          ? m.error
          : typeof m.tool_error === 'string' && m.tool_error !== ''
            ? { message: m.tool_error }
            : undefined;
        this.b.result(
          m.tool_call_id,
          text === '' && error ? stringify(error.message) : text,
          error !== undefined,
        );
        return;
      }
      default:
        this.fail([...path, 'role'], `role "${String(m.role)}" is not an inspect ChatMessage role`);
    }
  }

  private toolCall(c: unknown, path: JsonPath): ToolCall {
    if (!isRecord(c) || typeof c.id !== 'string') return this.fail(path, 'tool call without an id');
    return { id: c.id, name: stringify(c.function), input: parseArguments(c.arguments) };
  }

  /** A string or a list of content parts; reasoning is dropped and counted, media become placeholders. */
  private content(content: unknown, path: JsonPath): string {
    if (typeof content === 'string') return content;
    if (content === null || content === undefined) return '';
    if (!Array.isArray(content)) return this.fail(path, 'content is neither a string nor a list of parts');
    const texts: string[] = [];
    content.forEach((p: unknown, i) => {
      if (!isRecord(p)) return this.fail([...path, i], 'content part is not an object');
      switch (p.type) {
        case 'text':
          texts.push(stringify(p.text));
          return;
        case 'reasoning':
          countSkip(this.skipped, 'reasoning');
          return;
        case 'image':
        case 'audio':
        case 'video':
        case 'document':
        case 'data':
          texts.push(`[${p.type}]`);
          return;
        case 'tool_use': {
          const id = stringify(p.id) || `tool_use-${this.serverUses.length + 1}`;
          const error = typeof p.error === 'string' && p.error !== '' ? p.error : undefined;
          this.serverUses.push({
            call: { id, name: stringify(p.name), input: parseArguments(p.arguments) },
            result: {
              callId: id,
              content: error ?? stringify(p.result),
              ...(error ? { isError: true } : {}),
            },
          });
          return;
        }
        default:
          this.fail([...path, i], `unknown content part type "${String(p.type)}"`);
      }
    });
    return texts.join('\n');
  }
}
