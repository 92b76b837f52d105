import { existsSync, mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where the real transcripts live: $HANDOFF_SHARED_DIR (the shared folder, or its transcripts/
 * subfolder), else ../shared next to the repo. CI clones the repo elsewhere, so the suites that
 * need them skip — and say why — when the folder is absent.
 */
function locate(): string {
  const env = process.env.HANDOFF_SHARED_DIR;
  if (env) return existsSync(join(env, 'transcripts')) ? join(env, 'transcripts') : env;
  return fileURLToPath(new URL('../../../shared/transcripts/', import.meta.url));
}

export const transcriptsDir = locate();
export const sharedMissing = !existsSync(join(transcriptsDir, 'README.md'));
export const sharedLabel = sharedMissing
  ? `real transcripts — SKIPPED: ${transcriptsDir} not found (set HANDOFF_SHARED_DIR to the shared folder)`
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
