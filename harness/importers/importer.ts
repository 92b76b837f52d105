import type { Transcript } from '../types.ts';
import type { Skipped } from './builder.ts';

export const importFormats = [
  'claude-code',
  'openai',
  'anthropic',
  'swe-agent',
  'openhands',
  'inspect',
] as const;
export type ImportFormat = (typeof importFormats)[number];

export interface ImportOptions {
  /** Format of the file; `auto` (default) detects it. */
  from?: ImportFormat | 'auto';
  /** OpenHands: which EvalOutput line to import — an instance_id or a 0-based index. Default: the first. */
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
  children: number;
  skipped: Skipped;
}

export interface ImportResult {
  transcript: Transcript;
  stats: ImportStats;
}

/** One format's entry point; it adds what it drops to `skipped`. */
export type FormatImporter = (file: string, options: ImportOptions, skipped: Skipped) => Transcript;
