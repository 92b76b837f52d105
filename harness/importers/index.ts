import { statSync } from 'node:fs';
import { ImportError } from '../errors.ts';
import type { Transcript } from '../types.ts';
import { importAnthropic } from './anthropic.ts';
import { transcriptCounts, walkTranscripts, type Skipped } from './builder.ts';
import { importClaudeCode } from './claude-code.ts';
import {
  importFormats,
  type FormatImporter,
  type ImportFormat,
  type ImportOptions,
  type ImportResult,
  type ImportStats,
} from './importer.ts';
import { importInspect } from './inspect.ts';
import { syntaxErrorLine } from './json-locate.ts';
import { importOpenAI } from './openai.ts';
import { importOpenHands } from './openhands.ts';
import { isRecord, readSource } from './source.ts';
import { importSweAgent } from './swe-agent.ts';

export {
  importFormats,
  type ImportFormat,
  type ImportOptions,
  type ImportResult,
  type ImportStats,
} from './importer.ts';
export type { Skipped } from './builder.ts';

export const importers = {
  'claude-code': importClaudeCode,
  openai: importOpenAI,
  anthropic: importAnthropic,
  'swe-agent': importSweAgent,
  openhands: importOpenHands,
  inspect: importInspect,
} satisfies Record<ImportFormat, FormatImporter>;

/**
 * Imports a real agent transcript into the normalised Transcript (parent plus `children`), with stats
 * over the whole tree. Synchronous: files are read whole (the largest real ones are < 1 MB).
 */
export function importTranscript(path: string, options: ImportOptions = {}): ImportResult {
  const format = options.from === undefined || options.from === 'auto' ? detectFormat(path) : options.from;
  if (!(importFormats as readonly string[]).includes(format)) {
    throw new ImportError(
      path,
      undefined,
      `unknown format "${String(format)}"; valid: auto, ${importFormats.join(', ')}`,
    );
  }
  const skipped: Skipped = {};
  let transcript: Transcript;
  try {
    transcript = importers[format](path, options, skipped);
  } catch (err) {
    if (err instanceof ImportError) throw err;
    // A shape no check anticipated: still name the file, keep the original error as the cause.
    throw new ImportError(path, undefined, `cannot import as ${format}: ${(err as Error).message}`, {
      cause: err,
    });
  }
  const stats = importStats(format, transcript, skipped);
  if (stats.messages === 0) throw noMessages(path, format, options.from, skipped);
  return { transcript, stats };
}

/**
 * A file that yields no message is never a transcript (it would score every arm the same): with
 * --from, say which format it looks like; otherwise what was in it.
 */
function noMessages(
  path: string,
  format: ImportFormat,
  from: ImportOptions['from'],
  skipped: Skipped,
): ImportError {
  let looksLike: ImportFormat | undefined;
  if (from !== undefined && from !== 'auto') {
    try {
      looksLike = detectFormat(path);
    } catch {
      looksLike = undefined;
    }
  }
  const kinds = Object.keys(skipped);
  const hint =
    looksLike !== undefined && looksLike !== format
      ? `; it looks like ${looksLike}: try --from ${looksLike}`
      : kinds.length > 0
        ? `; all it held was skipped (${kinds.join(', ')})`
        : '';
  return new ImportError(path, undefined, `no messages when read as ${format}${hint}`);
}

export function importStats(format: ImportFormat, root: Transcript, skipped: Skipped): ImportStats {
  const all = walkTranscripts(root);
  const stats: ImportStats = {
    format,
    messages: 0,
    toolCalls: 0,
    pairedResults: 0,
    orphans: 0,
    children: all.length - 1,
    skipped,
  };
  for (const t of all) {
    const c = transcriptCounts(t.messages);
    stats.messages += c.messages;
    stats.toolCalls += c.toolCalls;
    stats.pairedResults += c.pairedResults;
    stats.orphans += c.orphanCalls + c.orphanResults;
  }
  return stats;
}

