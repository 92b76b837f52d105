import { describe, expect, it } from 'vitest';
import type { Case } from '../../harness/core/index.ts';
import { getStrategy } from '../../strategies/index.ts';
import { resolveParams } from '../../strategies/define.ts';
import { framings } from '../../strategies/framing.ts';
import { buildBrick, legacyBrick, adr0093Brick } from '../../strategies/brick.ts';
import { call, caseOf, contextFor, prepare, scriptedProvider, session } from './helpers.ts';
import { validRecord } from './contract-fixtures.ts';

// Reference strategies on the small sessions a real run meets at the edges: a return into a parent
// that already holds the brief, a session that ends on plain text, several children, whitespace.

/** A child that was briefed, searched once and answered; its parent's window ends with the spawn call. */
function returnCase(): Case {
  const child = session([
    { role: 'user', text: 'BRIEF: find the pinned API version.' },
    { role: 'assistant', text: 'Searching.', toolCalls: [call('g1')] },
    { role: 'user', toolResults: [{ callId: 'g1', content: 'merchant_config.api_version = 2023-10' }] },
    { role: 'assistant', text: 'It is pinned to 2023-10.' },
  ]);
  const parent = session([
    { role: 'user', text: 'Plan the migration.' },
    {
      role: 'assistant',
      text: 'Delegating.',
      toolCalls: [{ id: 'spawn1', name: 'Task', input: { prompt: 'BRIEF: find the pinned API version.' } }],
    },
  ]);
  return caseOf(child, { direction: 'return', receiverHistory: parent });
}

describe('inline', () => {
  it("a return into the parent's history leaves out the brief the parent already sent", async () => {
    const h = await prepare('inline', returnCase());
    const texts = h.messages.map((m) => m.text ?? '');
    expect(texts.filter((t) => t.includes('BRIEF:'))).toEqual([]);
    expect(texts).toContain('It is pinned to 2023-10.');
    expect(h.payload).not.toContain('BRIEF:');
  });

  it('without a receiver history the brief is the first message', async () => {
    const c = returnCase();
    const h = await prepare('inline', { ...c, receiverHistory: undefined });
    expect(h.messages[0]!.text).toBe('BRIEF: find the pinned API version.');
  });
});

describe('langgraph-last-message', () => {
  it("hands over the worker's final text when its session ends on plain text", async () => {
    const h = await prepare('langgraph-last-message', returnCase());
    const texts = h.messages.map((m) => m.text ?? '');
    expect(texts).toContain('It is pinned to 2023-10.');
    expect(texts.some((t) => t.includes('Searching.'))).toBe(false);
  });
});

describe('brick-only', () => {
  it("history 'text' keeps user and assistant text, never a whitespace-only message", async () => {
    const c = caseOf(
      session([
        { role: 'user', text: 'Check the pin.' },
        { role: 'assistant', text: '   \n ', toolCalls: [call('g1')] },
        { role: 'user', toolResults: [{ callId: 'g1', content: 'pinned' }] },
        { role: 'assistant', text: 'Pinned to 2023-10.' },
      ]),
    );
    const h = await prepare('brick-only', c, { history: 'text' });
    expect(h.messages.map((m) => m.text)).toEqual(['Check the pin.', 'Pinned to 2023-10.']);
  });
});

describe('summary and spawn-summary', () => {
  it('labels each child of a multi-child return by its number and id', async () => {
    const c = returnCase();
    const h = await prepare('summary', {
      ...c,
      sources: [c.source, { ...c.source, id: 'child-b' }],
    });
    expect(h.payload).toMatch(/^Child 1 of 2:\n/);
    expect(h.payload).toContain('\n\nChild 2 of 2 (child-b):\n');
    expect(h.stats.calls).toBe(2);
  });

  it('spawn-summary reports its call through a context the harness did not build', async () => {
    const parent = session([
      { role: 'user', text: 'Plan the migration.' },
      { role: 'assistant', text: 'Spawning.', toolCalls: [call('sp', 'Task')] },
    ]);
    const ctx = contextFor(caseOf(parent, { direction: 'spawn', spawnCallId: 'sp' }));
    const strategy = getStrategy('spawn-summary');
    // A new function: not the harness's tracked `call`, so the strategy's own list is what counts.
    const h = await strategy.prepare(
      { ...ctx, call: (role, req) => ctx.call(role, req) },
      resolveParams(strategy, {}),
    );
    expect(h.stats.calls).toBe(1);
    expect(h.stats.outputTokens).toBeGreaterThan(0);
  });
});

