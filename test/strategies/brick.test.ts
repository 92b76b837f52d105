import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { viewOf } from '../../harness/core/transcript/view.ts';
import { countTokens, messagesTokens } from '../../harness/core/tokens.ts';
import {
  adr0093Brick,
  buildBrick,
  clearedResult,
  emptyResult,
  legacyBrick,
  resultMarker,
  turnsMarker,
  type BrickOptions,
} from '../../strategies/brick.ts';
import { pairingCheck } from '../../judges/checks.ts';
import { renderMessage } from '../../strategies/render.ts';
import { buildTranscript, transcriptArb } from './generate.ts';
import { caseOf, prepare } from './helpers.ts';
import { importTranscript } from '../../harness/importers/index.ts';
import { transcriptPath, transcriptsMissing } from '../support/transcripts.ts';

const flat = (s: string) => s.replace(/\s*\n\s*/g, ' ⏎ ').trim();

describe('the brick (ADR 0029; ADR 0093 C)', () => {
  it('never exceeds its budget; with markers every cut is announced and each marker records the real number dropped', () => {
    fc.assert(
      fc.property(
        transcriptArb({ maxTurns: 20 }),
        fc.integer({ min: 200, max: 12_000 }),
        fc.integer({ min: 100, max: 1500 }),
        (t, budgetChars, resultCap) => {
          const brick = buildBrick(t, { ...adr0093Brick, resultCap, budgetChars });
          expect(brick.text.length).toBeLessThanOrEqual(budgetChars);
          const turns = viewOf(t).turns.length;
          expect(brick.turnsKept + brick.turnsDropped).toBe(turns);
          const turnMarker = brick.markers.find((m) => m.kind === 'turns');
          if (brick.turnsDropped > 0) {
            expect(turnMarker?.dropped).toBe(brick.turnsDropped);
            expect(brick.text).toContain(turnsMarker(brick.turnsDropped));
          } else expect(turnMarker).toBeUndefined();
          const headers = brick.text.match(/^Turn \d+/gm)?.length ?? 0;
          expect(headers).toBe(brick.turnsKept);
          // one result marker per capped result shown, each with the characters actually cut
          const shown = brick.text.split(resultMarker).length - 1;
          expect(brick.markers.filter((m) => m.kind === 'result').length).toBe(shown);
          const cutResults = viewOf(t)
            .turns.flatMap((x) => x.trail)
            .filter((x) => x.result && flat(x.result.content).length > resultCap);
          for (const m of brick.markers.filter((x) => x.kind === 'result'))
            expect(cutResults.map((x) => flat(x.result!.content).length - resultCap)).toContain(m.dropped);
          for (const m of brick.markers) expect(brick.text).toContain(m.text);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('legacy (ADR 0029) truncates silently: capped results and dropped turns leave no trace', () => {
    fc.assert(
      fc.property(transcriptArb({ maxTurns: 20 }), fc.boolean(), (t, trailActivity) => {
        const brick = buildBrick(t, { ...legacyBrick, trailActivity, budgetChars: 3000 });
        expect(brick.markers).toEqual([]);
        expect(brick.text).not.toContain('(truncated');
        expect(brick.text).not.toContain('omitted');
        expect(brick.text.length).toBeLessThanOrEqual(3000);
      }),
      { numRuns: 40 },
    );
  });

  it('a single over-budget turn keeps a head and tail of itself with markers; the legacy brick empties', () => {
    const t = buildTranscript([
      {
        steps: [
          {
            text: true,
            calls: [
              { size: 40_000, error: false, orphan: false, tool: 0 },
              { size: 30_000, error: true, orphan: false, tool: 1 },
            ],
            byReceiver: false,
            reversed: false,
          },
        ],
        finalText: true,
        compactBefore: false,
      },
    ]);
    const honest = buildBrick(t, { ...adr0093Brick, resultCap: 100_000, budgetChars: 3000 });
    expect(honest.text.length).toBeLessThanOrEqual(3000);
    expect(honest.text).toContain('Turn 1 — user: request T0');
    expect(honest.text).toContain('done with item 0');
    const cut = honest.markers.find((m) => m.kind === 'brick')!;
    expect(honest.text).toContain(`… (${cut.dropped} characters of this turn omitted) …`);
    expect(honest.text.length + cut.dropped).toBeGreaterThanOrEqual(70_000);
    const legacy = buildBrick(t, {
      ...legacyBrick,
      trailActivity: true,
      resultCap: 100_000,
      budgetChars: 3000,
    });
    expect(legacy.text).toBe('');
  });

  it('a head+tail cut counts exactly the characters it drops, and lists exactly the result markers it keeps', () => {
    const calls = Array.from({ length: 10 }, (_, i) => ({
      size: 2000,
      error: false,
      orphan: false,
      tool: i % 3,
    }));
    const t = buildTranscript([
      {
        steps: [{ text: true, calls, byReceiver: false, reversed: false }],
        finalText: true,
        compactBefore: false,
      },
    ]);
    const opts = { ...adr0093Brick, resultCap: 300 };
    const full = buildBrick(t, { ...opts, budgetChars: 1_000_000 });
    expect(full.markers.filter((m) => m.kind === 'result')).toHaveLength(10);
    const cut = buildBrick(t, { ...opts, budgetChars: 2500 });
    const brickMarker = cut.markers.find((m) => m.kind === 'brick')!;
    const line = `\n… (${brickMarker.dropped} characters of this turn omitted) …\n`;
    const [head, tail, ...more] = cut.text.split(line);
    expect(more).toEqual([]);
    // What is left of the turn is its own head and tail, and the marker counts the rest exactly.
    expect(full.text.startsWith(head!)).toBe(true);
    expect(full.text.endsWith(tail!)).toBe(true);
    expect(brickMarker.dropped).toBe(full.text.length - head!.length - tail!.length);
    // Result markers: one listed for each shown, on both sides of the cut, none for those cut away.
    const shown = (s: string) => s.split(resultMarker).length - 1;
    expect(shown(head!)).toBeGreaterThan(0);
    expect(shown(tail!)).toBeGreaterThan(0);
    expect(cut.markers.filter((m) => m.kind === 'result')).toHaveLength(shown(cut.text));
    expect(shown(cut.text)).toBeLessThan(10);
  });

  const oneCall = () =>
    buildTranscript([
      {
        steps: [
          {
            text: false,
            calls: [{ size: 0, error: false, orphan: false, tool: 0 }],
            byReceiver: false,
            reversed: false,
          },
        ],
        finalText: false,
        compactBefore: false,
      },
    ]);

  it('says so when the source cleared a result at capture time', () => {
    const t = oneCall();
    Object.assign(t.messages[2]!.toolResults![0]!, {
      content: '[Old tool result content cleared]',
      cleared: true,
    });
    const text = buildBrick(t, { ...adr0093Brick, resultCap: 500, budgetChars: 3000 }).text;
    expect(text).toContain(clearedResult);
    expect(text).not.toContain(emptyResult);
  });

  it('an empty result says it is empty, not cleared (issue 13)', () => {
    const call = oneCall();
    const t = {
      ...call,
      messages: call.messages.map((m, i) =>
        i === 2 ? { ...m, toolResults: m.toolResults!.map((r) => ({ ...r, content: '' })) } : m,
      ),
    };
    const text = buildBrick(t, {
      ...adr0093Brick,
      trailActivity: true,
      resultCap: 500,
      budgetChars: 3000,
    }).text;
    expect(text).toContain(`→ ${emptyResult}`);
    expect(text).not.toContain(clearedResult);
    expect(buildBrick(t, { ...adr0093Brick, clearedMarker: false }).text).not.toContain(emptyResult);
  });
});

describe('ADR 0093 C, one switch at a time (each its own brick-only param; the defaults are ADR 0029)', () => {
  // 12 turns, each with a 3000-char result and final text: over budget, so turns drop and results cap.
  const t = buildTranscript(
    Array.from({ length: 12 }, () => ({
      steps: [
        {
          text: true,
          calls: [{ size: 3000, error: false, orphan: false, tool: 0 }],
          byReceiver: false,
          reversed: false,
        },
      ],
      finalText: true,
      compactBefore: false,
    })),
  );
  const base: BrickOptions = { ...legacyBrick, budgetChars: 6000 };
  const only = (k: keyof BrickOptions) => buildBrick(t, { ...base, trailActivity: true, [k]: true });

  it('ADR 0029: a turn is its request and final text only, cuts are silent', () => {
    const b = buildBrick(t, base);
    expect(b.text).not.toContain(' called ');
    expect(b.text).toContain('done with item 11');
    expect(b.text).not.toContain('note M1:');
    expect(b.markers).toEqual([]);
  });

  it('trailActivity alone: calls and (capped, silently) results appear; nothing else changes', () => {
    const b = buildBrick(t, { ...base, trailActivity: true });
    expect(b.text).toMatch(/called read_file\(.*\) → result-of-c\d+/);
    expect(b.text).not.toContain(resultMarker);
    expect(b.text).not.toContain('omitted');
  });

  it('resultMarker alone marks every capped result and nothing else; resultCap 1500 keeps more of each', () => {
    const b = only('resultMarker');
    expect(b.markers.length).toBeGreaterThan(0);
    expect(b.markers.every((m) => m.kind === 'result' && m.dropped > 0)).toBe(true);
    expect(b.text.split(resultMarker).length - 1).toBe(b.markers.length);
    expect(b.text).not.toContain('earlier activity omitted');
    const wide = buildBrick(t, { ...base, trailActivity: true, resultMarker: true, resultCap: 1500 });
    expect(wide.markers.at(-1)!.dropped).toBe(b.markers.at(-1)!.dropped - 1000);
  });

  it('turnsMarker alone announces the dropped turns with their count', () => {
    const b = only('turnsMarker');
    expect(b.markers).toEqual([
      { text: turnsMarker(b.turnsDropped), kind: 'turns', dropped: b.turnsDropped },
    ]);
    expect(b.text.startsWith(turnsMarker(b.turnsDropped))).toBe(true);
  });

  it('turnHeadTail alone keeps a head+tail of the newest turn that did not fit, when a tenth of the budget is left for it', () => {
    // 8 turns take 5653 characters: at 6300 there are 646 left for the 9th (≥ 630), at 6000 only 346.
    const roomy = { ...base, trailActivity: true, budgetChars: 6300 };
    const without = buildBrick(t, roomy);
    const b = buildBrick(t, { ...roomy, turnHeadTail: true });
    expect(b.turnsKept).toBe(without.turnsKept + 1);
    expect(b.markers.map((m) => m.kind)).toEqual(['brick']);
    expect(b.text.length).toBeLessThanOrEqual(6300);
    expect(only('turnHeadTail').turnsKept).toBe(buildBrick(t, { ...base, trailActivity: true }).turnsKept);
  });
});

describe('the brick on real Claude Code sessions whose last turn is tiny', () => {
  it.skipIf(transcriptsMissing)(
    'does not collapse to the last turn ("/exit"): the turn before keeps a head+tail',
    async () => {
      const { transcript } = await importTranscript(transcriptPath('claude-code-v2-teammates'));
      const turns = viewOf(transcript).turns;
      expect(turns[turns.length - 1]!.userText).toBe('/exit');
      const b = buildBrick(transcript, adr0093Brick);
      expect(b.text).toContain('Turn 2 — user: Well, the subagents seem to be either stuck or done');
      expect(b.text).toContain('Turn 3 — user: /exit');
      expect(b.text.length).toBeGreaterThan(adr0093Brick.budgetChars * 0.9);
      expect(b.text.length).toBeLessThanOrEqual(adr0093Brick.budgetChars);
      // Without the switch it is the one line the issue describes.
      const collapsed = buildBrick(transcript, { ...adr0093Brick, turnHeadTail: false });
      expect(collapsed.text).toBe(`${turnsMarker(2)}\nTurn 3 — user: /exit`);
    },
  );

  it.skipIf(transcriptsMissing)(
    'on every real Claude Code session the ADR 0093 brick fills most of its budget',
    async () => {
      for (const name of [
        'claude-code-nextjs-todo.jsonl',
        'claude-code-v2-jssoundrecorder-parallel.jsonl',
        'claude-code-v2-teammates',
      ]) {
        const { transcript } = await importTranscript(transcriptPath(name));
        const b = buildBrick(transcript, adr0093Brick);
        expect(b.text.length, name).toBeGreaterThan(adr0093Brick.budgetChars * 0.5);
        expect(
          b.markers.every((m) => b.text.includes(m.text)),
          name,
        ).toBe(true);
      }
    },
  );
});

describe('brick-only (ADR 0029 escalation view)', () => {
  const t = buildTranscript(
    Array.from({ length: 40 }, () => ({
      steps: [
        {
          text: true,
          calls: [{ size: 2000, error: false, orphan: false, tool: 2 }],
          byReceiver: false,
          reversed: false,
        },
      ],
      finalText: true,
      compactBefore: false,
    })),
  );
  it('carries no tool evidence in the history, orients with the brick, and subtracts the orientation from the budget', async () => {
    const h = await prepare('brick-only', caseOf(t), {}, { budgetTokens: 3000 });
    expect(h.messages.every((m) => !m.toolCalls && !m.toolResults)).toBe(true);
    expect(h.system).toContain('Escalation brief from primary agent');
    expect(messagesTokens(h.messages)).toBeLessThanOrEqual(3000 - countTokens(h.system));
    expect(h.stats.markers).toEqual([]);
    expect(h.stats.dropped).toBeGreaterThan(0);
    expect(pairingCheck(h.messages).passed).toBe(true);
  });
  it('markers: true makes every cut explicit — the brick and the dropped oldest text', async () => {
    const h = await prepare(
      'brick-only',
      caseOf(t),
      { markers: true, trailActivity: true, framing: 'continuity' },
      { budgetTokens: 3000 },
    );
    const seen = [h.system, ...h.messages.map(renderMessage)].join('\n');
    for (const m of h.stats.markers) expect(seen).toContain(m.text);
    const text = h.stats.markers.find((m) => m.kind === 'messages')!;
    const kept = h.messages.filter((m) => m.role !== 'system').length;
    expect(text.dropped + kept).toBe(t.messages.filter((m) => m.text?.trim()).length);
    expect(h.stats.markers.some((m) => m.kind === 'turns')).toBe(true);
    expect(h.system).not.toContain('Escalation brief');
  });
  it('defaults are the seed numbers: 500-char result cap, 12000-char brick, final text per turn, silent', async () => {
    const { brickOnly } = await import('../../strategies/brick-only.ts');
    expect(brickOnly.params.resultCap.default).toBe(500);
    expect(brickOnly.params.contextBudgetChars.default).toBe(12000);
    for (const k of [
      'markers',
      'trailActivity',
      'resultMarker',
      'turnsMarker',
      'turnHeadTail',
      'clearedMarker',
    ] as const)
      expect(brickOnly.params[k].default, k).toBe(false);
  });
  it('each switch is a param: turning one on changes the brick the receiver sees', async () => {
    const legacy = await prepare('brick-only', caseOf(t), {}, { budgetTokens: 3000 });
    const trail = await prepare('brick-only', caseOf(t), { trailActivity: true }, { budgetTokens: 3000 });
    expect(legacy.artifacts.brick).not.toContain(' called ');
    expect(trail.artifacts.brick).toContain(' called ');
    const turns = await prepare(
      'brick-only',
      caseOf(t),
      { turnsMarker: true, contextBudgetChars: 1500 },
      { budgetTokens: 3000 },
    );
    expect(turns.stats.markers.map((m) => m.kind)).toEqual(['turns']);
  });
});
