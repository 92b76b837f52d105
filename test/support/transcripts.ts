import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The real agent transcripts used as test inputs: the in-repo copies in test/fixtures/transcripts
 * (byte-for-byte, licenses in LICENSES.md there), or $HANDOFF_SHARED_DIR (the shared folder, or its
 * transcripts/ subfolder) to test against another copy.
 */
function locate(): string {
  const env = process.env.HANDOFF_SHARED_DIR;
  if (env) return existsSync(join(env, 'transcripts')) ? join(env, 'transcripts') : env;
  return fileURLToPath(new URL('../fixtures/transcripts/', import.meta.url));
}

export const transcriptsDir = locate();
export const transcriptsMissing = !existsSync(join(transcriptsDir, 'README.md'));
export const transcriptPath = (name: string): string => join(transcriptsDir, name);
