import { describe, expect, it } from 'vitest';
import type { ChatMessage, Transcript } from '../../../harness/core/index.ts';
import { caseOf, prepare } from '../helpers.ts';
import { maskObservations } from '../../../strategies/frameworks/observation-masking.ts';

// Lindenbauer et al. 2025 (arXiv 2508.21433): reasoning and actions stay, all but the last M
// observations become a placeholder.

function trajectory(steps: number): Transcript {
  const messages: Transcript['messages'][number][] = [{ role: 'user', text: 'Fix the failing test.' }];
  for (let i = 1; i <= steps; i++) {
    messages.push({
      role: 'assistant',
      agent: 'swe',
      text: `Thought ${i}`,
      toolCalls: [{ id: `c${i}`, name: 'bash', input: { cmd: `step ${i}` } }],
    });
    messages.push({
      role: 'user',
      toolResults: [{ callId: `c${i}`, content: `line a of ${i}\nline b of ${i}\nline c of ${i}` }],
    });
  }
  messages.push({ role: 'assistant', agent: 'swe', text: 'Done.' });
  return { messages, agents: { swe: { role: 'primary' } } };
}

const results = (ms: readonly ChatMessage[]) => ms.flatMap((m) => m.toolResults ?? []).map((r) => r.content);

describe('observation-masking', () => {
  it('keeps every thought and call, masks all but the newest 10 observations with their line counts (the default M)', async () => {
    const t = trajectory(14);
    const h = await prepare('observation-masking', caseOf(t));
    const shown = results(h.messages);
    expect(shown).toHaveLength(14);
    expect(shown.slice(0, 4)).toEqual(Array(4).fill('Old environment output: (3 lines omitted)'));
    expect(shown.slice(4)).toEqual(results(t.messages).slice(4));
    const texts = h.messages.filter((m) => m.role === 'assistant').map((m) => m.text);
    expect(texts).toEqual(t.messages.filter((m) => m.role === 'assistant').map((m) => m.text));
    expect(h.messages.flatMap((m) => m.toolCalls ?? [])).toHaveLength(14);
    expect(h.stats.markers).toHaveLength(4);
    expect(h.stats.markers[0]).toMatchObject({ kind: 'observation', dropped: 3 });
  });

  it('M is a param: window=0 masks every observation, a window larger than the trajectory masks none', async () => {
    const t = trajectory(3);
    expect(results((await prepare('observation-masking', caseOf(t), { window: 0 })).messages)).toEqual(
      Array(3).fill('Old environment output: (3 lines omitted)'),
    );
    expect(results((await prepare('observation-masking', caseOf(t), { window: 50 })).messages)).toEqual(
      results(t.messages),
    );
  });

  it('counts observations, not messages: parallel results in one message are masked one by one', () => {
    const ms: ChatMessage[] = [
      {
        role: 'assistant',
        toolCalls: [
          { id: 'a', name: 't', input: {} },
          { id: 'b', name: 't', input: {} },
        ],
      },
      {
        role: 'user',
        toolResults: [
          { callId: 'a', content: 'A' },
          { callId: 'b', content: 'B' },
        ],
      },
    ];
    expect(results(maskObservations(ms, 1).messages)).toEqual([
      'Old environment output: (1 lines omitted)',
      'B',
    ]);
  });
});
