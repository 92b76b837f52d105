import { ImportError } from '../core/errors.ts';
import type { Message } from '../core/index.ts';
import { convertBlocks, type Fail } from './anthropic.ts';
import { countSkip, ResponseGrouper, TranscriptBuilder, type MessageDraft, type Skipped } from './builder.ts';
import { formatPath } from './json-locate.ts';
import { isRecord, stringify, type JsonlLine } from './source.ts';

/** A Task/Agent call of this chain: what linking needs to find the child session it spawned. */
export interface SpawnCall {
  callId: string;
  prompt: string;
  input: Record<string, unknown>;
  /** v2: `toolUseResult.agentId` on the call's result line. */
  agentId?: string;
  /** The call got a result that is not an error: the subagent ran, so its session should be there. */
  ran?: boolean;
}

export interface ChainResult {
  messages: Message[];
  spawns: SpawnCall[];
  models: string[];
  awaySummaries: string[];
  /** Session titles from `summary` lines (distinct, in file order): metadata, never messages. */
  titles: string[];
  compactions: number;
}

const spawnTools = new Set(['Task', 'Agent']);

/**
 * Converts one chain of Claude Code lines (the main session, or one subagent) into messages.
 * Lines are processed in file order; assistant lines are grouped by `message.id` because Claude Code
 * writes one content block per line and parallel calls share one id.
 */
export function convertChain(file: string, lines: JsonlLine[], agent: string, skipped: Skipped): ChainResult {
  const chain = new ChainConverter(file, agent, skipped);
  for (const l of lines) chain.line(l);
  return chain.finish();
}

class ChainConverter {
  private readonly b: TranscriptBuilder;
  private readonly group: ResponseGrouper;
  private readonly out: Omit<ChainResult, 'messages'> = {
    spawns: [],
    models: [],
    awaySummaries: [],
    titles: [],
    compactions: 0,
  };
  /** A compact_boundary placeholder waiting for the isCompactSummary line that carries its text. */
  private boundary: MessageDraft | undefined;

  constructor(
    private readonly file: string,
    agent: string,
    private readonly skipped: Skipped,
  ) {
    this.b = new TranscriptBuilder(agent);
    this.group = new ResponseGrouper(this.b);
  }

  line({ line, value }: JsonlLine): void {
    if (!isRecord(value) || typeof value.type !== 'string') {
      throw new ImportError(
        this.file,
        line,
        'not a Claude Code session line (no "type" field); another format? try --from auto',
      );
    }
    const fail: Fail = (path, detail) => {
      throw new ImportError(this.file, line, `message.content${formatPath(path)}: ${detail}`);
    };
    switch (value.type) {
      case 'assistant':
        return this.assistant(value, line, fail);
      case 'user':
        return this.user(value, line, fail);
      case 'summary':
        // A title Claude Code gives a conversation branch (`leafUuid`), not a compaction: compaction
        // is the isCompactSummary user line (after a compact_boundary in v2). It may land between the
        // lines of one streamed response, so it must not flush the response being collected.
        this.title(stringify(value.summary));
        return countSkip(this.skipped, 'summary');
      case 'system':
        return this.system(value);
      case 'attachment':
        return countSkip(
          this.skipped,
          `attachment:${isRecord(value.attachment) ? stringify(value.attachment.type) : '?'}`,
        );
      default:
        // file-history-snapshot, permission-mode, queue-operation, last-prompt, progress, …
        countSkip(this.skipped, value.type);
    }
  }

  finish(): ChainResult {
    this.group.flush();
    return { messages: this.b.messages, ...this.out };
  }

  private message(value: Record<string, unknown>, line: number): Record<string, unknown> {
    if (!isRecord(value.message))
      throw new ImportError(this.file, line, `${String(value.type)} line without a message`);
    return value.message;
  }

