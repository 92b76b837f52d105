import { ImportError } from '../errors.ts';
import type { ToolCall, Transcript } from '../types.ts';
import { countSkip, makeTranscript, TranscriptBuilder, type Skipped } from './builder.ts';
import type { FormatImporter } from './importer.ts';
import type { JsonPath } from './json-locate.ts';
import { isRecord, parseArguments, parseJsonDoc, readSource, stringify, type JsonDoc } from './source.ts';

/**
 * inspect_ai EvalLog JSON: one sample's `messages` (ChatMessages). `arguments` is already a dict;
 * a tool message's `error {type, message}` marks the result as an error. A `.eval` file is a zip
 * of the same data and is not read here (convert it with `inspect log convert --to json`).
 */
export const importInspect: FormatImporter = (file, options, skipped) => {
  if (file.endsWith('.eval')) {
    throw new ImportError(
      file,
      undefined,
      'inspect .eval logs are zip archives; convert with `inspect log convert --to json` first',
    );
  }
  const doc = parseJsonDoc(file, readSource(file));
  const root = doc.value;
  if (!isRecord(root) || !isRecord(root.eval))
    return doc.fail([], 'not an inspect_ai EvalLog: expected {eval, samples, …}');
  if (!Array.isArray(root.samples) || root.samples.length === 0)
    return doc.fail([], 'EvalLog has no samples (was it written with samples excluded?)');
  const index = options.sample ?? 0;
  const sample: unknown = root.samples[index];
  if (!Number.isInteger(index) || !isRecord(sample)) {
    return doc.fail(
      ['samples'],
      `no sample ${index}; this log has ${root.samples.length} (use --sample 0…${root.samples.length - 1})`,
    );
  }
  if (!Array.isArray(sample.messages)) return doc.fail(['samples', index], 'sample has no messages');
  const model = typeof root.eval.model === 'string' ? root.eval.model : undefined;
  return new InspectConversion(doc, skipped).run(sample, ['samples', index], model, root.samples.length);
};

class InspectConversion {
  private readonly b = new TranscriptBuilder('main');
  private readonly system: string[] = [];

  constructor(
    private readonly doc: JsonDoc,
    private readonly skipped: Skipped,
  ) {}

  run(
    sample: Record<string, unknown>,
    base: JsonPath,
    model: string | undefined,
    sampleCount: number,
  ): Transcript {
    (sample.messages as unknown[]).forEach((m, i) => this.message(m, [...base, 'messages', i]));
    return makeTranscript(this.b.messages, {
      format: 'inspect',
      file: this.doc.file,
      id: sample.id !== undefined ? String(sample.id) : undefined,
      agents: { main: { role: 'primary', ...(model ? { model } : {}) } },
      meta: {
        system: this.system.length > 0 ? this.system.join('\n\n') : undefined,
        sample: base[1],
        samples: sampleCount,
        epoch: sample.epoch,
      },
    });
  }

  private message(m: unknown, path: JsonPath): void {
    if (!isRecord(m)) return this.doc.fail(path, 'message is not an object');
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
        this.b.assistant(text, calls);
        return;
      }
      case 'tool': {
        if (typeof m.tool_call_id !== 'string')
          return this.doc.fail(path, 'tool message without tool_call_id');
        const error = isRecord(m.error) ? m.error : undefined;
        this.b.result(
          m.tool_call_id,
          text === '' && error ? stringify(error.message) : text,
          error !== undefined,
        );
        return;
      }
      default:
        this.doc.fail([...path, 'role'], `role "${String(m.role)}" is not an inspect ChatMessage role`);
    }
  }

  private toolCall(c: unknown, path: JsonPath): ToolCall {
    if (!isRecord(c) || typeof c.id !== 'string') return this.doc.fail(path, 'tool call without an id');
    return { id: c.id, name: stringify(c.function), input: parseArguments(c.arguments) };
  }

  /** A string or a list of content parts; reasoning is dropped and counted, media become placeholders. */
  private content(content: unknown, path: JsonPath): string {
    if (typeof content === 'string') return content;
    if (content === null || content === undefined) return '';
    if (!Array.isArray(content))
      return this.doc.fail(path, 'content is neither a string nor a list of parts');
    const texts: string[] = [];
    content.forEach((p: unknown, i) => {
      if (!isRecord(p)) return this.doc.fail([...path, i], 'content part is not an object');
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
        default:
          this.doc.fail([...path, i], `unknown content part type "${String(p.type)}"`);
      }
    });
    return texts.join('\n');
  }
}
