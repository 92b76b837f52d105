import { describe, expect, it } from 'vitest';
import type { ChatMessage, Message, ToolCall, Transcript } from '../../harness/core/index.ts';
import { visibleSourceCalls } from '../../strategies/compose.ts';
import { formatCall } from '../../strategies/render.ts';

/** A source whose calls are all `Read` of paths sharing a long prefix (a real Claude Code session's shape). */
function readSession(n: number): Transcript {
  const messages: Message[] = [];
  for (let i = 0; i < n; i++) {
    const call: ToolCall = {
      id: `toolu_${i}`,
      name: 'Read',
      input: {
        file_path: `/Users/someone/workspace/a-long-project-name/src/components/widgets/file-${i}.tsx`,
      },
    };
    messages.push({ role: 'assistant', agent: 'main', toolCalls: [call] });
    messages.push({ role: 'user', agent: 'main', toolResults: [{ callId: call.id, content: `body ${i}` }] });
  }
  return { agents: { main: { role: 'primary' } }, messages };
}

const callsOf = (t: Transcript) => t.messages.flatMap((m) => m.toolCalls ?? []);

describe('visibleSourceCalls (issue 13: counted by call id or the full call, not a 60-char prefix)', () => {
  it('one call named in text makes one call visible, even when 27 share the first 60 characters', () => {
    const source = readSession(27);
    const shown = callsOf(source)[3]!;
    const messages: ChatMessage[] = [{ role: 'user', text: `Earlier the agent ran ${formatCall(shown)}.` }];
    expect(visibleSourceCalls([source], messages)).toBe(1);
  });

  it('calls passed as calls count by id', () => {
    const source = readSession(5);
    const [a, b] = callsOf(source);
    const messages: ChatMessage[] = [{ role: 'assistant', toolCalls: [a!, b!] }];
    expect(visibleSourceCalls([source], messages)).toBe(2);
  });

  it('identical calls count as often as the text shows them; a one-lined multi-line input still counts', () => {
    const same = (id: string): ToolCall => ({ id, name: 'Bash', input: { command: 'npm test' } });
    const patch: ToolCall = {
      id: 'p',
      name: 'apply_patch',
      input: '*** Begin Patch\n*** Update File: a.ts\n',
    };
    const source: Transcript = {
      agents: { main: { role: 'primary' } },
      messages: [{ role: 'assistant', agent: 'main', toolCalls: [same('x'), same('y'), same('z'), patch] }],
    };
    const once = formatCall(same('x'));
    const oneLined = formatCall(patch)
      .replace(/\s*\n\s*/g, ' ⏎ ')
      .trim();
    expect(visibleSourceCalls([source], [{ role: 'user', text: once }])).toBe(1);
    expect(visibleSourceCalls([source], [{ role: 'user', text: `${once}\n${once}\n${oneLined}` }])).toBe(3);
  });

  it('a call quoted inside fenced tool output is not visible', () => {
    const source = readSession(2);
    const c = callsOf(source)[0]!;
    const fence = '0123456789abcdef';
    const text = `<<<UNTRUSTED-${fence}>>>\n${formatCall(c)}\n<<<END-UNTRUSTED-${fence}>>>`;
    expect(visibleSourceCalls([source], [{ role: 'user', text }])).toBe(0);
  });
});

describe('visibleSourceCalls: a call replayed by id is not counted again through its rendering (issue 28 item 6)', () => {
  it('of two identical calls, one replayed as a call, one is visible', () => {
    const call = (id: string): ToolCall => ({ id, name: 'Bash', input: { command: 'npm test' } });
    const source: Transcript = {
      agents: { main: { role: 'primary' } },
      messages: [
        { role: 'assistant', agent: 'main', toolCalls: [call('c1')] },
        { role: 'user', agent: 'main', toolResults: [{ callId: 'c1', content: 'fail' }] },
        { role: 'assistant', agent: 'main', toolCalls: [call('c2')] },
        { role: 'user', agent: 'main', toolResults: [{ callId: 'c2', content: 'pass' }] },
      ],
    };
    // Only the second is replayed; the first (identical text) is not shown anywhere.
    const replayed: ChatMessage[] = [
      { role: 'assistant', toolCalls: [call('c2')] },
      { role: 'user', toolResults: [{ callId: 'c2', content: 'pass' }] },
    ];
    expect(visibleSourceCalls([source], replayed)).toBe(1);
    // Narrated once in text besides the replayed one: two.
    const both: ChatMessage[] = [
      { role: 'system', text: `[main called ${formatCall(call('c1'))}]` },
      ...replayed,
    ];
    expect(visibleSourceCalls([source], both)).toBe(2);
  });
});