  private assistant(value: Record<string, unknown>, line: number, fail: Fail): void {
    const message = this.message(value, line);
    if (typeof message.model === 'string' && message.model !== '<synthetic>')
      this.out.models.push(message.model);
    const content = convertBlocks(message.content, 'assistant', fail, this.skipped);
    for (const c of content.calls) {
      if (spawnTools.has(c.name) && isRecord(c.input) && typeof c.input.prompt === 'string') {
        this.out.spawns.push({ callId: c.id, prompt: c.input.prompt, input: c.input });
      }
    }
    const key = typeof message.id === 'string' ? message.id : `line-${line}`;
    this.group.add(key, {
      text: content.texts.length > 0 ? content.texts.join('\n\n') : undefined,
      calls: content.calls,
    });
  }

  private user(value: Record<string, unknown>, line: number, fail: Fail): void {
    const message = this.message(value, line);
    if (value.isCompactSummary === true) return this.compactSummary(message, fail);
    if (value.isMeta === true) return countSkip(this.skipped, 'meta_user_line');
    const content = convertBlocks(message.content, 'user', fail, this.skipped);
    const agentId = isRecord(value.toolUseResult) ? value.toolUseResult.agentId : undefined;
    for (const r of content.results) {
      this.group.result(r);
      const spawn = this.out.spawns.find((s) => s.callId === r.callId);
      if (spawn && typeof agentId === 'string') spawn.agentId = agentId;
      if (spawn && !r.isError) spawn.ran = true;
    }
    const text = content.texts
      .map((t) => cleanUserText(t, this.skipped))
      .filter((t) => t !== '')
      .join('\n\n');
    if (text === '') return;
    this.group.flush();
    this.boundary = undefined;
    this.b.userText(text);
  }

  private system(value: Record<string, unknown>): void {
    if (value.subtype === 'compact_boundary') {
      this.compaction(stringify(value.content) || 'Conversation compacted');
      this.boundary = this.b.messages.at(-1);
      return;
    }
    if (value.subtype === 'away_summary') this.out.awaySummaries.push(stringify(value.content));
    countSkip(this.skipped, `system:${stringify(value.subtype) || '?'}`);
  }

  private title(text: string): void {
    if (text !== '' && !this.out.titles.includes(text)) this.out.titles.push(text);
  }

  private compaction(text: string): void {
    this.group.flush();
    this.b.compaction(text);
    this.out.compactions++;
  }

  /** v2 writes the summary text on the user line right after the boundary; v1 has only this line. */
  private compactSummary(message: Record<string, unknown>, fail: Fail): void {
    const text = convertBlocks(message.content, 'user', fail, this.skipped).texts.join('\n\n');
    if (this.boundary && this.b.messages.at(-1) === this.boundary) {
      this.boundary.text = text;
      this.boundary = undefined;
      return;
    }
    this.compaction(text);
  }
}

/** Harness-injected wrappers inside user text: dropped (counted by kind), never shown as the user's words. */
const droppedWrappers: [RegExp, string][] = [
  [/<system-reminder>[\s\S]*?<\/system-reminder>/g, 'system_reminder'],
  [
    /<local-command-(?:stdout|stderr|caveat)>[\s\S]*?<\/local-command-(?:stdout|stderr|caveat)>/g,
    'local_command_output',
  ],
  [/<ide_[a-z_]+>[\s\S]*?<\/ide_[a-z_]+>/g, 'ide_context'],
  [/<user-prompt-submit-hook>[\s\S]*?<\/user-prompt-submit-hook>/g, 'hook_output'],
];

/**
 * Strips wrappers from one user text block. A slash command (`<command-name>/x</command-name>
 * <command-args>…`) is what the user typed, so it is kept as `/x args` — its expansion is the
 * isMeta line that follows, which is skipped — and the markup is counted as `command_wrapper`.
 */
export function cleanUserText(text: string, skipped: Skipped): string {
  let out = text;
  for (const [re, kind] of droppedWrappers) {
    out = out.replace(re, () => {
      countSkip(skipped, kind);
      return '';
    });
  }
  const name = /<command-name>([\s\S]*?)<\/command-name>/.exec(out);
  if (name) {
    const args = /<command-args>([\s\S]*?)<\/command-args>/.exec(out);
    countSkip(skipped, 'command_wrapper');
    out = `${name[1]!.trim()} ${args?.[1]?.trim() ?? ''}`;
  }
  return out.trim();
}
