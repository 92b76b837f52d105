import { ImportError } from '../core/errors.ts';
import type { Transcript } from '../core/index.ts';
import { makeTranscript, type Skipped } from './builder.ts';
import type { FormatImporter, ImportOptions, SessionRef } from './importer.ts';
import { ResponsesItems } from './responses-items.ts';
import { isRecord, parseJsonDoc, parseJsonl, readSource, stringify } from './source.ts';

/**
 * OpenAI Responses API items: a bare item array (input + output), a response object
 * (`{object: "response", output}`), a request (`{input, instructions?}`), or a rollout record that
 * holds both (NeMo Gym: `{responses_create_params: {input}, response: {output}}`). A JSON Lines file
 * of such records is one session a line (`--instance <index>`; `import --all` writes every one).
 */
export const importResponses: FormatImporter = (file, options, skipped) => {
  const records = readRecords(file, skipped);
  const index = pickIndex(file, records.length, options);
  const { value, line } = records[index]!;
  return convert(
    file,
    value,
    line,
    skipped,
    records.length > 1 ? { record: index, records: records.length } : {},
  );
};

export function responsesSessions(file: string): SessionRef[] {
  const records = readRecords(file, {});
  return records.map((r, i) => ({
    name: sessionName(r.value) ?? (records.length > 1 ? `line-${r.line}` : undefined),
    options: { instance: i },
  }));
}

interface RecordAt {
  value: unknown;
  /** 1-based line of a JSONL record; undefined for a JSON document. */
  line?: number;
}

function readRecords(file: string, skipped: Skipped): RecordAt[] {
  const text = readSource(file);
  const trimmed = text.trimStart();
  if (trimmed.startsWith('[') || !/\n\s*\{/.test(trimmed.trimEnd())) {
    return [{ value: parseJsonDoc(file, text).value }];
  }
  return parseJsonl(file, text, skipped).map((l) => ({ value: l.value, line: l.line }));
}

function pickIndex(file: string, n: number, options: ImportOptions): number {
  const wanted = options.instance ?? 0;
  const index = typeof wanted === 'number' ? wanted : /^\d+$/.test(wanted) ? Number(wanted) : -1;
  if (index < 0 || index >= n) {
    throw new ImportError(
      file,
      undefined,
      `no record "${wanted}"; this file has ${n} (use --instance 0…${n - 1})`,
    );
  }
  return index;
}

/** The item list and what surrounds it, for each accepted shape. */
function unwrap(
  v: unknown,
): { items: unknown[]; instructions?: unknown; model?: unknown; id?: unknown } | undefined {
  if (Array.isArray(v)) return { items: v };
  if (!isRecord(v)) return undefined;
  if (isRecord(v.responses_create_params) || isRecord(v.response)) {
    const req = isRecord(v.responses_create_params) ? v.responses_create_params : {};
    const res = isRecord(v.response) ? v.response : {};
    return {
      items: [...inputItems(req.input), ...(Array.isArray(res.output) ? res.output : [])],
      instructions: req.instructions ?? res.instructions,
      model: res.model ?? req.model,
      id: res.id,
    };
  }
  if (Array.isArray(v.output) || 'input' in v) {
    return {
      items: [...inputItems(v.input), ...(Array.isArray(v.output) ? v.output : [])],
      instructions: v.instructions,
      model: v.model,
      id: v.id,
    };
  }
  return undefined;
}

/** `input` may be a plain string: one user message. */
function inputItems(input: unknown): unknown[] {
  if (typeof input === 'string') return [{ type: 'message', role: 'user', content: input }];
  return Array.isArray(input) ? input : [];
}

function sessionName(v: unknown): string | undefined {
  const u = unwrap(v);
  return typeof u?.id === 'string' && u.id !== '' ? u.id : undefined;
}

function convert(
  file: string,
  value: unknown,
  line: number | undefined,
  skipped: Skipped,
  extra: Record<string, unknown>,
): Transcript {
  const u = unwrap(value);
  if (!u) {
    throw new ImportError(
      file,
      line ?? 1,
      'not Responses API items: expected an item array, {input, output} or {responses_create_params, response}',
    );
  }
  const c = new ResponsesItems('main', skipped);
  if (typeof u.instructions === 'string' && u.instructions !== '') {
    c.system.push(u.instructions);
    c.skip('system');
  }
  u.items.forEach((item, i) =>
    c.item(item, (detail) => {
      throw new ImportError(file, line ?? 1, `item ${i}: ${detail}`);
    }),
  );
  c.flush();
  const model = typeof u.model === 'string' ? u.model : undefined;
  return makeTranscript(c.b.messages, {
    format: 'responses',
    file,
    id: typeof u.id === 'string' ? u.id : undefined,
    agents: { main: { role: 'primary', ...(model ? { model } : {}) } },
    meta: {
      system: c.system.length > 0 ? c.system.join('\n\n') : undefined,
      ...extra,
      id: stringify(u.id) || undefined,
    },
  });
}
