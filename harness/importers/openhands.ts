import { basename } from 'node:path';
import { ImportError } from '../core/errors.ts';
import type { ToolCall, Transcript } from '../core/index.ts';
import { countSkip, makeTranscript, ResponseGrouper, TranscriptBuilder, type Skipped } from './builder.ts';
import type { FormatImporter, ImportOptions, SessionRef } from './importer.ts';
import { convertLegacyHistory, isLegacyHistory } from './openhands-legacy.ts';
import { isRecord, parseArguments, parseJsonl, readSource, stringify, type JsonlLine } from './source.ts';

/**
 * OpenHands: eval output JSONL (one EvalOutput `{instance_id, instruction, metadata, history, …}` a
 * line), the resolver's `output.jsonl` (ResolverOutput `{issue, instruction, history, …}`), or a
 * trajectory — a JSON list of events (what the UI downloads; `{trajectory: [...]}` from the API).
 * `history` is an event stream: actions (`args`) and observations (`content`, `cause`). Pairing is
 * `observation.cause == action.id`; parallel calls are actions sharing
 * `tool_call_metadata.model_response.id`. Older histories without event ids pair by position
 * (openhands-legacy.ts).
 */
export const importOpenHands: FormatImporter = (file, options, skipped) => {
  const records = readRecords(file, skipped);
  const { record, index } = pickInstance(file, records, options);
  const out = record.value;
  const history = out.history as unknown[];
  const ids = records.map((r) => instanceName(r.value, r.index));
  const metadata = isRecord(out.metadata) ? out.metadata : {};
  const llm = isRecord(metadata.llm_config) ? metadata.llm_config.model : undefined;
  const model = typeof llm === 'string' ? llm : undefined;
  if (isLegacyHistory(history)) {
    return convertLegacyHistory(
      history,
      { file, id: ids[index]!, model, meta: { instance: index, instances: ids, success: out.success } },
      skipped,
    );
  }
  return new EventConversion(file, record.line, skipped).run(out, index, ids, model);
};

export function openhandsSessions(file: string): SessionRef[] {
  const records = readRecords(file, {});
  // A lone trajectory has no instance id: it is named after its file.
  if (records.length === 1 && !isNamed(records[0]!.value)) return [{ name: undefined, options: {} }];
  return records.map((r, i) => ({ name: instanceName(r.value, i), options: { instance: i } }));
}

const isNamed = (v: Record<string, unknown>): boolean => v.instance_id !== undefined || isRecord(v.issue);

interface OhRecord {
  value: Record<string, unknown>;
  /** 1-based JSONL line, or 1 for a JSON document. */
  line: number;
  index: number;
}

/** EvalOutput / ResolverOutput lines, or one trajectory wrapped as a record with a history. */
function readRecords(file: string, skipped: Skipped): OhRecord[] {
  const text = readSource(file);
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    doc = undefined;
  }
  if (Array.isArray(doc)) return [{ value: { history: doc }, line: 1, index: 0 }];
  if (isRecord(doc) && Array.isArray(doc.trajectory))
    return [{ value: { history: doc.trajectory }, line: 1, index: 0 }];
  const lines: JsonlLine[] = doc !== undefined ? [{ line: 1, value: doc }] : parseJsonl(file, text, skipped);
  if (lines.length === 0) throw new ImportError(file, undefined, 'empty file');
  return lines.map((l, index) => {
    if (!isRecord(l.value) || !Array.isArray(l.value.history)) {
      throw new ImportError(
        file,
        l.line,
        'not an OpenHands EvalOutput line (nor a ResolverOutput line, nor a trajectory: expected a history list or a list of events)',
      );
    }
    return { value: l.value, line: l.line, index };
  });
}

/** instance_id (EvalOutput), owner__repo-number (ResolverOutput), or the record's index. */
function instanceName(v: Record<string, unknown>, index: number): string {
  if (v.instance_id !== undefined) return stringify(v.instance_id);
  const issue = isRecord(v.issue) ? v.issue : undefined;
  if (issue && issue.repo !== undefined)
    return `${stringify(issue.owner)}__${stringify(issue.repo)}-${stringify(issue.number)}`;
  return `record-${index}`;
}

function pickInstance(
  file: string,
  records: OhRecord[],
  options: ImportOptions,
): { record: OhRecord; index: number } {
  const wanted = options.instance ?? 0;
  const ids = records.map((r) => instanceName(r.value, r.index));
  let index = ids.indexOf(String(wanted));
  if (index < 0 && /^\d+$/.test(String(wanted))) index = Number(wanted);
  const record = records[index];
  if (index < 0 || !record) {
    throw new ImportError(
      file,
      undefined,
      `no instance "${wanted}"; this file has ${records.length}: ${ids.map((id, i) => `${i}=${id}`).join(', ')}`,
    );
  }
  return { record, index };
}

class EventConversion {
  private readonly b = new TranscriptBuilder('main');
  private readonly group = new ResponseGrouper(this.b);
  /** action event id → tool call id. */
  private readonly callOfAction = new Map<number, string>();
  private readonly answered = new Set<string>();
  private lastCall: string | undefined;
  /** model_response.id of the response being collected: only its first action carries the text. */
  private groupKey: string | undefined;
  private system: string | undefined;
  private readonly orphanErrors: { event: unknown; attachedTo: string | undefined; how: string }[] = [];

