import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Handoff, Transcript } from '../../harness/core/index.ts';
import { messagesTokens, countTokens } from '../../harness/core/tokens.ts';
import { viewOf } from '../../harness/core/transcript/view.ts';
import { pairingCheck } from '../../judges/checks.ts';
import { formatArgs, renderMessage } from '../../strategies/render.ts';
import { adr0093Retention, planTrails } from '../../strategies/trails.ts';
import { renderSession } from '../../strategies/narrate.ts';
import { framings } from '../../strategies/framing.ts';
import { buildTranscript, primaryAgent, receiverAgent, transcriptArb } from './generate.ts';
import { sessionShapeOf } from '../../harness/core/transcript/session-shape.ts';
import { toCase } from '../../cases/load.ts';
import { caseOf, prepare } from './helpers.ts';
import { expectedAtoms } from './atoms.ts';
import { adrFates } from './adr-retention.ts';

/** The history the receiver reads (the system prompt's TL;DR brick is left out: it is an index, not the history). */
const seen = (h: Handoff) => h.messages.map(renderMessage).join('\n');
const huge = { retainBytes: 1e12 };

describe('parity-narration: superset parity with the agent’s own replay (ADR 0093 E)', () => {
  it('for the same session, the narrated view and the own view carry the same texts, tool names, arguments and results, within the retention plan', async () => {
    await fc.assert(
      fc.asyncProperty(transcriptArb({ maxTurns: 14 }), async (t) => {
        const c = caseOf(t);
        const own = seen(await prepare('inline', c, { replay: 'planned' }, { budgetTokens: 1e9 }));
        const h = await prepare('parity-narration', c, {}, { budgetTokens: 1e9 });
        const narrated = seen(h);
        const atoms = expectedAtoms(t);
        const fates = [...atoms.fates.values()];
        const count = (f: string) => fates.filter((x) => x === f).length;
        expect(h.artifacts.plan).toMatchObject({
          expanded: count('expanded'),
          retained: count('retained'),
          manifest: count('manifest'),
        });
        for (const a of [...atoms.texts, ...atoms.shown]) {
          expect(own.includes(a), `own view lacks ${a.slice(0, 60)}`).toBe(true);
          expect(narrated.includes(a), `narrated view lacks ${a.slice(0, 60)}`).toBe(true);
        }
        for (const h of atoms.hidden) {
          expect(own.includes(h)).toBe(false);
          expect(narrated.includes(h)).toBe(false);
        }
        const manifests = [...atoms.fates.values()].filter((f) => f === 'manifest').length;
        expect(own.match(/\[manifest: turn \d+/g)?.length ?? 0).toBe(manifests);
        expect(narrated.match(/\[manifest: turn \d+/g)?.length ?? 0).toBe(manifests);
      }),
      { numRuns: 40 },
    );
  });

  it("narrates the other agent's trails as system text and never as tool calls; the receiver's own stay its calls", async () => {
    await fc.assert(
      fc.asyncProperty(transcriptArb({ maxTurns: 10, receiverSteps: true }), async (t) => {
        const h = await prepare('parity-narration', caseOf(t), {}, { budgetTokens: 1e9 });
        const byId = new Map(
          t.messages.flatMap((m) => (m.toolCalls ?? []).map((c) => [c.id, m.agent] as const)),
        );
        for (const m of h.messages)
          for (const call of m.toolCalls ?? []) expect(byId.get(call.id)).toBe(receiverAgent);
        // the receiver's own calls appear as narration only when they never got a result (a call without its result cannot be replayed)
        for (const m of h.messages.filter((x) => x.role === 'system'))
          expect(m.text).not.toMatch(
            new RegExp(`^\\[${receiverAgent} called .*\\n\\[result: (?!\\(none recorded\\))`, 'm'),
          );
        expect(
          h.messages.some((m) => m.role === 'system' && /^\[primary called /m.test(m.text ?? '')) ||
            !t.messages.some((m) => m.agent === 'primary' && m.toolCalls?.length),
        ).toBe(true);
        expect(pairingCheck(h.messages).passed).toBe(true);
      }),
      { numRuns: 30 },
    );
  });
});

describe('parity-narration: retention plan (newest 2 expanded, 160 KB newest-first, manifest for older)', () => {
  it('expands the newest two turns in full, caps older retained results with a marker giving the real count, and lists the rest in manifests', async () => {
    await fc.assert(
      fc.asyncProperty(transcriptArb({ maxTurns: 20 }), async (t) => {
        const h = await prepare(
          'parity-narration',
          caseOf(t),
          { retainBytes: 40_000 },
          { budgetTokens: 1e9 },
        );
        const text = seen(h);
        // Expected fates from the ADR's rule as the test writes it (./adr-retention.ts), not planTrails.
        const fates = adrFates(t, 40_000);
        const withTrail = viewOf(t).turns.filter((x) => x.trail.length);
        withTrail.slice(-2).forEach((turn) => expect(fates.get(turn.index)).toBe('expanded'));
        withTrail.slice(0, -2).forEach((turn) => expect(fates.get(turn.index)).not.toBe('expanded'));
        for (const turn of withTrail) {
          const fate = fates.get(turn.index)!;
          if (fate === 'manifest') {
            const line = text.match(
              new RegExp(`\\[manifest: turn ${turn.index + 1} — \\S+ made (\\d+) tool call`),
            );
            expect(Number(line?.[1])).toBe(turn.trail.length);
          }
          for (const item of turn.trail.filter((x) => x.result && x.result.content.length > 1500)) {
            const full = item.result!.content;
            if (fate === 'expanded') expect(text.includes(full)).toBe(true);
            else expect(text.includes(full)).toBe(false);
            if (fate === 'retained')
              expect(text).toContain(
                `… (result cut: ${full.length - 1500} of ${full.length} characters not retained — older turn)`,
              );
          }
        }
        const cuts = h.stats.markers.filter((m) => m.kind === 'result' && m.text.startsWith('… (result cut'));
        for (const m of cuts) expect(m.text).toContain(`${m.dropped} of`);
        expect(h.stats.manifest).toBe(
          withTrail.filter((x) => fates.get(x.index) === 'manifest').reduce((n, x) => n + x.trail.length, 0),
        );
      }),
      { numRuns: 30 },
    );
  });
});

/** Source messages whose own unique content is absent from a rendering. */
function absentMessages(t: Transcript, text: string): { messages: number; calls: number } {
  let messages = 0;
  let calls = 0;
  for (const m of t.messages) {
    const tags = [
      m.text?.trim() ? m.text : undefined,
      ...(m.toolCalls ?? []).map((c) => formatArgs(c.input)),
      ...(m.toolResults ?? []).map((r) => r.content.slice(0, 24)),
    ].filter(Boolean) as string[];
    if (!tags.some((tag) => text.includes(tag))) messages++;
    for (const c of m.toolCalls ?? []) if (!text.includes(formatArgs(c.input))) calls++;
  }
  return { messages, calls };
}

describe('parity-narration: head+tail trim at segment boundaries (ADR 0093 B)', () => {
  it('over budget keeps the original request and first plan, respects the budget, and the middle marker counts exactly what was cut', async () => {
    await fc.assert(
      fc.asyncProperty(
        transcriptArb({ maxTurns: 18 }),
        fc.double({ min: 0.2, max: 0.8, noNaN: true }),
        async (t, share) => {
          const full = await prepare('parity-narration', caseOf(t), huge, { budgetTokens: 1e9 });
          const total = messagesTokens(full.messages);
          const budget = Math.max(2500, Math.floor(total * share));
          const h = await prepare('parity-narration', caseOf(t), huge, { budgetTokens: budget });
          const text = seen(h);
          expect(text).toContain(t.messages[0]!.text!);
          const firstPlan = t.messages.find((m) => m.role === 'assistant')!;
          const planTag = firstPlan.text ?? formatArgs(firstPlan.toolCalls![0]!.input);
          // the first plan is kept whenever it fits next to the request; when it alone overflows, the cut names it
          if (!text.includes(planTag)) expect(h.stats.markers.some((m) => m.kind === 'middle')).toBe(true);
          expect(pairingCheck(h.messages).passed).toBe(true);
          if (!h.artifacts.overBudget) expect(messagesTokens(h.messages)).toBeLessThanOrEqual(budget);
          const middle = h.stats.markers.find((m) => m.kind === 'middle');
          const absent = absentMessages(t, text);
          if (total <= budget) expect(middle).toBeUndefined();
          if (middle) {
            expect(middle.dropped).toBe(absent.messages);
            expect(middle.text).toContain(
              `— ${absent.messages} message${absent.messages === 1 ? '' : 's'}, ${absent.calls} tool call`,
            );
            // the newest segment survives whenever it fits beside the request
            const segs = renderSession(t, {
              plan: planTrails(t, { ...adr0093Retention, ...huge }),
              policy: { ...adr0093Retention, ...huge },
              isOwn: () => false,
            });
            const tok = (from: number, to: number) =>
              segs.slice(from, to).reduce((n, x) => n + messagesTokens(x.messages), 0);
            const planEnd = segs.findIndex((x) => x.assistant) + 1;
            const head = tok(0, planEnd) + 48 <= budget ? tok(0, planEnd) : tok(0, 1);
            const room = head + tok(segs.length - 1, segs.length) + 48;
            const last = t.messages[t.messages.length - 1]!;
            if (room <= budget)
              expect(text).toContain(
                last.text ??
                  last.toolResults?.[0]?.content.slice(0, 24) ??
                  formatArgs(last.toolCalls![0]!.input),
              );
          } else expect(absent.messages).toBe(0);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('the message budget equals the primary’s: the TL;DR orientation is not subtracted from it (budget parity)', async () => {
    const turns = Array.from({ length: 120 }, () => ({
      steps: [
        {
          text: true,
          calls: [{ size: 300, error: false, orphan: false, tool: 1 }],
          byReceiver: false,
          reversed: false,
        },
      ],
      finalText: true,
      compactBefore: false,
    }));
    const t = buildTranscript(turns);
    const budget = 8000;
    const h = await prepare('parity-narration', caseOf(t), {}, { budgetTokens: budget });
    const used = messagesTokens(h.messages);
    expect(used).toBeLessThanOrEqual(budget);
    expect(used).toBeGreaterThan(budget - countTokens(h.artifacts.brick as string));
    expect(countTokens(h.artifacts.brick as string)).toBeGreaterThan(300);
  });

  it("middle: 'summarize' splices a source-model summary between head and tail and accounts for the call", async () => {
    const t = buildTranscript(
      Array.from({ length: 60 }, () => ({
        steps: [
          {
            text: true,
            calls: [{ size: 800, error: false, orphan: false, tool: 0 }],
            byReceiver: false,
            reversed: false,
          },
        ],
        finalText: true,
        compactBefore: false,
      })),
    );
    const h = await prepare(
      'parity-narration',
      caseOf(t),
      { middle: 'summarize', middleSummaryTokens: 300 },
      { budgetTokens: 6000 },
    );
    const spliced = h.messages.find(
      (m) => m.role === 'system' && m.text?.startsWith('(middle of the session summarised'),
    );
    expect(spliced).toBeDefined();
    expect(h.stats.calls).toBe(1);
    expect(h.stats.inputTokens).toBeGreaterThan(0);
    expect(messagesTokens(h.messages)).toBeLessThanOrEqual(6000);
  });
});

describe('parity-narration: framing keyed to session shape (ADR 0093 D and addendum)', () => {
  const t = buildTranscript([
    {
      steps: [
        {
          text: true,
          calls: [{ size: 50, error: false, orphan: false, tool: 0 }],
          byReceiver: false,
          reversed: false,
        },
      ],
      finalText: true,
      compactBefore: false,
    },
  ]);
  /** The same session pinned to escalation from its first turn: every turn is the receiver's own. */
  const ownedT: Transcript = {
    ...t,
    agents: { [receiverAgent]: { role: 'escalation' } },
    messages: t.messages.map((m) => (m.role === 'assistant' ? { ...m, agent: receiverAgent } : m)),
  };
  it('owner framing and no brick when the transcript shows the session was the receiver’s from its first turn — no label needed', async () => {
    const h = await prepare('parity-narration', caseOf(ownedT));
    expect(h.system).toContain(framings.owner);
    expect(h.artifacts.brick).toBeUndefined();
    expect(h.messages.some((m) => m.toolCalls?.length)).toBe(true);
    expect(h.system).not.toMatch(/handed off|Escalation brief/);
  });
  it('continuity framing plus the TL;DR brick after a real hand-off, whatever the label says; reviewer framing only when asked', async () => {
    for (const label of [undefined, 'owned', 'handed-off'] as const) {
      const h = await prepare('parity-narration', caseOf(t, label ? { sessionShape: label } : {}));
      expect(h.system).toContain(framings.continuity);
      expect(h.system).toContain('TL;DR');
      expect(h.system).not.toContain('Escalation brief from primary agent');
    }
    const legacy = await prepare('parity-narration', caseOf(t), { framing: 'handoff' });
    expect(legacy.system).toContain('Escalation brief from primary agent');
  });
  it('a brief from another agent at the start makes it a hand-off even when the receiver did every turn', async () => {
    const briefed: Transcript = {
      ...ownedT,
      agents: { ...ownedT.agents, [primaryAgent]: { role: 'primary' } },
      messages: [
        { role: 'user', agent: primaryAgent, text: 'Escalating: finish item 0.' },
        ...ownedT.messages,
      ],
    };
    expect(sessionShapeOf(caseOf(briefed))).toBe('handed-off');
    const h = await prepare('parity-narration', caseOf(briefed));
    expect(h.system).toContain(framings.continuity);
  });
  it('a label the transcript contradicts is a validation error naming the field and what the transcript shows', async () => {
    const raw = { ...caseOf(t, { sessionShape: 'owned' }), suite: undefined, criteria: undefined };
    await expect(
      toCase(raw, 'cases/x.json', '/tmp', { id: 's', criteria: [], direction: 'escalation' }),
    ).rejects.toThrow(
      /sessionShape: labelled "owned", but the transcript shows "handed-off": agent "primary" worked in the session before the receiver/,
    );
    const ok = await toCase({ ...raw, source: ownedT }, 'cases/x.json', '/tmp', {
      id: 's',
      criteria: [],
      direction: 'escalation',
    });
    expect(ok.sessionShape).toBe('owned');
  });
});
