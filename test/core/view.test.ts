import { describe, expect, it } from 'vitest';
import { computeView } from '../../harness/core/transcript/view.ts';
import type { Message } from '../../harness/core/index.ts';

const call = (id: string, name = 'bash') => ({ id, name, input: { cmd: id } });
const result = (callId: string, content = `out ${callId}`) => ({ callId, content });

describe('transcript views', () => {
  const messages: Message[] = [
    { role: 'user', text: 'fix the bug' },
    { role: 'assistant', agent: 'primary', text: 'looking', toolCalls: [call('a'), call('b')] },
    { role: 'user', toolResults: [result('b')] },
    { role: 'assistant', agent: 'primary', text: 'still running' },
    { role: 'user', toolResults: [result('a')] },
    { role: 'assistant', agent: 'primary', toolCalls: [call('c')] },
    { role: 'user', toolResults: [result('c')] },
    { role: 'assistant', agent: 'primary', text: 'done' },
    { role: 'user', text: 'thanks, now add a test' },
    { role: 'assistant', agent: 'primary', toolCalls: [call('d')] },
  ];
  const view = computeView(messages);

  it('opens a turn at each user message that carries text', () => {
    expect(view.turns.map((t) => [t.start, t.end])).toEqual([
      [0, 8],
      [8, 10],
    ]);
    expect(view.turns[1]!.userText).toBe('thanks, now add a test');
  });

  it("collects a turn's tool activity as its trail, with results paired out of order", () => {
    expect(view.turns[0]!.trail.map((x) => [x.call.id, x.result?.content])).toEqual([
      ['a', 'out a'],
      ['b', 'out b'],
      ['c', 'out c'],
    ]);
    expect(view.turns[1]!.trail[0]!.result).toBeUndefined();
  });

  it('never splits a call from its result: the segment spans to the last result', () => {
    expect(view.segments.map((s) => [s.start, s.end])).toEqual([
      [0, 1],
      [1, 5],
      [5, 7],
      [7, 8],
      [8, 9],
      [9, 10],
    ]);
  });

  it('counts calls without any result as orphans', () => {
    expect(view.orphans.map((c) => c.id)).toEqual(['d']);
  });
});
