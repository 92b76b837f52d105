import { ImportError } from '../errors.ts';
import type { ToolCall, Transcript } from '../types.ts';
import { countSkip, makeTranscript, ResponseGrouper, TranscriptBuilder, type Skipped } from './builder.ts';
import type { FormatImporter, ImportOptions } from './importer.ts';
import { isRecord, parseArguments, parseJsonl, readSource, stringify, type JsonlLine } from './source.ts';

/**
 * OpenHands eval output: JSONL, one EvalOutput `{instance_id, instruction, metadata, history, …}` per
 * line. `history` is an event stream: actions (`args`) and observations (`content`, `cause`).
 * Pairing is `observation.cause == action.id`; parallel calls are actions sharing
 * `tool_call_metadata.model_response.id`.
 */
export const importOpenHands: FormatImporter = (file, options, skipped) => {
  const lines = parseJsonl(file, readSource(file), skipped);
  const { line, index } = pickInstance(file, lines, options);
  const out = line.value as Record<string, unknown>;
  if (!Array.isArray(out.history)) throw new ImportError(file, line.line, 'EvalOutput has no history list');
  const ids = lines.map((l) => (isRecord(l.value) ? stringify(l.value.instance_id) : '?'));
  return new EventConversion(file, line.line, skipped).run(out, index, ids);
};

function pickInstance(
  file: string,
  lines: JsonlLine[],
  options: ImportOptions,
): { line: JsonlLine; index: number } {
  for (const l of lines) {
    if (!isRecord(l.value) || !('history' in l.value) || !('instance_id' in l.value)) {
      throw new ImportError(
        file,
        l.line,
        'not an OpenHands EvalOutput line (expected instance_id and history)',
      );
    }
  }
  if (lines.length === 0) throw new ImportError(file, undefined, 'empty file');
  const wanted = options.instance ?? 0;
  const ids = lines.map((l) => stringify((l.value as Record<string, unknown>).instance_id));
  let index = ids.indexOf(String(wanted));
  if (index < 0 && /^\d+$/.test(String(wanted))) index = Number(wanted);
  const line = lines[index];
  if (index < 0 || !line) {
    throw new ImportError(
      file,
      undefined,
      `no instance "${wanted}"; this file has ${lines.length}: ${ids.map((id, i) => `${i}=${id}`).join(', ')}`,
    );
  }
  return { line, index };
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

  run(out: Record<string, unknown>, index: number, instances: string[]): Transcript {
    (out.history as unknown[]).forEach((e, i) => this.event(e, i));
    this.group.flush();
    const metadata = isRecord(out.metadata) ? out.metadata : {};
    const llm = isRecord(metadata.llm_config) ? metadata.llm_config.model : undefined;
    return makeTranscript(this.b.messages, {
      format: 'openhands',
      file: this.file,
      id: stringify(out.instance_id),
      agents: { main: { role: 'primary', ...(typeof llm === 'string' ? { model: llm } : {}) } },
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
