import { basename } from 'node:path';
import type { AgentInfo, ToolCall, Transcript } from '../core/index.ts';
import { countSkip, makeTranscript, TranscriptBuilder, type Skipped } from './builder.ts';
import type { FormatImporter } from './importer.ts';
import type { JsonPath } from './json-locate.ts';
import { isRecord, parseArguments, parseJsonDoc, readSource, stringify, type JsonDoc } from './source.ts';

/**
 * SWE-agent `.traj`: `history` is the model-facing message list and is what we import
 * (`trajectory[i].messages` are per-step prompt snapshots — importing them would repeat everything).
 *
 * Two dialects: function calling (assistant `tool_calls`, then `role: tool` with a `tool_call_ids`
 * LIST) and legacy text actions (no ids: the action is `entry.action`, its observation the next
 * `user` entry — positional pairing, ids synthesised as `action-<n>`).
 */
export const importSweAgent: FormatImporter = (file, _options, skipped) => {
  const doc = parseJsonDoc(file, readSource(file));
  const root = doc.value;
  if (!isRecord(root) || !Array.isArray(root.history)) {
    return doc.fail([], 'not a SWE-agent trajectory: expected {history: [...], trajectory: [...]}');
  }
  return new SweConversion(doc, skipped).run(root.history, root);
};

/** The in-context demonstration SWE-agent prepends in text mode (≈19k chars); not part of the task. */
export function isDemonstration(entry: Record<string, unknown>): boolean {
  if (entry.is_demo === true) return true;
  return (
    typeof entry.content === 'string' &&
    entry.content.startsWith('Here is a demonstration of how to correctly accomplish this task.')
  );
}

class SweConversion {
  private readonly b = new TranscriptBuilder('main');
  private readonly system: string[] = [];
  /** Text dialect: the synthesised id of the action still waiting for its observation. */
  private pendingAction: string | undefined;
  private actions = 0;
  private readonly agentNames = new Set<string>();

  constructor(
    private readonly doc: JsonDoc,
    private readonly skipped: Skipped,
  ) {}

  run(history: unknown[], root: Record<string, unknown>): Transcript {
    history.forEach((e, i) => this.entry(e, ['history', i]));
    const info = isRecord(root.info) ? root.info : {};
    const model = replayModel(root.replay_config);
    const agents: Record<string, AgentInfo> = {};
    for (const name of this.agentNames.size > 0 ? this.agentNames : ['main'])
      agents[name] = { role: 'primary', ...(model ? { model } : {}) };
    return makeTranscript(this.b.messages, {
      format: 'swe-agent',
      file: this.doc.file,
      // SWE-agent names each .traj after its instance (`marshmallow-code__marshmallow-1867.traj`).
      id: basename(this.doc.file).replace(/\.traj$/, ''),
      agents,
      meta: {
        system: this.system.length > 0 ? this.system.join('\n\n') : undefined,
        dialect: this.actions > 0 ? 'text' : 'function-calling',
        exitStatus: info.exit_status,
        submission: info.submission,
      },
    });
  }

  private entry(e: unknown, path: JsonPath): void {
    if (!isRecord(e)) return this.doc.fail(path, 'history entry is not an object');
    const agent = typeof e.agent === 'string' ? e.agent : 'main';
    this.agentNames.add(agent);
    const content = this.content(e.content, [...path, 'content']);
    switch (e.role) {
      case 'system':
        this.system.push(content);
        countSkip(this.skipped, 'system');
        return;
      case 'assistant':
        return this.assistant(e, content, agent, path);
      case 'tool':
        return this.toolObservation(e, content, agent, path);
      case 'user':
        if (isDemonstration(e)) return countSkip(this.skipped, 'demonstration');
        if (this.pendingAction !== undefined) {
          this.b.result(this.pendingAction, content, false, agent);
          this.pendingAction = undefined;
        } else {
          this.b.userText(content, agent);
        }
        return;
      default:
        this.doc.fail([...path, 'role'], `role "${String(e.role)}" is not a SWE-agent history role`);
    }
  }

  private assistant(e: Record<string, unknown>, content: string, agent: string, path: JsonPath): void {
    if (Array.isArray(e.tool_calls) && e.tool_calls.length > 0) {
      const calls = e.tool_calls.map((c: unknown, j) => this.toolCall(c, [...path, 'tool_calls', j]));
      this.b.assistant(content, calls, agent);
      return;
    }
    const action = typeof e.action === 'string' ? e.action.trim() : '';
    if (action === '') {
      this.b.assistant(content, [], agent);
      return;
    }
    // Text dialect: `thought` is the content minus the fenced action, so the action is not said twice.
    const thought = typeof e.thought === 'string' ? e.thought.trim() : content;
    const id = `action-${++this.actions}`;
    const name = action.split(/\s+/, 1)[0]!;
    this.b.assistant(thought, [{ id, name, input: { command: action } }], agent);
    this.pendingAction = id;
  }

  private toolObservation(e: Record<string, unknown>, content: string, agent: string, path: JsonPath): void {
    const ids = Array.isArray(e.tool_call_ids)
      ? e.tool_call_ids
      : typeof e.tool_call_id === 'string'
        ? [e.tool_call_id]
        : [];
    if (ids.length === 0) return this.doc.fail(path, 'tool observation without tool_call_ids');
    // One observation answering several ids is repeated for each, so every call keeps a result.
    for (const id of ids) this.b.result(stringify(id), content, false, agent);
  }

  private toolCall(c: unknown, path: JsonPath): ToolCall {
    if (!isRecord(c) || typeof c.id !== 'string' || !isRecord(c.function))
      return this.doc.fail(path, 'tool call without id or function');
    return { id: c.id, name: stringify(c.function.name), input: parseArguments(c.function.arguments) };
  }

  private content(content: unknown, path: JsonPath): string {
    if (typeof content === 'string') return content;
    if (Array.isArray(content)) {
      return content
        .map((p: unknown, i) =>
          isRecord(p) && p.type === 'text'
            ? stringify(p.text)
            : isRecord(p) && p.type === 'image_url'
              ? '[image]'
              : this.doc.fail([...path, i], 'unknown content part'),
        )
        .join('\n');
    }
    return stringify(content);
  }
}

function replayModel(config: unknown): string | undefined {
  let c = config;
  if (typeof c === 'string') {
    try {
      c = JSON.parse(c) as unknown;
    } catch {
      return undefined;
    }
  }
  const model = isRecord(c) && isRecord(c.agent) && isRecord(c.agent.model) ? c.agent.model.name : undefined;
  return typeof model === 'string' ? model : undefined;
}
