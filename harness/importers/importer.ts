import type { Transcript } from '../core/index.ts';
import type { Skipped } from './builder.ts';

import type { ImportFormat } from '../core/import-formats.ts';
export { importFormats, type ImportFormat } from '../core/import-formats.ts';

export interface ImportOptions {
  /** Format of the file; `auto` (default) detects it. */
  from?: ImportFormat | 'auto';
  /**
   * Which session of a file that holds several: an OpenHands EvalOutput line (instance_id or 0-based
   * index), a Responses JSONL record, an element of a τ-bench array (task id or index). Default: the first.
   */
  instance?: string | number;
  /** inspect_ai: which sample to import (0-based). Default 0. */
  sample?: number;
}

/**
 * What an import produced, over the whole tree (the parent and every child transcript):
 * `orphans` = tool calls without a result + results without a call; `skipped` = what was dropped
 * or folded, by kind (see docs/importers.md for every kind).
 */
export interface ImportStats {
  format: ImportFormat;
  messages: number;
  toolCalls: number;
  pairedResults: number;
  orphans: number;
  /** Results flagged as errors (by the format's own error field, never inferred from text). */
  errors: number;
  children: number;
  /** Distinct agents over the tree (the session's own agent plus every child's). */
  agents: number;
  skipped: Skipped;
}

export interface ImportResult {
  transcript: Transcript;
  stats: ImportStats;
}

/** One format's entry point; it adds what it drops to `skipped`. */
export type FormatImporter = (file: string, options: ImportOptions, skipped: Skipped) => Transcript;

/** One session of a file that holds several: what to pass to importTranscript to get it. */
export interface SessionRef {
  /** A name for the session (instance id, sample id and epoch, task id); undefined: from the file. */
  name: string | undefined;
  options: ImportOptions;
}