  constructor(
    private readonly file: string,
    private readonly line: number,
    private readonly skipped: Skipped,
  ) {}

  run(
    out: Record<string, unknown>,
    index: number,
    instances: string[],
    model: string | undefined,
  ): Transcript {
    (out.history as unknown[]).forEach((e, i) => this.event(e, i));
    this.group.flush();
    const metadata = isRecord(out.metadata) ? out.metadata : {};
    return makeTranscript(this.b.messages, {
      format: 'openhands',
      file: this.file,
      id: isNamed(out) ? instances[index] : basename(this.file).replace(/\.[^.]+$/, ''),
      agents: { main: { role: 'primary', ...(model ? { model } : {}) } },
      meta: {
        system: this.system,
        agentClass: metadata.agent_class,
        instance: index,
        instances,
        orphanErrors: this.orphanErrors,
      },
    });
  }

  private event(e: unknown, i: number): void {
    if (!isRecord(e)) throw new ImportError(this.file, this.line, `history[${i}] is not an event object`);
    if (typeof e.action === 'string') return this.action(e);
    if (typeof e.observation === 'string') return this.observation(e);
    throw new ImportError(
      this.file,
      this.line,
      `history[${i}] (event id ${String(e.id)}) is neither an action nor an observation`,
    );
  }

  private action(e: Record<string, unknown>): void {
    const args = isRecord(e.args) ? e.args : {};
    const tcm = isRecord(e.tool_call_metadata) ? e.tool_call_metadata : undefined;
    if (tcm) return this.toolAction(e, tcm, args);
    if (e.action === 'message') {
      this.group.flush();
      if (e.source === 'user') this.b.userText(stringify(args.content));
      else this.b.assistant(stringify(args.content), []);
      return;
    }
    if (e.action === 'system') this.system = stringify(args.content);
    // system prompt (kept in meta.system), recall and state plumbing: not part of the dialogue.
    countSkip(
      this.skipped,
      e.action === 'system' || e.action === 'recall' ? String(e.action) : `action:${String(e.action)}`,
    );
  }

  private toolAction(
    e: Record<string, unknown>,
    tcm: Record<string, unknown>,
    args: Record<string, unknown>,
  ): void {
    const response = isRecord(tcm.model_response) ? tcm.model_response : {};
    const choice =
      Array.isArray(response.choices) && isRecord(response.choices[0]) ? response.choices[0] : {};
    const message = isRecord(choice.message) ? choice.message : {};
    const id = stringify(tcm.tool_call_id) || `event-${String(e.id)}`;
    const sent = Array.isArray(message.tool_calls)
      ? message.tool_calls.find((c: unknown) => isRecord(c) && c.id === id)
      : undefined;
    // The arguments the model sent; the action's args add runtime plumbing (blocking, cwd, …).
    const input =
      isRecord(sent) && isRecord(sent.function)
        ? parseArguments(sent.function.arguments)
        : withoutThought(args);
    const call: ToolCall = { id, name: stringify(tcm.function_name) || String(e.action), input };
    const key = stringify(response.id) || `event-${String(e.id)}`;
    const first = key !== this.groupKey;
    this.groupKey = key;
    const text = first ? stringify(message.content) || stringify(args.thought) : undefined;
    this.group.add(key, { text, calls: [call] });
    if (typeof e.id === 'number') this.callOfAction.set(e.id, id);
    this.lastCall = id;
  }

  private observation(e: Record<string, unknown>): void {
    const callId = typeof e.cause === 'number' ? this.callOfAction.get(e.cause) : undefined;
    if (callId !== undefined && !this.answered.has(callId)) {
      this.answered.add(callId);
      this.group.result({
        callId,
        content: stringify(e.content),
        ...(e.observation === 'error' ? { isError: true } : {}),
      });
      return;
    }
    if (e.observation === 'error' && e.cause == null) return this.orphanError(e);
    countSkip(this.skipped, e.observation === 'recall' ? 'recall' : `observation:${String(e.observation)}`);
  }

  /**
   * An `error` observation with no cause answers a call that never became an action (e.g. an invalid
   * str_replace_editor command). It belongs to the preceding action: its result when that action has
   * none yet, otherwise appended to that result — the order in which the model saw them.
   */
  private orphanError(e: Record<string, unknown>): void {
    const content = stringify(e.content);
    const target = this.lastCall;
    if (target !== undefined && !this.answered.has(target)) {
      this.answered.add(target);
      this.group.result({ callId: target, content, isError: true });
      this.orphanErrors.push({ event: e.id, attachedTo: target, how: 'result' });
      return;
    }
    const held =
      target !== undefined ? (this.group.heldResult(target) ?? this.b.findResult(target)) : undefined;
    if (!held) {
      // Nothing to attach to (an error before any action): keep it where the model saw it.
      this.b.userText(`[error] ${content}`);
      this.orphanErrors.push({ event: e.id, attachedTo: undefined, how: 'user-text' });
      return;
    }
    held.content += `\n\n[error observation, no cause]\n${content}`;
    this.orphanErrors.push({ event: e.id, attachedTo: target, how: 'appended' });
    countSkip(this.skipped, 'orphan_error_appended');
  }
}

function withoutThought(args: Record<string, unknown>): Record<string, unknown> {
  const { thought: _thought, ...rest } = args;
  return rest;
}
