import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { viewOf } from '../../harness/transcript/view.ts';
import { countTokens, messagesTokens } from '../../harness/tokens.ts';
import { buildBrick, clearedResult, emptyResult, resultMarker, turnsMarker } from '../../strategies/brick.ts';
import { pairingCheck } from '../../judges/checks.ts';
import { renderMessage } from '../../strategies/render.ts';
import { buildTranscript, transcriptArb } from './generate.ts';
import { caseOf, prepare } from './helpers.ts';

const flat = (s: string) => s.replace(/\s*\n\s*/g, ' ⏎ ').trim();

describe('the brick (ADR 0029; ADR 0093 C)', () => {
  it('never exceeds its budget; with markers every cut is announced and each marker records the real number dropped', () => {
    fc.assert(
      fc.property(
        transcriptArb({ maxTurns: 20 }),
        fc.integer({ min: 200, max: 12_000 }),
        fc.integer({ min: 100, max: 1500 }),
        (t, budgetChars, resultCap) => {
          const brick = buildBrick(t, { resultCap, budgetChars, markers: true });
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

  it('legacy (markers: false) truncates silently: capped results and dropped turns leave no trace', () => {
    fc.assert(
      fc.property(transcriptArb({ maxTurns: 20 }), (t) => {
        const brick = buildBrick(t, { resultCap: 500, budgetChars: 3000, markers: false });
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
    const honest = buildBrick(t, { resultCap: 100_000, budgetChars: 3000, markers: true });
    expect(honest.text.length).toBeLessThanOrEqual(3000);
    expect(honest.text).toContain('Turn 1 — user: request T0');
    expect(honest.text).toContain('done with item 0');
    const cut = honest.markers.find((m) => m.kind === 'brick')!;
    expect(honest.text).toContain(`… (${cut.dropped} characters of this turn omitted) …`);
    expect(honest.text.length + cut.dropped).toBeGreaterThanOrEqual(70_000);
    const legacy = buildBrick(t, { resultCap: 100_000, budgetChars: 3000, markers: false });
    expect(legacy.text).toBe('');
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
    const text = buildBrick(t, { resultCap: 500, budgetChars: 3000, markers: true }).text;
    expect(text).toContain(clearedResult);
    expect(text).not.toContain(emptyResult);
  });

  it('an empty result says it is empty, not cleared (issue 13)', () => {
    const t = oneCall();
    t.messages[2]!.toolResults![0]!.content = '';
    const text = buildBrick(t, { resultCap: 500, budgetChars: 3000, markers: true }).text;
    expect(text).toContain(`→ ${emptyResult}`);
    expect(text).not.toContain(clearedResult);
  });
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
      { markers: true, framing: 'continuity' },
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
  it('defaults are the seed numbers: 500-char result cap, 12000-char brick, silent', async () => {
    const { brickOnly } = await import('../../strategies/brick-only.ts');
    expect(brickOnly.params.resultCap.default).toBe(500);
    expect(brickOnly.params.contextBudgetChars.default).toBe(12000);
    expect(brickOnly.params.markers.default).toBe(false);
  });
});
