import { ImportError } from '../core/errors.ts';
import type { Transcript } from '../core/index.ts';
import { importAnthropic } from './anthropic.ts';
import { transcriptCounts, walkTranscripts, type Skipped } from './builder.ts';
import { importClaudeCode } from './claude-code.ts';
import { importCodex } from './codex.ts';
import { checkNesting } from './depth.ts';
import { detectFormat } from './detect.ts';
import { importGemini } from './gemini.ts';
import {
  importFormats,
  type FormatImporter,
  type ImportFormat,
  type ImportOptions,
  type ImportResult,
  type ImportStats,
} from './importer.ts';
import { importInspect } from './inspect.ts';
import { importOpenAI } from './openai.ts';
import { importOpenHands } from './openhands.ts';
import { importResponses } from './responses.ts';
import { importSweAgent } from './swe-agent.ts';

/** One importer per log format; importTranscript picks one by detection or --from. */
export const importers = {
  'claude-code': importClaudeCode,
  openai: importOpenAI,
  anthropic: importAnthropic,
  'swe-agent': importSweAgent,
  openhands: importOpenHands,
  inspect: importInspect,
  codex: importCodex,
  responses: importResponses,
  gemini: importGemini,
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
    if (err instanceof ImportError) throw withFormatHint(err, path, format, options.from);
    // A shape no check anticipated: still name the file, keep the original error as the cause.
    const detail = err instanceof RangeError ? 'a value nested too deep to read' : (err as Error).message;
    throw new ImportError(path, undefined, `cannot import as ${format}: ${detail}`, {
      cause: err,
    });
  }
  // A value nested thousands deep imports fine but overflows the stack wherever it is printed later.
  checkNesting(path, transcript);
  const stats = importStats(format, transcript, skipped);
  if (stats.messages === 0) throw noMessages(path, format, options.from, skipped);
  return { transcript, stats };
}

/** With an explicit --from that failed, say which format the file does look like (when it looks like one). */
function withFormatHint(
  err: ImportError,
  path: string,
  format: ImportFormat,
  from: ImportOptions['from'],
): ImportError {
  const looksLike = from === undefined || from === 'auto' ? undefined : lookalike(path);
  if (looksLike === undefined || looksLike === format) return err;
  const prefix = `${err.file}${err.line !== undefined ? `:${err.line}` : ''}: `;
  const detail = err.message.startsWith(prefix) ? err.message.slice(prefix.length) : err.message;
  return new ImportError(
    err.file,
    err.line,
    `${detail}; it looks like ${looksLike}: try --from ${looksLike}`,
    {
      cause: err,
    },
  );
}

function lookalike(path: string): ImportFormat | undefined {
  try {
    return detectFormat(path);
  } catch {
    return undefined;
  }
}

/**
 * A file that yields no message is never a transcript (it would score every arm the same): with
 * --from, say which format it looks like; otherwise what was in it and, as for a format we do not
 * read, the formats we do.
 */
function noMessages(
  path: string,
  format: ImportFormat,
  from: ImportOptions['from'],
  skipped: Skipped,
): ImportError {
  const looksLike = from !== undefined && from !== 'auto' ? lookalike(path) : undefined;
  const kinds = Object.keys(skipped);
  const hint =
    looksLike !== undefined && looksLike !== format
      ? `; it looks like ${looksLike}: try --from ${looksLike}`
      : `${kinds.length > 0 ? `; all it held was skipped (${kinds.join(', ')})` : ''}; the formats read are ${importFormats.join(', ')} (pass --from to choose one)`;
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
    errors: 0,
    children: all.length - 1,
    agents: new Set(all.flatMap((t) => Object.keys(t.agents))).size,
    skipped,
  };
  for (const t of all) {
    for (const m of t.messages) stats.errors += (m.toolResults ?? []).filter((r) => r.isError).length;
    const c = transcriptCounts(t.messages);
    stats.messages += c.messages;
    stats.toolCalls += c.toolCalls;
    stats.pairedResults += c.pairedResults;
    stats.orphans += c.orphanCalls + c.orphanResults;
  }
  return stats;
}
