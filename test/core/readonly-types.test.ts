import { describe, expect, it } from 'vitest';
import type { Case, Draft, Handoff, Message, Transcript } from '../../harness/core/index.ts';

// Type-level: `tsc --noEmit` checks this file (test/ is in tsconfig's include). Each @ts-expect-error
// line must fail to compile — if a field of Transcript, Case or Handoff lost its `readonly`, the
// directive would be unused and tsc would fail. The identity-keyed caches (viewOf, the runner's handoff
// memo, the kit's source memo) rely on these values never changing once built.

function mutations(t: Transcript, c: Case, h: Handoff): void {
  // @ts-expect-error — a transcript's message list is readonly
  t.messages.push({ role: 'user', text: 'x' });
  // @ts-expect-error — and so is each message
  t.messages[0]!.text = 'x';
  // @ts-expect-error — and each tool result
  t.messages[0]!.toolResults![0]!.content = 'x';
  // @ts-expect-error — and each tool call list
  t.messages[0]!.toolCalls!.sort();
  // @ts-expect-error — the agents map
  t.agents.main = { role: 'primary' };
  // @ts-expect-error — a case's source
  c.source = t;
  // @ts-expect-error — its labels
  c.assertions.push(c.assertions[0]!);
  // @ts-expect-error — its reference
  c.reference.facts[0]!.cues.push('x');
  // @ts-expect-error — a handoff's messages
  h.messages.push({ role: 'user', text: 'x' });
  // @ts-expect-error — its stats
  h.stats.tokens = 0;
  // @ts-expect-error — its markers
  h.stats.markers.push({ text: 'x', kind: 'result', dropped: 1 });
}

describe('Transcript, Case and Handoff are readonly; builders fill a Draft', () => {
  it('a Draft is writable while it is built and is then the readonly type', () => {
    const m: Draft<Message> = { role: 'assistant' };
    m.text = 'built';
    const t: Transcript = { messages: [m], agents: { main: { role: 'primary' } } };
    expect(t.messages[0]!.text).toBe('built');
    expect(typeof mutations).toBe('function');
  });
});
