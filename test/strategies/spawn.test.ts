import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Case, Message, Transcript } from '../../harness/core/index.ts';
import { opensTurn } from '../../harness/core/transcript/view.ts';
import { pairingCheck } from '../../judges/checks.ts';
import { renderMessage } from '../../strategies/render.ts';
import { backgroundLabel } from '../../strategies/spawn-summary.ts';
import type { MessageDraft } from '../../harness/importers/builder.ts';
import { transcriptArb } from './generate.ts';
import { caseOf, prepare } from './helpers.ts';

/** A generated parent with a spawn call picked among its calls. */
const spawnArb = transcriptArb({ maxTurns: 12, compaction: true })
  .filter((t) => t.messages.some((m) => m.toolCalls?.length))
  .chain((t) => {
    const ids = t.messages.flatMap((m) => (m.toolCalls ?? []).map((c) => c.id));
    return fc.tuple(fc.constant(t), fc.constantFrom(...ids));
  });

const at = (t: Transcript, id: string) => t.messages.findIndex((m) => m.toolCalls?.some((c) => c.id === id));
const tagsOf = (m: Message) =>
  [
    m.text?.trim() ? m.text : undefined,
    ...(m.toolCalls ?? []).map((c) => `"path":"${(c.input as { path: string }).path}"`),
    ...(m.toolResults ?? []).map((r) => r.content.slice(0, 16)),
  ].filter(Boolean) as string[];

describe('spawn snapshots (child-agent-context-selection)', () => {
  it('spawn-all: effective dialogue only — no spawn call, no later material, no raw turns before the latest compaction, no call without its result', async () => {
    await fc.assert(
      fc.asyncProperty(spawnArb, async ([t, spawnId]) => {
        const h = await prepare('spawn-all', caseOf(t, { direction: 'spawn', spawnCallId: spawnId }));
        const text = h.messages.map(renderMessage).join('\n');
        const cut = at(t, spawnId);
        const summary =
          t.messages
            .slice(0, cut + 1)
            .map((m, i) => (m.compacted ? i : -1))
            .filter((i) => i >= 0)
            .pop() ?? -1;
        expect(h.messages.flatMap((m) => m.toolCalls ?? []).some((c) => c.id === spawnId)).toBe(false);
        expect(pairingCheck(h.messages).passed).toBe(true);
        t.messages.forEach((m, i) => {
          const visible = tagsOf(m).some((tag) => text.includes(tag));
          if (i > cut || i < summary)
            expect(visible, `message ${i} (cut ${cut}, summary ${summary})`).toBe(false);
          else if (m.compacted || (m.role === 'user' && m.text)) expect(visible).toBe(true);
        });
        const roles = (ms: readonly { role: string; text?: string }[]) =>
          ms.filter((m) => m.text).map((m) => `${m.role}:${m.text}`);
        expect(roles(h.messages)).toEqual(roles(t.messages.slice(Math.max(summary, 0), cut + 1)));
      }),
      { numRuns: 60 },
    );
  });

  it('spawn-recent: the last n turns of that snapshot (plus the effective compaction summary), pairing intact', async () => {
    await fc.assert(
      fc.asyncProperty(spawnArb, fc.integer({ min: 1, max: 4 }), async ([t, spawnId], n) => {
        const c = caseOf(t, { direction: 'spawn', spawnCallId: spawnId });
        const all = await prepare('spawn-all', c);
        const recent = await prepare('spawn-recent', c, { n });
        expect(pairingCheck(recent.messages).passed).toBe(true);
        const r = recent.messages.map(renderMessage);
        const a = all.messages.map(renderMessage);
        const summaryFirst = a[0]?.includes('compaction summary') && r[0] === a[0] ? 1 : 0;
        expect(a.slice(a.length - (r.length - summaryFirst))).toEqual(r.slice(summaryFirst));
        const turnsOf = (ms: readonly unknown[]) =>
          ms.filter((m) => opensTurn(m as Message) && !(m as Message).text!.startsWith('compaction summary'))
            .length;
        // Exactly n turns, or all of them when the snapshot has fewer (not n − 1, not n + 1).
        expect(turnsOf(recent.messages)).toBe(Math.min(n, turnsOf(all.messages)));
        if (summaryFirst === 0 && all.messages[0]?.text?.startsWith('compaction summary'))
          expect(recent.messages).toEqual(all.messages);
      }),
      { numRuns: 60 },
    );
  });

  it('the snapshot is immutable: frozen, and independent of later changes to the parent', async () => {
    const [sampled, spawnId] = fc.sample(spawnArb, { numRuns: 1, seed: 42 })[0]!;
    // The types forbid changing a Transcript; a JavaScript caller can still do it, so this one is built
    // from drafts it keeps and changes after the handoff is made.
    const messages = sampled.messages.map((m): MessageDraft => ({
      ...m,
      toolResults: m.toolResults?.map((r) => ({ ...r })),
    }));
    const t: Transcript = { ...sampled, messages };
    const c = caseOf(t, { direction: 'spawn', spawnCallId: spawnId });
    const h = await prepare('spawn-all', c);
    const before = JSON.stringify(h.messages);
    expect(Object.isFrozen(h.messages)).toBe(true);
    expect(Object.isFrozen(h.messages[0])).toBe(true);
    for (const m of messages) {
      if (m.text) m.text = 'CHANGED LATER';
      m.toolResults?.forEach((r) => (r.content = 'CHANGED LATER'));
    }
    messages.push({ role: 'user', text: 'a later parent message' });
    expect(JSON.stringify(h.messages)).toBe(before);
  });
});

