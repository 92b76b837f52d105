import { describe, expect, it } from 'vitest';
import type { Assertion, ModelRequest, Transcript } from '../../harness/core/index.ts';
import { survival } from '../../judges/survival.ts';
import { createSimProvider } from '../../harness/providers/sim/index.ts';
import { defaultSimRates } from '../../harness/providers/sim/rates.ts';
import { caseOf, prepare } from '../strategies/helpers.ts';

/** A hedge only in a file the child read (a colleague's comment), never said by the child. */
const note: Assertion = {
  id: 'n',
  kind: 'hedged',
  statement: 'Unclear whether the sandbox adapter uses the same version pin as live traffic.',
  claim: 'the sandbox adapter uses the same version pin as live traffic',
  cues: ['sandbox adapter', 'version pin'],
  qualifierCues: ['unclear'],
  location: 'tool_result_only',
};
const child: Transcript = {
  agents: { child: { role: 'child' } },
  messages: [
    { role: 'user', agent: 'parent', text: 'Which merchants break?' },
    {
      role: 'assistant',
      agent: 'child',
      text: 'Reading the registry.',
      toolCalls: [{ id: 'r1', name: 'read_file', input: { path: 'adapters/index.ts' } }],
    },
    {
      role: 'user',
      toolResults: [
        {
          callId: 'r1',
          content: `import { Paylane } from './paylane';\n// ${note.statement}\nexport const adapters = {};`,
        },
      ],
    },
    { role: 'assistant', agent: 'child', text: 'Two merchants pin 2023-10 (m_1, m_2).' },
  ],
};

describe('claims that are only in a tool result', () => {
  it('the survival matcher finds them in every payload that shows the result, and only there', async () => {
    const c = caseOf(child, { assertions: [note], direction: 'return' });
    const mark = async (name: string, params: Record<string, unknown> = {}) =>
      survival([note], (await prepare(name, c, params)).payload, '')[0]!.payload;
    expect(await mark('inline')).toBe('kept');
    expect(await mark('full-transcript')).toBe('kept');
    expect(await mark('parity-narration')).toBe('kept');
    expect(await mark('brick-only', { trailActivity: true })).toBe('kept');
    expect(await mark('brick-only')).toBe('absent');
    expect(await mark('final-message')).toBe('absent');
  });

  it('the sim receiver reads them too: with the context effects off it states the note with its hedge', async () => {
    const r = defaultSimRates.large;
    // In the case's own words (paraphrase off): the answer is read here by the cue matcher.
    const sim = createSimProvider({
      paraphrase: false,
      sizes: {
        large: {
          contextPosition: { ...r.contextPosition, strength: 0 },
          contextLength: { ...r.contextLength, strength: 0 },
          answerKeepQualifier: 1,
        },
      },
    });
    const h = await prepare('inline', caseOf(child, { assertions: [note], direction: 'return' }));
    const req: ModelRequest = {
      purpose: 'answer',
      model: 'sim-large',
      seed: 's',
      maxTokens: 500,
      system: h.system,
      messages: [...h.messages, { role: 'user', text: 'Which merchants break?' }],
      sim: { caseId: 'c1', assertions: [note], reference: { facts: [], caveats: ['n'] } },
    };
    const answer = (await sim.generate(req)).text;
    expect(survival([note], '', answer)[0]!.answer).toBe('kept');
    const bare = (
      await sim.generate({ ...req, messages: [{ role: 'user', text: 'Which merchants break?' }] })
    ).text;
    expect(survival([note], '', bare)[0]!.answer).toBe('absent');
  });
});
