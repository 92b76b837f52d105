import { readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { ImportError } from '../core/errors.ts';
import { detectFormat } from './detect.ts';
import type { ImportFormat, ImportOptions, ImportResult, SessionRef } from './importer.ts';
import { importTranscript } from './import-transcript.ts';
import { inspectSessions } from './inspect.ts';
import { openaiSessions } from './openai.ts';
import { openhandsSessions } from './openhands.ts';
import { responsesSessions } from './responses.ts';
import { isRecord, readSource } from './source.ts';

/** One session found by `importAll`: imported, or the reason it could not be. */
export interface SessionImport {
  /** Instance id, sample id (and epoch), task id, session id — or the file name. */
  name: string;
  file: string;
  options: ImportOptions;
  result?: ImportResult;
  error?: ImportError;
}

/** Formats whose files can hold several sessions, and how to list them. */
const listers: Partial<Record<ImportFormat, (file: string) => SessionRef[]>> = {
  openhands: openhandsSessions,
  inspect: inspectSessions,
  responses: responsesSessions,
  openai: openaiSessions,
};

/**
 * Every session under `path`: each instance, sample or element of a file, and each session file of a
 * directory (walked to depth 6; SWE-agent trajectory folders, Claude Code project folders, inspect
 * log folders). Subagent files are their parents' children, not sessions of their own.
 */
export function listSessions(
  path: string,
  from: ImportFormat | 'auto' = 'auto',
): { file: string; refs: SessionRef[]; error?: ImportError }[] {
  return sessionFiles(path).map((file) => {
    try {
      const format = from === 'auto' ? detectFormat(file) : from;
      const refs = (listers[format]?.(file) ?? [{ name: undefined, options: {} }]).map((r) => ({
        name: r.name,
        options: { ...r.options, from: format },
      }));
      return { file, refs };
    } catch (err) {
      if (!(err instanceof ImportError)) throw err;
      return { file, refs: [], error: err };
    }
  });
}

/** Imports every session under `path`; a session that fails is an entry with its error, never the end of the batch. */
export function importAll(path: string, from: ImportFormat | 'auto' = 'auto'): SessionImport[] {
  const out: SessionImport[] = [];
  for (const { file, refs, error } of listSessions(path, from)) {
    if (error) {
      out.push({ name: stem(file), file, options: {}, error });
      continue;
    }
    for (const ref of refs) {
      try {
        const result = importTranscript(file, ref.options);
        out.push({
          name: ref.name ?? result.transcript.id ?? stem(file),
          file,
          options: ref.options,
          result,
        });
      } catch (err) {
        if (!(err instanceof ImportError)) throw err;
        out.push({ name: ref.name ?? stem(file), file, options: ref.options, error: err });
      }
    }
  }
  return out;
}

const candidate = /\.(jsonl|json|traj|eval)$/;

function sessionFiles(path: string): string[] {
  let isDir: boolean;
  try {
    isDir = statSync(path).isDirectory();
  } catch (err) {
    throw new ImportError(path, undefined, 'no such file or directory', { cause: err });
  }
  if (!isDir) return [path];
  const files: string[] = [];
  walk(path, 0, files);
  if (files.length === 0)
    throw new ImportError(path, undefined, 'no transcript files (*.jsonl, *.json, *.traj, *.eval) under it');
  return files.sort();
}

function walk(dir: string, depth: number, out: string[]): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) {
      // Claude Code v2.1 keeps subagents in <session>/subagents/; node_modules and dot folders hold no sessions.
      if (
        depth < 6 &&
        entry.name !== 'subagents' &&
        entry.name !== 'node_modules' &&
        !entry.name.startsWith('.')
      )
        walk(full, depth + 1, out);
    } else if (!entry.isFile()) {
      // A FIFO or socket named like a transcript: listed, so its import fails as one reported session.
      if (candidate.test(entry.name)) out.push(full);
    } else if (candidate.test(entry.name) && !isChildFile(full, entry.name)) out.push(full);
  }
}

/** Claude Code v2.0 `agent-<id>.jsonl`, `.meta.json` sidecars, Gemini CLI subagent records (`kind: "subagent"`). */
function isChildFile(full: string, name: string): boolean {
  if (/^agent-.+\.jsonl$/.test(name) || name.endsWith('.meta.json')) return true;
  if (!name.endsWith('.json') && !name.endsWith('.jsonl')) return false;
  const head = firstRecord(full);
  return isRecord(head) && typeof head.projectHash === 'string' && head.kind === 'subagent';
}

function firstRecord(file: string): unknown {
  const text = readSource(file);
  const line = text.slice(0, text.indexOf('\n') >= 0 ? text.indexOf('\n') : undefined);
  try {
    return JSON.parse(line);
  } catch {
    try {
      return JSON.parse(text);
    } catch {
      return undefined;
    }
  }
}

const stem = (file: string): string => basename(file).replace(/\.[^.]+$/, '');
