import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readdirSync } from 'node:fs';
import type { ChatMessage, Transcript } from '../../harness/core/index.ts';
import { importTranscript } from '../../harness/importers/index.ts';
import { replayable } from '../../strategies/compose.ts';
import { transcriptArb } from './generate.ts';
import { adjacencyProblems } from '../support/adjacency.ts';
import { caseOf, prepare } from './helpers.ts';
import { transcriptPath, transcriptsDir, transcriptsMissing } from '../support/transcripts.ts';

/** Every strategy configuration that hands the source over as messages without a model call. */
const asMessages: [string, Record<string, unknown>][] = [
  ['inline', {}],
  ['inline', { replay: 'planned' }],
  ['full-transcript', { as: 'messages' }],
  ['parity-narration', { framing: 'owner' }],
  ['parity-narration', {}],
];

async function problemsOf(t: Transcript): Promise<string[]> {
  const out: string[] = [];
  for (const [name, params] of asMessages) {
    const h = await prepare(name, caseOf(t), params, { budgetTokens: 1e9 });
    for (const p of adjacencyProblems(h.messages)) out.push(`${name} ${JSON.stringify(params)}: ${p}`);
  }
  return out;
}

describe('a replayed call is never split from its result', () => {
  it('an unanswered call sharing a message with answered ones is narrated after their results', () => {
    const t: Transcript = {
      agents: {},
      messages: [
        { role: 'user', text: 'go' },
        {
          role: 'assistant',
          toolCalls: [
            { id: 'a', name: 'web_search', input: { q: 'x' } },
            { id: 'b', name: 'exec', input: { cmd: 'ls' } },
          ],
        },
        { role: 'user', toolResults: [{ callId: 'b', content: 'files' }] },
        { role: 'assistant', text: 'done' },
      ],
    };
    const out = replayable(t.messages);
    expect(adjacencyProblems(out)).toEqual([]);
    expect(out.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'system', 'assistant']);
    expect(out[3]!.text).toContain('web_search');
  });

  it('holds over generated sessions (orphan calls mixed with answered ones)', async () => {
    await fc.assert(
      fc.asyncProperty(transcriptArb({ maxTurns: 8, receiverSteps: true }), async (t) => {
        expect(await problemsOf(t)).toEqual([]);
      }),
      { numRuns: 60, seed: 20_261_203 },
    );
  });

  const files = transcriptsMissing
    ? []
    : readdirSync(transcriptsDir).filter((f) => !/\.md$/.test(f) && !f.startsWith('.'));
  it.skipIf(transcriptsMissing).each(files)('holds on the real transcript %s and its children', async (f) => {
    const root = importTranscript(transcriptPath(f)).transcript;
    const all = [root, ...Object.values(root.children ?? {})];
    for (const t of all) expect(await problemsOf(t)).toEqual([]);
  });
});