/** Which importer reads `path`: by shape, not by extension (a .json may hold any of three formats). */
export function detectFormat(path: string): ImportFormat {
  let isDir = false;
  try {
    isDir = statSync(path).isDirectory();
  } catch (err) {
    throw new ImportError(path, undefined, 'no such file or directory', { cause: err });
  }
  if (isDir) return 'claude-code';
  if (path.endsWith('.eval')) return 'inspect';
  const text = readSource(path);
  const first = firstValue(path, text);
  const format = formatOfValue(first.value, first.jsonl);
  if (!format) {
    throw new ImportError(
      path,
      1,
      `unrecognised transcript format; pass --from (${importFormats.join(', ')})`,
    );
  }
  return format;
}

/** The whole document when it is one JSON value, else the first line of JSON Lines. */
function firstValue(path: string, text: string): { value: unknown; jsonl: boolean } {
  try {
    return { value: JSON.parse(text), jsonl: false };
  } catch (docError) {
    const lines = text.split('\n');
    try {
      return { value: JSON.parse(lines.find((l) => l.trim() !== '') ?? ''), jsonl: true };
    } catch {
      // Not JSON Lines either: report the document's own error (a cut-off .json, most likely).
      const line = syntaxErrorLine(text) ?? lines.length;
      throw new ImportError(
        path,
        line,
        `invalid JSON (neither a JSON document nor JSON Lines): ${(docError as Error).message.slice(0, 120)}`,
      );
    }
  }
}

function formatOfValue(v: unknown, jsonl: boolean): ImportFormat | undefined {
  if (isRecord(v)) {
    if ('instance_id' in v && 'history' in v) return 'openhands';
    if (
      typeof v.type === 'string' &&
      ('sessionId' in v || 'uuid' in v || 'leafUuid' in v || 'parentUuid' in v || 'messageId' in v)
    )
      return 'claude-code';
    if (jsonl) return undefined;
    // SWE-agent writes {history, trajectory, info, …}; a trimmed .traj may hold only history, whose
    // entries are chat messages (OpenHands histories are events with action/observation instead).
    if (Array.isArray(v.history) && ('trajectory' in v || 'info' in v || v.history.some(hasRole)))
      return 'swe-agent';
    if (isRecord(v.eval) && ('samples' in v || 'version' in v)) return 'inspect';
    if (Array.isArray(v.traj)) return 'openai';
    if (Array.isArray(v.messages))
      return chatFlavour(v.messages, 'system' in v && !v.messages.some(isRecordWithRole('system')));
    return undefined;
  }
  if (Array.isArray(v) && !jsonl) return chatFlavour(v, false);
  return undefined;
}

const hasRole = (m: unknown): boolean => isRecord(m) && typeof m.role === 'string';
const isRecordWithRole = (role: string) => (m: unknown) => isRecord(m) && m.role === role;

/** OpenAI and Anthropic messages look alike until a tool call, a system role or a block type tells them apart. */
function chatFlavour(messages: unknown[], topLevelSystem: boolean): ImportFormat | undefined {
  if (messages.length > 0 && !messages.every((m) => isRecord(m) && typeof m.role === 'string'))
    return undefined;
  const anthropicBlocks = new Set([
    'tool_use',
    'tool_result',
    'thinking',
    'redacted_thinking',
    'image',
    'document',
  ]);
  for (const m of messages as Record<string, unknown>[]) {
    if (
      ['tool', 'system', 'developer', 'function'].includes(String(m.role)) ||
      'tool_calls' in m ||
      'tool_call_id' in m
    )
      return 'openai';
    if (
      Array.isArray(m.content) &&
      m.content.some((b: unknown) => isRecord(b) && anthropicBlocks.has(String(b.type)))
    )
      return 'anthropic';
  }
  return topLevelSystem ? 'anthropic' : 'openai';
}
