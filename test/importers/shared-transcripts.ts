import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { transcriptsDir as located, transcriptsMissing } from '../support/transcripts.ts';

/** Where the real transcripts live (test/support/transcripts.ts: the in-repo copies, or $HANDOFF_SHARED_DIR). */
export const transcriptsDir = located;
export const sharedMissing = transcriptsMissing;
export const sharedLabel = sharedMissing
  ? `real transcripts — SKIPPED: ${transcriptsDir} not found`
  : `real transcripts in ${transcriptsDir}`;

export const shared = (name: string): string => join(transcriptsDir, name);

/** A fresh temp directory with the given files (relative paths → contents). */
export function tempFiles(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'handoff-import-'));
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), content);
  }
  return dir;
}

export const jsonl = (...lines: unknown[]): string => `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
