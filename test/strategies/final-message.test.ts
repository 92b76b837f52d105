import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Transcript } from '../../harness/core/index.ts';
import { pairingCheck } from '../../judges/checks.ts';
import { renderMessage } from '../../strategies/render.ts';
import { transcriptArb } from './generate.ts';
import { caseOf, prepare } from './helpers.ts';

const child = (texts: (string | undefined)[], tail?: 'call'): Transcript => ({
  agents: { child: { role: 'child' } },
  messages: [
    { role: 'user', agent: 'parent', text: 'Research the retirement.' },
    ...texts.flatMap((text, i) => [
      {
        role: 'assistant' as const,
        agent: 'child',
        ...(text ? { text } : {}),
        toolCalls: [{ id: `c${i}`, name: 'read_file', input: { path: `f${i}` } }],
      },
      { role: 'user' as const, toolResults: [{ callId: `c${i}`, content: `result ${i}: SECRET-${i}` }] },
    ]),
    ...(tail === 'call'
      ? []
      : [{ role: 'assistant' as const, agent: 'child', text: 'FINAL: 19 merchants.' }]),
  ],
});

const parent: Transcript = {
  agents: { main: { role: 'parent' } },
  messages: [
    { role: 'user', text: 'Which merchants break?' },
    { role: 'assistant', agent: 'main', toolCalls: [{ id: 'spawn1', name: 'Task', input: { prompt: 'x' } }] },
  ],
};

describe('final-message', () => {
  it("returns the child's last assistant message as the spawn call's result, and nothing of its research", async () => {
    const h = await prepare(
      'final-message',
      caseOf(child(['MID-NOTE one', 'MID-NOTE two']), { direction: 'return', receiverHistory: parent }),
    );
    expect(h.payload).toBe('FINAL: 19 merchants.');
    const last = h.messages[h.messages.length - 1]!;
    expect(last.toolResults).toEqual([{ callId: 'spawn1', content: 'FINAL: 19 merchants.' }]);
    const seen = [h.system, ...h.messages.map(renderMessage)].join('\n');
    expect(seen).not.toContain('MID-NOTE');
    expect(seen).not.toContain('SECRET-');
    expect(h.stats.toolCallsVisible).toBe(0);
    expect(pairingCheck(h.messages).passed).toBe(true);
  });

  it('a session that ended on a bare tool call returns the last text before it; one without text says so', async () => {
    const endedOnCall = await prepare('final-message', caseOf(child(['first', 'second'], 'call')));
    expect(endedOnCall.payload).toBe('second');
    const silent = await prepare('final-message', caseOf(child([undefined], 'call')));
    expect(silent.payload).toMatch(/ended without a text message/);
  });

  it('several children: every last message, each under its heading, in one result', async () => {
    const a = { ...child(['a-mid']), id: 'a' };
    const b = { ...child(['b-mid']), id: 'b' };
    b.messages = [...b.messages.slice(0, -1), { role: 'assistant', agent: 'child', text: 'FINAL B' }];
    const h = await prepare(
      'final-message',
      caseOf(a, { direction: 'return', sources: [a, b], receiverHistory: parent }),
    );
    expect(h.payload).toBe(
      '=== child 1 of 2: a ===\nFINAL: 19 merchants.\n\n=== child 2 of 2: b ===\nFINAL B',
    );
    expect(h.payload).not.toContain('mid');
  });

  it('on any session the payload is exactly the last assistant text, and it is all the receiver sees of the source', async () => {
    await fc.assert(
      fc.asyncProperty(transcriptArb({ maxTurns: 8 }), async (t) => {
        const h = await prepare('final-message', caseOf(t));
        const last = [...t.messages].reverse().find((m) => m.role === 'assistant' && m.text?.trim());
        if (last) expect(h.payload).toBe(last.text);
        expect(h.messages).toHaveLength(1);
        expect(h.messages[0]!.text).toContain(h.payload);
      }),
      { numRuns: 30 },
    );
  });
});

describe('final-message with several children spawned by their own calls (issue 28 item 6)', () => {
  it('one result per Task call, each with its child’s final message and the Task trailer', async () => {
    const a = { ...child(['a-mid']), id: 'agent-a' };
    const b = { ...child(['b-mid']), id: 'agent-b' };
    b.messages = [...b.messages.slice(0, -1), { role: 'assistant', agent: 'child', text: 'FINAL B' }];
    const twoCalls: Transcript = {
      ...parent,
      messages: [
        parent.messages[0]!,
        {
          role: 'assistant',
          agent: 'main',
          toolCalls: [
            { id: 's1', name: 'Task', input: { prompt: 'a' } },
            { id: 's2', name: 'Task', input: { prompt: 'b' } },
          ],
        },
      ],
    };
    const h = await prepare(
      'final-message',
      caseOf(a, { direction: 'return', sources: [a, b], receiverHistory: twoCalls }),
    );
    const last = h.messages[h.messages.length - 1]!;
    expect(last.toolResults).toEqual([
      { callId: 's1', content: 'FINAL: 19 merchants.\n\nagentId: agent-a\n<usage>tool_uses: 1</usage>' },
      { callId: 's2', content: 'FINAL B\n\nagentId: agent-b\n<usage>tool_uses: 1</usage>' },
    ]);
    expect(pairingCheck(h.messages).passed).toBe(true);
    expect(h.payload).not.toContain('mid');
  });
});
