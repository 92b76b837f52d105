import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ImportError } from '../core/errors.ts';
import type { ToolCall, Transcript } from '../core/index.ts';
import { countSkip, makeTranscript, TranscriptBuilder, type Skipped } from './builder.ts';
import type { FormatImporter } from './importer.ts';
import { isRecord, parseJsonDoc, parseJsonl, readSource, stringify } from './source.ts';

/**
 * Gemini CLI chat sessions (`~/.gemini/tmp/<project>/chats/`), written by its ChatRecordingService
 * (packages/core/src/services/chatRecording*.ts): until April 2026 one JSON ConversationRecord
 * `{sessionId, projectHash, startTime, lastUpdated, messages}`; since then JSON Lines — a metadata
 * line, message records (a repeated `id` replaces the earlier record in place), `{$set: …}` updates
 * (`$set.messages` is a checkpoint that replaces everything) and `{$rewindTo: id}` (drops that
 * message and all after it). Messages are `user` or `gemini`; a gemini message's `toolCalls`
 * carry their results (`result`: Gemini parts, `functionResponse.response.output|error`) and a
 * `status`. A call whose result names an `agentId` spawned a subagent, recorded in
 * `chats/<sessionId>/<agentId>.jsonl`: it becomes the child transcript keyed by that call.
 */
export const importGemini: FormatImporter = (file, _options, skipped) =>
  convertSession(file, skipped, 'main', 0);

interface Loaded {
  meta: Record<string, unknown>;
  messages: Record<string, unknown>[];
}

function load(file: string, skipped: Skipped): Loaded {
  const text = readSource(file);
  // The legacy record is one JSON document (often pretty-printed); the current writer appends JSONL.
  const lines = isJsonDocument(text)
    ? [{ line: 1, value: parseJsonDoc(file, text).value }]
    : parseJsonl(file, text, skipped);
  let meta: Record<string, unknown> = {};
  const byId = new Map<string, Record<string, unknown>>();
  const setMessages = (messages: unknown): void => {
    for (const m of Array.isArray(messages) ? messages : [])
      if (isRecord(m) && typeof m.id === 'string') byId.set(m.id, m);
  };
  for (const { line, value: r } of lines) {
    if (!isRecord(r)) throw new ImportError(file, line, 'not a Gemini CLI session record');
    if (typeof r.$rewindTo === 'string') {
      const ids = [...byId.keys()];
      const at = ids.indexOf(r.$rewindTo);
      for (const id of at >= 0 ? ids.slice(at) : ids) byId.delete(id);
      countSkip(skipped, 'rewind');
    } else if (typeof r.id === 'string') {
      byId.set(r.id, r);
    } else if (isRecord(r.$set)) {
      if (Array.isArray(r.$set.messages)) {
        byId.clear();
        setMessages(r.$set.messages);
      }
      meta = { ...meta, ...r.$set };
    } else if (typeof r.sessionId === 'string' && typeof r.projectHash === 'string') {
      meta = { ...meta, ...r };
      setMessages(r.messages);
    } else {
      throw new ImportError(file, line, 'not a Gemini CLI session record (no id, sessionId or $set)');
    }
  }
  if (typeof meta.sessionId !== 'string')
    throw new ImportError(file, 1, 'not a Gemini CLI session: no sessionId/projectHash record');
  return { meta, messages: [...byId.values()] };
}

