import { basename } from 'node:path';
import { ImportError } from '../core/errors.ts';
import type { Transcript } from '../core/index.ts';
import { countSkip, makeTranscript, type Skipped } from './builder.ts';
import type { FormatImporter } from './importer.ts';
import { flagExecExits, type ExecEnd } from './codex-exits.ts';
import { ResponsesItems } from './responses-items.ts';
import { isRecord, parseJsonl, readSource, stringify, type JsonlLine } from './source.ts';

/**
 * Codex CLI rollout JSONL (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`): one `RolloutItem` a line,
 * `{timestamp, type, payload}` with type `session_meta | response_item | event_msg | turn_context |
 * compacted | …` (codex-rs/protocol). `response_item` payloads are Responses API items and are what
 * the model saw; `event_msg` lines are UI events, read only for what the items may lack: the user's
 * turns (`user_message`; some writers record them only there) and exit codes (`exec_command_end`).
 */
export const importCodex: FormatImporter = (file, _options, skipped) => {
  const lines = parseJsonl(file, readSource(file), skipped);
  const conversion = new RolloutConversion(file, skipped);
  for (const l of lines) conversion.line(l);
  return conversion.finish();
};

/**
 * Harness-injected user messages (codex-rs/protocol instruction_markers.rs): context the model sees, not
 * the user's words — moved to `meta.system` (after the base instructions), counted by kind.
 */
const injected: [RegExp, string][] = [
  [/^\s*<environment_context>/, 'environment_context'],
  [/^\s*(<user_instructions>|# AGENTS\.md instructions for )/, 'user_instructions'],
  [/^\s*<collaboration_mode>/, 'collaboration_mode'],
  [/^\s*<skill[\s>]/, 'skill_instructions'],
];

class RolloutConversion {
  private readonly items: ResponsesItems;
  private meta: Record<string, unknown> = {};
  private model: string | undefined;
  private readonly ends: ExecEnd[] = [];

  constructor(
    private readonly file: string,
    private readonly skipped: Skipped,
  ) {
    this.items = new ResponsesItems('main', skipped);
  }

  line({ line, value }: JsonlLine): void {
    if (!isRecord(value) || typeof value.type !== 'string' || !('payload' in value)) {
      throw new ImportError(
        this.file,
        line,
        'not a Codex rollout line (expected {timestamp, type, payload})',
      );
    }
    const payload = isRecord(value.payload) ? value.payload : {};
    const fail = (detail: string): never => {
      throw new ImportError(this.file, line, `${value.type}: ${detail}`);
    };
    switch (value.type) {
      case 'session_meta':
        return this.sessionMeta(payload);
      case 'turn_context':
        if (typeof payload.model === 'string') this.model = payload.model;
        return countSkip(this.skipped, 'turn_context');
      case 'response_item':
        return this.responseItem(payload, fail);
      case 'event_msg':
        return this.event(payload);
      case 'compacted':
        return this.items.compaction(stringify(payload.message) || '(context compacted)');
      default:
        countSkip(this.skipped, value.type);
    }
  }

  finish(): Transcript {
    this.items.flush();
    const messages = this.items.b.messages;
    // exec_command_end's exit code is the only structured failure signal a rollout carries.
    flagExecExits(messages, this.ends);
    const system = this.items.system.length > 0 ? this.items.system.join('\n\n') : undefined;
    return makeTranscript(messages, {
      format: 'codex',
      file: this.file,
      id: stringify(this.meta.id) || basename(this.file).replace(/\.jsonl$/, ''),
      agents: { main: { role: 'primary', ...(this.model ? { model: this.model } : {}) } },
      meta: {
        system,
        cliVersion: this.meta.cli_version,
        originator: this.meta.originator,
        modelProvider: this.meta.model_provider,
      },
    });
  }

  private sessionMeta(payload: Record<string, unknown>): void {
    this.meta = payload;
    const base = isRecord(payload.base_instructions) ? payload.base_instructions.text : payload.instructions;
    if (typeof base === 'string' && base !== '') this.items.system.push(base);
    countSkip(this.skipped, 'session_meta');
  }

  private responseItem(payload: Record<string, unknown>, fail: (d: string) => never): void {
    if (payload.type === 'message' && payload.role === 'user') {
      const text = Array.isArray(payload.content)
        ? payload.content.map((p: unknown) => (isRecord(p) ? stringify(p.text) : '')).join('\n')
        : stringify(payload.content);
      const hit = injected.find(([re]) => re.test(text));
      // The model saw this context (AGENTS.md, environment, mode): kept as system text, counted by kind.
      if (hit) {
        this.items.system.push(text);
        return countSkip(this.skipped, hit[1]);
      }
    }
    this.items.item(payload, fail);
  }

  private event(payload: Record<string, unknown>): void {
    if (payload.type === 'user_message' && typeof payload.message === 'string') {
      return this.items.userText(payload.message);
    }
    if (payload.type === 'exec_command_end' && typeof payload.call_id === 'string') {
      if (typeof payload.exit_code === 'number') {
        const processId = payload.process_id;
        this.ends.push({
          callId: payload.call_id,
          exitCode: payload.exit_code,
          ...(typeof processId === 'string' || typeof processId === 'number'
            ? { processId: String(processId) }
            : {}),
        });
      }
    }
    countSkip(this.skipped, `event_msg:${stringify(payload.type) || '?'}`);
  }
}