describe('structured-contract', () => {
  const recordCall = (input: unknown) => ({ toolCalls: [{ id: 'rr', name: 'research_result', input }] });

  it('an escalation is framed as continuity, a return as the parent', async () => {
    const provider = () => scriptedProvider([() => recordCall(validRecord())]);
    const c = returnCase();
    const back = await prepare('structured-contract', c, {}, { provider: provider() });
    expect(back.system).toBe(framings.parent);
    const up = await prepare(
      'structured-contract',
      { ...c, direction: 'escalation', receiverHistory: undefined },
      {},
      { provider: provider() },
    );
    expect(up.system).toBe(framings.continuity);
  });

  it("a guard flag of one of several children names the child's number", async () => {
    const empty = { ...validRecord(), findings: [], unresolved: [] };
    const provider = scriptedProvider([() => recordCall(validRecord()), () => recordCall(empty)]);
    const c = returnCase();
    const h = await prepare('structured-contract', { ...c, sources: [c.source, c.source] }, {}, { provider });
    const details = (h.artifacts.guards as { guard: string; detail: string }[])
      .filter((f) => f.guard === 'empty-result')
      .map((f) => f.detail);
    expect(details).toHaveLength(1);
    expect(details[0]).toMatch(/^child 2: no findings and no unresolved question/);
  });
});

describe('parity-narration', () => {
  it("frames a return into a parent's history as the parent continuing, with no empty section", async () => {
    const h = await prepare('parity-narration', returnCase(), { framing: 'auto' });
    expect(h.system.startsWith(`${framings.parent} ${framings.continuity}`)).toBe(true);
    expect(h.system).not.toMatch(/\n\n\n/);
    expect(h.system.endsWith('\n')).toBe(false);
  });

  it('a session with nothing narrated: the framing and the brick, no narration note, no blank section', async () => {
    const c = caseOf(
      session([
        { role: 'user', text: 'Check the pin.' },
        { role: 'assistant', text: 'It is 2023-10.' },
      ]),
    );
    const h = await prepare('parity-narration', c, { framing: 'auto' });
    expect(h.messages.some((m) => m.role === 'system')).toBe(false);
    expect(h.system.startsWith(`${framings.continuity}\n\nOrientation`)).toBe(true);
    expect(h.system).not.toContain('narrated lines');
    expect(h.system).not.toMatch(/\n\n\n/);
  });
});

describe('brick', () => {
  const long = (n: number) =>
    Array.from({ length: n }, (_, i) => `line ${i} of a long grep result`).join('\n');
  const t = session([
    { role: 'user', text: 'Find every pin.' },
    { role: 'assistant', text: 'Searching.', toolCalls: [call('g1'), call('g2'), call('g3')] },
    {
      role: 'user',
      toolResults: [
        { callId: 'g1', content: long(200) },
        { callId: 'g2', content: long(150) },
        { callId: 'g3', content: long(90) },
      ],
    },
    { role: 'assistant', text: 'Found the pins.' },
    { role: 'user', text: 'Now the sandbox?' },
  ]);

  const occurrences = (text: string, needle: string) => text.split(needle).length - 1;

  it('every marker it lists is in its text, as often as it is listed, whatever the budget', () => {
    let listed = 0;
    // Every budget from a sliver to the whole, so some cut lands next to each marker.
    for (let budgetChars = 150; budgetChars <= 3_000; budgetChars += 3) {
      const brick = buildBrick(t, { ...adr0093Brick, resultCap: 300, budgetChars });
      const counts = new Map<string, number>();
      for (const m of brick.markers) counts.set(m.text, (counts.get(m.text) ?? 0) + 1);
      for (const [text, n] of counts)
        expect(occurrences(brick.text, text), `${budgetChars}: ${text}`).toBe(n);
      listed += brick.markers.length;
    }
    expect(listed).toBeGreaterThan(0);
  });

  it("a turn's final text is the assistant's, never the user's question that opened it", () => {
    const brick = buildBrick(t, { ...legacyBrick, trailActivity: false, budgetChars: 20_000 });
    const lastTurn = brick.text.split('\n').filter((l) => l.includes('Now the sandbox?'));
    expect(lastTurn).toHaveLength(1);
    expect(brick.text).not.toMatch(/user:.*Now the sandbox\?[\s\S]*Now the sandbox\?/);
  });
});
