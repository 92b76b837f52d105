import { basename } from 'node:path';
import { ImportError } from '../core/errors.ts';
import type { ToolCall, Transcript } from '../core/index.ts';
import { countSkip, makeTranscript, ResponseGrouper, TranscriptBuilder, type Skipped } from './builder.ts';
import type { FormatImporter, ImportOptions, SessionRef } from './importer.ts';
import { convertLegacyHistory, isLegacyHistory } from './openhands-legacy.ts';
import { instanceName, isNamed, pickInstance, readRecords, type OhRecord } from './openhands-records.ts';
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
  const bad = records.filter((r) => r.error !== undefined).map((r) => ({ line: r.line, error: r.error }));
  countSkip(skipped, 'bad_record', bad.length);
  const t = importRecord(file, records, record, index, skipped);
  return bad.length > 0 ? { ...t, meta: { ...t.meta, badRecords: bad } } : t;
};

function importRecord(
  file: string,
  records: OhRecord[],
  record: OhRecord,
  index: number,
  skipped: Skipped,
): Transcript {
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
}

export function openhandsSessions(file: string): SessionRef[] {
  const records = readRecords(file, {});
  // A lone trajectory has no instance id: it is named after its file.
  if (records.length === 1 && !isNamed(records[0]!.value)) return [{ name: undefined, options: {} }];
  return records.map((r, i) => ({ name: instanceName(r.value, i), options: { instance: i } }));
}

class EventConversion {
  private readonly b = new TranscriptBuilder('main');
  private readonly group = new ResponseGrouper(this.b);
  /** action event id → tool call id. */
  private readonly callOfAction = new Map<number, string>();
  private readonly answered = new Set<string>();
  /** Tool call ids issued, and every event id seen so far. */
  private readonly issued = new Set<string>();
  private readonly seen = new Set<number>();
  private readonly danglingCauses: unknown[] = [];
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
        danglingCauses: this.danglingCauses.length > 0 ? this.danglingCauses : undefined,
      },
    });
  }

  private event(e: unknown, i: number): void {
    if (!isRecord(e)) throw new ImportError(this.file, this.line, `history[${i}] is not an event object`);
    if (typeof e.id === 'number') this.seen.add(e.id);
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
    this.issued.add(id);
    this.lastCall = id;
  }

  private observation(e: Record<string, unknown>): void {
    const metaId = toolCallIdOf(e);
    let callId = typeof e.cause === 'number' ? this.callOfAction.get(e.cause) : undefined;
    // A cause that names no action here (condensed away, renumbered): the observation's own
    // tool_call_metadata (copied from its action by the agent controller) still names the call.
    if (callId === undefined && metaId !== undefined && this.issued.has(metaId)) callId = metaId;
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
    if (typeof e.cause === 'number' && !this.seen.has(e.cause) && e.observation !== 'recall')
      return this.dangling(e, metaId);
    countSkip(this.skipped, e.observation === 'recall' ? 'recall' : `observation:${String(e.observation)}`);
  }

  /**
   * An observation whose `cause` points at no event of this history (issue 28 item 5) is evidence the
   * model saw, never dropped: the result of the call its tool_call_metadata names (a call not in this
   * history: an orphan result, narrated as such), else a user line saying what it is.
   */
  private dangling(e: Record<string, unknown>, metaId: string | undefined): void {
    const content = stringify(e.content);
    this.danglingCauses.push(e.id);
    if (metaId !== undefined && !this.answered.has(metaId)) {
      this.answered.add(metaId);
      return this.group.result({
        callId: metaId,
        content,
        ...(e.observation === 'error' ? { isError: true } : {}),
      });
    }
    this.group.flush();
    this.b.userText(
      `[${String(e.observation)} observation; its cause, event ${String(e.cause)}, is not in this history]\n${content}`,
    );
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

function toolCallIdOf(e: Record<string, unknown>): string | undefined {
  const tcm = isRecord(e.tool_call_metadata) ? e.tool_call_metadata : undefined;
  const id = tcm ? stringify(tcm.tool_call_id) : '';
  return id === '' ? undefined : id;
}

function withoutThought(args: Record<string, unknown>): Record<string, unknown> {
  const { thought: _thought, ...rest } = args;
  return rest;
}
