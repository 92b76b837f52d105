import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ImportError } from '../core/errors.ts';
import type { Transcript } from '../core/index.ts';
import { countSkip, makeTranscript, type Skipped } from './builder.ts';
import { convertChain, type SpawnCall } from './claude-code-chain.ts';
import { findSubagentFiles, inlineSidechains, type ChildSource } from './claude-code-subagents.ts';
import type { FormatImporter } from './importer.ts';
import { isRecord, parseJsonl, readSource, stringify, type JsonlLine } from './source.ts';

/**
 * Claude Code session JSONL, with its subagents as `children` keyed by the spawning Task/Agent call:
 * v1 inline sidechains (`isSidechain`), v2.1 `<session>/subagents/agent-<id>.jsonl`, v2.0
 * `agent-<id>.jsonl` next to the session. `file` may be the session file or a session directory.
 */
export const importClaudeCode: FormatImporter = (path, _options, skipped) => {
  const file = resolveSessionFile(path);
  const lines = parseJsonl(file, readSource(file), skipped);
  const sessionId = lines
    .map((l) => (isRecord(l.value) ? l.value.sessionId : undefined))
    .find((s) => typeof s === 'string');
  const main = lines.filter((l) => isRecord(l.value) && l.value.isSidechain !== true);
  // A subagent file imported on its own is all sidechain: then it is the session.
  const own = main.length > 0 ? main : lines;
  const pool = [
    ...(main.length > 0 ? inlineSidechains(file, lines) : []),
    ...findSubagentFiles(file, sessionId, skipped),
  ];
  const linker = new ChildLinker(pool, skipped);
  const transcript = linker.build(
    file,
    own,
    { name: 'main', role: 'primary' },
    { sessionId, version: versionOf(lines) },
  );
  // Imported on its own, a subagent's siblings are other subagents of the parent, not leftovers.
  const unlinked = main.length > 0 ? linker.reportUnlinked() : [];
  const missing = linker.missingSubagents;
  if (!transcript.meta || (unlinked.length === 0 && missing.length === 0)) return transcript;
  return {
    ...transcript,
    meta: {
      ...transcript.meta,
      ...(unlinked.length > 0 ? { unlinkedSubagents: unlinked } : {}),
      ...(missing.length > 0 ? { missingSubagents: missing } : {}),
    },
  };
};

/** A directory names a session: `<id>/` beside `<id>.jsonl` (v2.1 layout), or a folder holding one session file. */
export function resolveSessionFile(path: string): string {
  const abs = resolve(path);
  if (!existsSync(abs)) throw new ImportError(path, undefined, 'no such file or directory');
  if (!statSync(abs).isDirectory()) return path;
  if (existsSync(`${abs}.jsonl`)) return `${abs}.jsonl`;
  const sessions = readdirSync(abs).filter((f) => f.endsWith('.jsonl') && !f.startsWith('agent-'));
  if (sessions.length === 1) return join(abs, sessions[0]!);
  if (sessions.length === 0)
    throw new ImportError(path, undefined, 'directory holds no Claude Code session (*.jsonl)');
  throw new ImportError(
    path,
    undefined,
    `directory holds ${sessions.length} sessions (${sessions.join(', ')}); pass one file`,
  );
}

function versionOf(lines: JsonlLine[]): string | undefined {
  for (const l of lines) if (isRecord(l.value) && typeof l.value.version === 'string') return l.value.version;
  return undefined;
}

interface AgentSpec {
  name: string;
  role: 'primary' | 'child';
}

/** Builds a transcript and, recursively, the children its Task/Agent calls spawned; each source links once. */
class ChildLinker {
  private readonly used = new Set<ChildSource>();

  constructor(
    private readonly pool: ChildSource[],
    private readonly skipped: Skipped,
  ) {}

  build(file: string, lines: JsonlLine[], agent: AgentSpec, meta: Record<string, unknown>): Transcript {
    const chain = convertChain(file, lines, agent.name, this.skipped);
    const children: Record<string, Transcript> = {};
    const names = new Set<string>();
    for (const spawn of chain.spawns) {
      const source = this.find(spawn);
      if (!source) {
        this.missing(spawn);
        continue;
      }
      this.used.add(source);
      const name = uniqueName(childName(spawn, names.size), names);
      const spawnMeta = {
        description: spawn.input.description,
        subagentType: spawn.input.subagent_type,
        spawnedBy: spawn.callId,
      };
      children[spawn.callId] = this.build(
        source.file,
        source.lines(),
        { name, role: 'child' },
        { ...spawnMeta, ...source.meta },
      );
    }
    const role = agent.role === 'primary' && Object.keys(children).length > 0 ? 'parent' : agent.role;
    const model = mostFrequent(chain.models);
    return makeTranscript(chain.messages, {
      format: 'claude-code',
      file,
      id: stringify(meta.sessionId ?? meta.agentId) || undefined,
      agents: { [agent.name]: { role, ...(model ? { model } : {}) } },
      children,
      meta: {
        ...meta,
        awaySummaries: chain.awaySummaries.length > 0 ? chain.awaySummaries : undefined,
        titles: chain.titles.length > 0 ? chain.titles : undefined,
        compactions: chain.compactions || undefined,
      },
    });
  }

  /** v2 links through the result's agentId; v1 (and any fallback) through the root prompt text. */
  private find(spawn: SpawnCall): ChildSource | undefined {
    const free = this.pool.filter((s) => !this.used.has(s));
    if (spawn.agentId !== undefined) {
      const byId = free.find((s) => s.agentId === spawn.agentId);
      if (byId) return byId;
    }
    return free.find((s) => s.rootPrompt() === spawn.prompt.trim());
  }

  /** Spawn calls whose subagent ran (named by its result, or answered) but whose session is not there. */
  readonly missingSubagents: string[] = [];

  /**
   * A subagent that ran but left no session (its v2.0 sibling `agent-<id>.jsonl` or v2.1
   * `subagents/agent-<id>.jsonl` deleted or never copied, v1 sidechain lines cut): its calls are not in
   * the tree, so it is counted as `subagent_file_missing` (as the Gemini importer does) and listed in
   * `meta.missingSubagents`, never silent. A call refused or failed before it ran spawned nothing.
   */
  private missing(spawn: SpawnCall): void {
    if (spawn.agentId === undefined && !spawn.ran) return;
    countSkip(this.skipped, 'subagent_file_missing');
    this.missingSubagents.push(spawn.agentId ?? spawn.callId);
  }

  /** Subagent sessions no call spawned (warm-ups, compaction helpers): counted and listed, not imported. */
  reportUnlinked(): string[] {
    const unlinked = this.pool.filter((s) => !this.used.has(s));
    countSkip(this.skipped, 'unlinked_subagent', unlinked.length);
    return unlinked.map((s) => s.agentId ?? s.file);
  }
}

function childName(spawn: SpawnCall, index: number): string {
  if (typeof spawn.input.name === 'string' && spawn.input.name !== '') return spawn.input.name;
  const type = typeof spawn.input.subagent_type === 'string' ? spawn.input.subagent_type : 'subagent';
  return `${type}-${index + 1}`;
}

function uniqueName(name: string, taken: Set<string>): string {
  let out = name;
  for (let n = 2; taken.has(out) || out === 'main'; n++) out = `${name}-${n}`;
  taken.add(out);
  return out;
}

function mostFrequent(values: string[]): string | undefined {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
}