function isJsonDocument(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function convertSession(file: string, skipped: Skipped, agent: string, depth: number): Transcript {
  const { meta, messages } = load(file, skipped);
  const b = new TranscriptBuilder(agent);
  const models: string[] = [];
  const spawns: { call: ToolCall; agentId: string }[] = [];
  messages.forEach((m, i) => {
    const where = (detail: string): never => {
      throw new ImportError(file, undefined, `messages[${i}] (id ${String(m.id)}): ${detail}`);
    };
    switch (m.type) {
      case 'user':
        return b.userText(partsText(m.content, where));
      case 'gemini':
        if (typeof m.model === 'string') models.push(m.model);
        countSkip(skipped, 'thinking', Array.isArray(m.thoughts) ? m.thoughts.length : 0);
        return geminiMessage(b, m, where, spawns);
      default:
        // info, error, warning: the CLI's own notices, not part of the dialogue.
        countSkip(skipped, `gemini:${stringify(m.type) || '?'}`);
    }
  });
  const children = depth < 8 ? linkChildren(file, meta, spawns, skipped, depth) : {};
  const model = mostFrequent(models);
  const role = Object.keys(children).length > 0 ? 'parent' : agent === 'main' ? 'primary' : 'child';
  return makeTranscript(b.messages, {
    format: 'gemini',
    file,
    id: stringify(meta.sessionId),
    agents: { [agent]: { role, ...(model ? { model } : {}) } },
    children,
    meta: { summary: meta.summary, kind: meta.kind, startTime: meta.startTime },
  });
}

function geminiMessage(
  b: TranscriptBuilder,
  m: Record<string, unknown>,
  where: (d: string) => never,
  spawns: { call: ToolCall; agentId: string }[],
): void {
  const records = Array.isArray(m.toolCalls) ? (m.toolCalls as unknown[]) : [];
  records.forEach((tc, j) => {
    if (!isRecord(tc) || typeof tc.id !== 'string') where(`toolCalls[${j}] without an id`);
  });
  const rounds = splitRounds(records as Record<string, unknown>[]);
  // The message's text came with the first round's calls: a later round with text or thoughts would
  // have opened a new record (chatRecordingService.recordMessage / queued thoughts).
  let text: string | undefined = partsText(m.content, where);
  if (rounds.length === 0) b.assistant(text, []);
  for (const round of rounds) {
    const calls: ToolCall[] = round.map((tc) => {
      const call = { id: tc.id as string, name: stringify(tc.name), input: tc.args ?? {} };
      if (typeof tc.agentId === 'string') spawns.push({ call, agentId: tc.agentId });
      return call;
    });
    const stored = b.assistant(text, calls);
    text = undefined;
    round.forEach((tc, j) => {
      // A call still running (or cancelled before it ran) has no result: it stays unanswered.
      if (tc.result === undefined || tc.result === null) return;
      const failed = tc.status === 'error' || tc.status === 'cancelled';
      b.result(stored[j]!.id, resultText(tc.result, where), failed);
    });
  }
}

/**
 * One record's calls split into model rounds (issue 28 item 3). chatRecordingService.recordToolCalls
 * appends a round's completed calls to the LAST gemini record when no new thought is queued, so one
 * record can hold the calls of several rounds; geminiChat.recordCompletedToolCalls stamps a whole
 * completed batch (one round) with `new Date().toISOString()` in one synchronous map. A new round
 * therefore starts where a call's completion timestamp moves on by more than `ROUND_GAP_MS` (a model
 * round trip lies between rounds; calls of one batch are stamped within a millisecond or two).
 */
function splitRounds(records: Record<string, unknown>[]): Record<string, unknown>[][] {
  const rounds: Record<string, unknown>[][] = [];
  let last: number | undefined;
  for (const tc of records) {
    const at = typeof tc.timestamp === 'string' ? Date.parse(tc.timestamp) : NaN;
    const next = !Number.isNaN(at) && last !== undefined && Math.abs(at - last) > ROUND_GAP_MS;
    if (rounds.length === 0 || next) rounds.push([]);
    rounds.at(-1)!.push(tc);
    if (!Number.isNaN(at)) last = at;
  }
  return rounds;
}

const ROUND_GAP_MS = 50;

/** Gemini `PartListUnion`: a string, one part, or a list of parts. */
function partsText(content: unknown, where: (d: string) => never): string {
  if (typeof content === 'string') return content;
  if (content === undefined || content === null) return '';
  const parts = Array.isArray(content) ? content : [content];
  return parts.map((p: unknown) => partText(p, where)).join('');
}

function partText(p: unknown, where: (d: string) => never): string {
  if (typeof p === 'string') return p;
  if (!isRecord(p)) return where('content part is not an object');
  if (typeof p.text === 'string') return p.thought === true ? '' : p.text;
  if (isRecord(p.functionResponse)) {
    const r = isRecord(p.functionResponse.response) ? p.functionResponse.response : {};
    return stringify(r.output ?? r.error ?? r.content ?? r);
  }
  if (isRecord(p.inlineData) || isRecord(p.fileData)) return '[file]';
  if (isRecord(p.functionCall)) return '';
  return where(`unknown content part (keys: ${Object.keys(p).join(', ')})`);
}

function resultText(result: unknown, where: (d: string) => never): string {
  const parts = Array.isArray(result) ? result : [result];
  return parts.map((p: unknown) => partText(p, where)).join('\n');
}

/** Subagents live in `chats/<parent sessionId>/<agentId>.jsonl` next to the parent file. */
function linkChildren(
  file: string,
  meta: Record<string, unknown>,
  spawns: { call: ToolCall; agentId: string }[],
  skipped: Skipped,
  depth: number,
): Record<string, Transcript> {
  const children: Record<string, Transcript> = {};
  const taken = new Set<string>();
  for (const { call, agentId } of spawns) {
    const dir = join(dirname(file), stringify(meta.sessionId));
    const path = [`${agentId}.jsonl`, `${agentId}.json`].map((f) => join(dir, f)).find((p) => existsSync(p));
    if (!path) {
      countSkip(skipped, 'subagent_file_missing');
      continue;
    }
    let name = call.name || 'subagent';
    for (let n = 2; taken.has(name) || name === 'main'; n++) name = `${call.name}-${n}`;
    taken.add(name);
    const child = convertSession(path, skipped, name, depth + 1);
    children[call.id] = { ...child, meta: { ...child.meta, spawnedBy: call.id, agentId } };
  }
  return children;
}

function mostFrequent(values: string[]): string | undefined {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
}