/** A parent mid-turn: the user's orchestration request, realised evidence, then a spawn call beside a sibling. */
function parentMidTurn(): Case {
  const source: Transcript = {
    agents: { parent: { role: 'parent' } },
    messages: [
      {
        role: 'user',
        text: 'Orchestrate this: spawn researchers for the Paylane retirement, then merge their branches into master and open the PR.',
      },
      {
        role: 'assistant',
        agent: 'parent',
        text: 'Checking the config first.',
        toolCalls: [
          {
            id: 'q1',
            name: 'query_table',
            input: { sql: 'select merchant_id from merchant_config where api_version = 2023-10' },
          },
        ],
      },
      { role: 'user', toolResults: [{ callId: 'q1', content: 'm_0007\nm_0013\n(2 rows)' }] },
      {
        role: 'assistant',
        agent: 'parent',
        text: 'Two merchants pin 2023-10 (m_0007, m_0013). The weather service is unrelated.',
        toolCalls: [
          { id: 'spawn_a', name: 'Agent', input: { task: 'adapters' } },
          { id: 'spawn_b', name: 'Agent', input: { task: 'changelog' } },
        ],
      },
      {
        role: 'user',
        toolResults: [
          { callId: 'spawn_b', content: 'sibling finished: changelog says 2026-12-15' },
          { callId: 'spawn_a', content: 'done' },
        ],
      },
      { role: 'assistant', agent: 'parent', text: 'Merged both branches.' },
    ],
  };
  return caseOf(source, {
    direction: 'spawn',
    spawnCallId: 'spawn_a',
    task: 'Check which Paylane adapters pin or fall back to 2023-10 for merchants m_0007 and m_0013.',
    assertions: [
      {
        id: 'a1',
        kind: 'confident',
        statement: 'Two merchants pin 2023-10 (m_0007, m_0013)',
        claim: 'Two merchants pin 2023-10 (m_0007, m_0013)',
        cues: ['m_0007', 'm_0013'],
      },
      {
        id: 'a2',
        kind: 'confident',
        statement: 'The weather service is unrelated',
        claim: 'The weather service is unrelated',
        cues: ['weather service'],
      },
    ],
    reference: {
      facts: [],
      caveats: [],
      orchestration: {
        request: 'merge their branches into master and open the PR',
        cues: ['merge their branches', 'open the PR'],
      },
    },
  });
}

describe('spawn strategies on a parent mid-turn', () => {
  it('spawn-isolated gives the child nothing but its task', async () => {
    const h = await prepare('spawn-isolated', parentMidTurn());
    expect(h.messages).toEqual([]);
    expect(h.payload).toBe('');
  });

  it('spawn-all keeps dialogue roles and drops the trigger, the unfinished sibling and everything after', async () => {
    const h = await prepare('spawn-all', parentMidTurn());
    expect(h.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(h.messages[0]!.text).toContain('Orchestrate this');
    expect(h.messages[3]).toEqual({
      role: 'assistant',
      text: 'Two merchants pin 2023-10 (m_0007, m_0013). The weather service is unrelated.',
    });
    expect(h.payload).not.toContain('sibling finished');
    expect(h.payload).not.toContain('Merged both branches');
    expect(h.artifacts.snapshot).toMatchObject({ later: 2, excludedCalls: ['spawn_a', 'spawn_b'] });
  });

  it('spawn-summary asks the source model for task-focused background and places it, labelled, right before the task', async () => {
    const c = parentMidTurn();
    const h = await prepare(
      'spawn-summary',
      c,
      {},
      { sim: { sizes: { large: { backgroundLeakOrchestration: 0 } } } },
    );
    expect(h.messages).toHaveLength(1);
    const bg = h.messages[0]!;
    expect(bg.role).toBe('system');
    expect(bg.text!.startsWith(backgroundLabel)).toBe(true);
    expect(bg.text).toContain('m_0007');
    expect(bg.text).not.toContain('weather service');
    expect(bg.text).not.toContain('merge their branches');
    expect(h.stats.calls).toBe(1);
    expect(h.stats.outputTokens).toBeGreaterThan(0);
    const leaky = await prepare(
      'spawn-summary',
      c,
      {},
      { sim: { sizes: { large: { backgroundLeakOrchestration: 1 } } } },
    );
    expect(leaky.payload).toContain('merge their branches into master and open the PR');
  });

  it('spawn-summary generates from the frozen snapshot: the background request never sees later parent material', async () => {
    const c = parentMidTurn();
    let seen = '';
    const { scriptedProvider } = await import('./helpers.ts');
    const provider = scriptedProvider([
      (req) => ((seen = req.messages.map(renderMessage).join('\n')), { text: 'background' }),
    ]);
    await prepare('spawn-summary', c, {}, { provider });
    expect(seen).toContain('Two merchants pin 2023-10');
    expect(seen).toContain(c.task);
    expect(seen).not.toContain('sibling finished');
    expect(seen).not.toContain('Merged both branches');
  });
});
