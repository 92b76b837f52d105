import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  detectFormat,
  importTranscript,
  type ImportOptions,
  type ImportStats,
} from '../../harness/importers/index.ts';
import {
  codexCounts,
  geminiCounts,
  inspectEvalCounts,
  openhandsResolverCounts,
  openhandsTrajectoryCounts,
  responsesArrayCounts,
  responsesJsonlCounts,
  type Counts,
} from './independent-counts.ts';
import { pairingProblems } from './invariants.ts';
import { shared, sharedLabel, sharedMissing } from './shared-transcripts.ts';

/** The files of the second batch (issue 19), each with its format. */
export const newFormatFiles: [string, string][] = [
  ['codex-rollout-desktop-0.128.0a1-019e1695.jsonl', 'codex'],
  ['gemini-cli-session-2025-12-01-5b959dae.json', 'gemini'],
  ['inspect-metr-oxdna-opus41-6epochs.eval', 'inspect'],
  ['openhands-trajectory-basic_gui_mode.json', 'openhands'],
  ['nemo-gym-responses-math_with_code-gpt41.jsonl', 'responses'],
  ['nemo-gym-responses-items-extract-line3.json', 'responses'],
];

/**
 * The OpenHands resolver's output.jsonl (the older flat history), copied in after the second batch:
 * a real run kept by OpenHands as a test fixture. In test/fixtures/transcripts only.
 */
export const resolverOutputFile = 'openhands-resolver-output-pr-viewer.jsonl';

function imported(
  file: string,
  options: ImportOptions = {},
  path = shared(file),
): { counts: Counts; stats: ImportStats } {
  const { transcript, stats } = importTranscript(path, options);
  expect(pairingProblems(transcript, stats)).toEqual([]);
  return {
    stats,
    counts: {
      messages: stats.messages,
      toolCalls: stats.toolCalls,
      results: stats.pairedResults,
      errors: stats.errors,
      agents: stats.agents,
    },
  };
}

const total = (cs: Counts[]): Counts =>
  cs.reduce((a, c) => ({
    messages: a.messages + c.messages,
    toolCalls: a.toolCalls + c.toolCalls,
    results: a.results + c.results,
    errors: a.errors + c.errors,
    agents: Math.max(a.agents, c.agents),
  }));

describe.skipIf(sharedMissing)(`${sharedLabel}: issue 19 formats against independent counts`, () => {
  it.each(newFormatFiles)('%s is detected as %s', (file, format) => {
    expect(detectFormat(shared(file))).toBe(format);
  });

  it('Codex rollout: counts equal the raw item counts; encrypted reasoning skipped and counted', () => {
    const file = newFormatFiles[0]![0];
    const { counts, stats } = imported(file);
    expect(counts).toEqual(codexCounts(shared(file)));
    // README: 38 function_call, all paired; 16 encrypted reasoning items; 3 user turns (event_msg only).
    expect(counts).toMatchObject({ toolCalls: 38, results: 38 });
    expect(stats.skipped).toMatchObject({ reasoning_encrypted: 16, session_meta: 1 });
  });

  it('Gemini CLI session: tool calls with embedded results', () => {
    const file = newFormatFiles[1]![0];
    const { counts, stats } = imported(file);
    expect(counts).toEqual(geminiCounts(shared(file)));
    expect(counts).toMatchObject({ toolCalls: 10, results: 10 });
    expect(stats.skipped).toMatchObject({ thinking: 18 });
  });

  it('inspect .eval: every sample (6 epochs) read from the zip, in (epoch, id) order', () => {
    const file = newFormatFiles[2]![0];
    const expected = inspectEvalCounts(shared(file));
    expect(expected.map((e) => e.name)).toEqual(
      [1, 2, 3, 4, 5, 6].map((n) => `samples/default_epoch_${n}.json`),
    );
    const got = expected.map((_, i) => imported(file, { sample: i }).counts);
    expect(got).toEqual(expected.map((e) => e.counts));
    // README: 70 bash calls over the 6 epochs, 70 tool messages.
    expect(total(got)).toMatchObject({ toolCalls: 70, results: 70 });
  });

  it('OpenHands trajectory (a JSON list of events)', () => {
    const file = newFormatFiles[3]![0];
    const { counts } = imported(file);
    expect(counts).toEqual(openhandsTrajectoryCounts(shared(file)));
    expect(counts).toMatchObject({ toolCalls: 4, results: 4 });
  });

  it('Responses API items: NeMo Gym rollouts (one session a line) and a bare item array', () => {
    const [jsonl, array] = [newFormatFiles[4]![0], newFormatFiles[5]![0]];
    const perLine = [0, 1, 2, 3, 4].map((i) => imported(jsonl, { instance: i }).counts);
    expect(total(perLine)).toEqual(responsesJsonlCounts(shared(jsonl)));
    // README: 31 calls, all paired (1, 0, 4, 8, 18 per line).
    expect(perLine.map((c) => c.toolCalls)).toEqual([1, 0, 4, 8, 18]);
    expect(imported(array).counts).toEqual(responsesArrayCounts(shared(array)));
    expect(imported(array).counts).toEqual(perLine[3]);
  });
});

describe('OpenHands resolver output.jsonl (legacy flat history): a real file against independent counts', () => {
  const path = fileURLToPath(new URL(`../fixtures/transcripts/${resolverOutputFile}`, import.meta.url));
  it('is detected as openhands, and every line imports with the counts read from its history', () => {
    expect(detectFormat(path)).toBe('openhands');
    const expected = openhandsResolverCounts(path);
    expect(expected).toHaveLength(2);
    const got = expected.map((_, i) => imported(resolverOutputFile, { instance: i }, path).counts);
    expect(got).toEqual(expected);
    // README: 3 and 21 tool actions with their observations, plus `finish` (a call nothing answers).
    expect(got.map((c) => [c.toolCalls, c.results])).toEqual([
      [4, 3],
      [22, 21],
    ]);
    expect(importTranscript(path, { instance: 0 }).transcript.id).toBe('neubig__pr-viewer-5');
  });
});
