import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Skipped } from './builder.ts';
import { isRecord, parseJsonDoc, parseJsonl, readSource, type JsonlLine } from './source.ts';

/** A subagent session that a Task/Agent call of the parent may have spawned. */
export interface ChildSource {
  file: string;
  /** From the file name `agent-<id>.jsonl` (v2); undefined for v1 inline sidechains. */
  agentId?: string;
  /** Goes into the child's meta: agentId, agentType, description, worktreePath (v2.1 `.meta.json`). */
  meta: Record<string, unknown>;
  lines(): JsonlLine[];
  /** The root user line's text — equal to the spawning call's `input.prompt`. */
  rootPrompt(): string;
}

/**
 * v1: subagent lines sit inline with `isSidechain: true`; each subagent is the tree under a root
 * line with `parentUuid: null`. Lines are grouped by following parentUuid to that root, since
 * parallel subagents may interleave in the file.
 */
export function inlineSidechains(file: string, lines: JsonlLine[]): ChildSource[] {
  const byUuid = new Map<string, Record<string, unknown>>();
  for (const l of lines)
    if (isRecord(l.value) && typeof l.value.uuid === 'string') byUuid.set(l.value.uuid, l.value);
  const groups = new Map<string, JsonlLine[]>();
  for (const l of lines) {
    if (!isRecord(l.value) || l.value.isSidechain !== true) continue;
    const root = rootOf(l.value, byUuid);
    groups.set(root, [...(groups.get(root) ?? []), l]);
  }
  return [...groups.values()].map((group) => ({
    file,
    meta: {},
    lines: () => group,
    rootPrompt: () => rootPrompt(group),
  }));
}

function rootOf(line: Record<string, unknown>, byUuid: Map<string, Record<string, unknown>>): string {
  let current = line;
  const seen = new Set<unknown>();
  while (
    typeof current.parentUuid === 'string' &&
    byUuid.has(current.parentUuid) &&
    !seen.has(current.parentUuid)
  ) {
    seen.add(current.parentUuid);
    current = byUuid.get(current.parentUuid)!;
  }
  return typeof current.uuid === 'string' ? current.uuid : '?';
}

/** v2.1 `<session>/subagents/agent-*.jsonl`, then v2.0 `agent-*.jsonl` beside the session with its sessionId. */
export function findSubagentFiles(
  sessionFile: string,
  sessionId: string | undefined,
  skipped: Skipped,
): ChildSource[] {
  const dir = join(dirname(sessionFile), basename(sessionFile, '.jsonl'), 'subagents');
  const nested = agentFiles(dir).map((f) => fileSource(join(dir, f), skipped));
  const siblingDir = dirname(sessionFile);
  const siblings = agentFiles(siblingDir)
    .filter((f) => join(siblingDir, f) !== sessionFile)
    .map((f) => fileSource(join(siblingDir, f), skipped))
    .filter(
      (s) =>
        sessionId !== undefined &&
        s.lines().some((l) => isRecord(l.value) && l.value.sessionId === sessionId),
    );
  return [...nested, ...siblings];
}

function agentFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => /^agent-.+\.jsonl$/.test(f))
    .sort();
}

function fileSource(file: string, skipped: Skipped): ChildSource {
  const agentId = basename(file, '.jsonl').slice('agent-'.length);
  const metaFile = file.replace(/\.jsonl$/, '.meta.json');
  const extra = existsSync(metaFile) ? parseJsonDoc(metaFile, readSource(metaFile)).value : {};
  let cached: JsonlLine[] | undefined;
  const lines = (): JsonlLine[] => (cached ??= parseJsonl(file, readSource(file), skipped));
  return {
    file,
    agentId,
    meta: { agentId, ...(isRecord(extra) ? extra : {}) },
    lines,
    rootPrompt: () => rootPrompt(lines()),
  };
}

function rootPrompt(lines: JsonlLine[]): string {
  for (const l of lines) {
    const v = l.value;
    if (!isRecord(v) || v.type !== 'user' || !isRecord(v.message)) continue;
    const content = v.message.content;
    if (typeof content === 'string') return content.trim();
    if (Array.isArray(content)) {
      return content
        .map((b: unknown) => (isRecord(b) && b.type === 'text' && typeof b.text === 'string' ? b.text : ''))
        .join('')
        .trim();
    }
  }
  return '';
}
