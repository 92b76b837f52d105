import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ImportError } from '../../harness/core/errors.ts';
import { importTranscript, type ImportFormat } from '../../harness/importers/index.ts';
import { shared, sharedLabel, sharedMissing, tempFiles } from './shared-transcripts.ts';

const files: [string, ImportFormat][] = [
  ['claude-code-v2-jssoundrecorder-parallel.jsonl', 'claude-code'],
  ['sweagent-text-pydicom-1458.traj', 'swe-agent'],
  ['taubench-gpt4o-airline-task9.json', 'openai'],
  ['openhands-multiswe-ponyc.jsonl', 'openhands'],
  ['inspect-browser-gpt4omini.json', 'inspect'],
  ['codex-rollout-desktop-0.128.0a1-019e1695.jsonl', 'codex'],
  ['gemini-cli-session-2025-12-01-5b959dae.json', 'gemini'],
  ['nemo-gym-responses-math_with_code-gpt41.jsonl', 'responses'],
  ['openhands-trajectory-basic_gui_mode.json', 'openhands'],
];

describe.skipIf(sharedMissing)(`${sharedLabel}: cut anywhere`, () => {
  // A file cut at any byte either still imports (a JSONL cut after a line end, or mid last line)
  // or fails with an ImportError naming the file — never another exception.
  it.each(files)('%s', (name, from) => {
    const text = readFileSync(shared(name), 'utf8');
    for (let k = 1; k <= 12; k++) {
      const cut = Math.floor((text.length * k) / 13);
      const file = join(tempFiles({ [name]: text.slice(0, cut) }), name);
      try {
        const { stats } = importTranscript(file, { from });
        if (from === 'claude-code') expect(stats.messages).toBeGreaterThan(0);
      } catch (err) {
        expect(err, `cut at ${cut}`).toBeInstanceOf(ImportError);
        expect((err as ImportError).file).toBe(file);
        // Not the catch-all for unanticipated shapes: every cut is recognised as bad input.
        expect((err as ImportError).message).not.toMatch(/cannot import as/);
        expect((err as ImportError).line).toBeTypeOf('number');
      }
    }
  });

  // A zip has no lines: a cut .eval fails as an ImportError naming the file (no line), never another exception.
  it('inspect-metr-oxdna-opus41-6epochs.eval cut anywhere (bytes)', () => {
    const bytes = readFileSync(shared('inspect-metr-oxdna-opus41-6epochs.eval'));
    for (let k = 1; k <= 12; k++) {
      const cut = Math.floor((bytes.length * k) / 13);
      const file = join(tempFiles({}), 'log.eval');
      writeFileSync(file, bytes.subarray(0, cut));
      expect(() => importTranscript(file), `cut at ${cut}`).toThrow(ImportError);
      try {
        importTranscript(file);
      } catch (err) {
        expect((err as ImportError).file).toBe(file);
        expect((err as ImportError).message).not.toMatch(/cannot import as/);
      }
    }
  });
});
