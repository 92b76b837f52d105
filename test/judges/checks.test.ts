import { describe, expect, it } from 'vitest';
import type {
  Case,
  ChatMessage,
  Handoff,
  Message,
  Transcript,
  TruncationMarker,
} from '../../harness/core/index.ts';
import { countMismatch, markersCheck, pairingCheck, runChecks } from '../../judges/checks.ts';
import { adr0093Brick, buildBrick, legacyBrick, turnsMarker } from '../../strategies/brick.ts';
import { handedOffVariant, ownedVariant } from './support.ts';
import { canaryCase } from '../../judges/canary-case.ts';

function handoffOf(
  messages: readonly ChatMessage[],
  markers: readonly TruncationMarker[] = [],
  dropped = 0,
  system = 'sys',
): Handoff {
  return {
    system,
    messages,
    tools: [],
    artifacts: {},
    payload: messages.map((m) => m.text ?? '').join('\n'),
    stats: {
      chars: 0,
      tokens: 0,
      markers,
      retained: 0,
      dropped,
      manifest: 0,
      toolCallsVisible: 0,
      calls: 0,
      inputTokens: 0,
      outputTokens: 0,
      latencyMs: 0,
      retries: 0,
      costUsd: 0,
    },
  };
}

const byName = (checks: { name: string; passed: boolean; detail: string }[], name: string) =>
  checks.find((x) => x.name === name);

describe('recap signature and hand-off language', () => {
  const owned: Case = ownedVariant(canaryCase());
  const handedOff: Case = handedOffVariant(canaryCase());
  const h = handoffOf([{ role: 'user', text: 'hi' }]);

  it('flags the recap signature in any session', () => {
    const checks = runChecks(handedOff, h, 'What was implemented (matching the design): the adapter.');
    expect(byName(checks, 'no_recap_signature')).toMatchObject({ passed: false });
    expect(byName(runChecks(owned, h, 'The adapter is fixed.'), 'no_recap_signature')).toMatchObject({
      passed: true,
    });
  });

  it('flags hand-off language only in a session owned from the first turn', () => {
    const text = 'The primary agent handed off this task; continuing.';
    expect(byName(runChecks(owned, h, text), 'no_handoff_language')).toMatchObject({
      passed: false,
      detail: 'owned session, answer says: handed off, the primary agent',
    });
    expect(byName(runChecks(handedOff, h, text), 'no_handoff_language')).toBeUndefined();
    expect(byName(runChecks(owned, h, 'I finished the migration.'), 'no_handoff_language')).toMatchObject({
      passed: true,
    });
  });
});

describe('markers_present', () => {
  const marker = turnsMarker(3);

  it('passes when every recorded marker is rendered and states what was dropped', () => {
    const r = markersCheck(
      handoffOf(
        [{ role: 'user', text: `${marker}\nTurn 4 …` }],
        [{ text: marker, kind: 'turns', dropped: 3 }],
        3,
      ),
    );
    expect(r).toMatchObject({ passed: true, detail: '1 marker(s), all rendered, counts match' });
  });

  it('fails when a recorded marker is not rendered (or rendered fewer times than recorded)', () => {
    const m = { text: '… (truncated — full result in the session history)', kind: 'result', dropped: 120 };
    const once = handoffOf([{ role: 'user', text: `a ${m.text}\nb` }], [m, m]);
    expect(markersCheck(once)).toMatchObject({
      passed: false,
      detail: expect.stringContaining('recorded 2×, rendered 1×'),
    });
    expect(markersCheck(handoffOf([{ role: 'user', text: 'nothing' }], [m])).passed).toBe(false);
  });

  it('fails when the number in a marker is not the number dropped', () => {
    expect(countMismatch({ text: turnsMarker(3), kind: 'turns', dropped: 4 })).toBe(
      '"(earlier activity omitted — 3 turns)" says 3 but 4 were dropped',
    );
    expect(
      countMismatch({ text: '… (1,234 characters of this turn omitted) …', kind: 'brick', dropped: 1234 }),
    ).toBeUndefined();
    expect(
      countMismatch({
        text: '… (truncated — full result in the session history)',
        kind: 'result',
        dropped: 77,
      }),
    ).toBeUndefined();
  });

  it('notes items dropped with no marker without failing (a summary or an isolated spawn omits by design)', () => {
    expect(markersCheck(handoffOf([{ role: 'user', text: 'x' }], [], 2))).toMatchObject({
      passed: true,
      detail: 'no markers; 2 item(s) not passed on (truncated silently, or omitted by design)',
    });
  });

  it('on real bricks: ADR 0093 C markers are rendered with true counts; a tampered count fails', () => {
    const messages: Message[] = [];
    for (let t = 0; t < 5; t++) {
      messages.push({ role: 'user', text: `step ${t}` });
      messages.push({
        role: 'assistant',
        agent: 'p',
        toolCalls: [{ id: `c${t}`, name: 'read_file', input: { path: `f${t}.ts` } }],
      });
      messages.push({ role: 'user', toolResults: [{ callId: `c${t}`, content: 'x'.repeat(80) }] });
    }
    const source: Transcript = { agents: { p: { role: 'primary' } }, messages };
    for (const markers of [false, true]) {
      const brick = buildBrick(source, {
        ...(markers ? adr0093Brick : { ...legacyBrick, trailActivity: true }),
        resultCap: 20,
        budgetChars: 200,
      });
      const h = handoffOf([{ role: 'user', text: brick.text }], brick.markers, brick.turnsDropped);
      expect(brick.turnsDropped).toBeGreaterThan(0);
      expect(markersCheck(h).passed).toBe(true);
      expect(brick.markers.length > 0).toBe(markers);
      if (!markers) continue;
      expect(markersCheck(h).detail).toMatch(/^\d+ marker\(s\), all rendered, counts match$/);
      const turns = brick.markers.find((m) => m.kind === 'turns')!;
      const tampered = handoffOf(
        h.messages,
        brick.markers.map((m) => (m === turns ? { ...m, dropped: m.dropped + 1 } : m)),
        brick.turnsDropped,
      );
      expect(markersCheck(tampered)).toMatchObject({
        passed: false,
        detail: `"${turns.text}" says ${turns.dropped} but ${turns.dropped + 1} were dropped`,
      });
      expect(markersCheck(handoffOf([{ role: 'user', text: 'brick lost' }], brick.markers)).passed).toBe(
        false,
      );
    }
  });
});

describe('tool_pairing_intact', () => {
  const call = (id: string): ChatMessage => ({
    role: 'assistant',
    toolCalls: [{ id, name: 't', input: {} }],
  });
  const result = (id: string): ChatMessage => ({
    role: 'user',
    toolResults: [{ callId: id, content: 'ok' }],
  });

  it('passes when each call has its result after it', () => {
    expect(pairingCheck([call('a'), result('a'), call('b'), result('b')])).toMatchObject({
      passed: true,
      detail: '2 call(s), all paired',
    });
  });

  it('fails on a call without result, a result without call, a result before its call, and a duplicate', () => {
    expect(pairingCheck([call('a')]).detail).toBe('call a without its result');
    expect(pairingCheck([result('z')]).detail).toBe('result z without its call before it');
    expect(pairingCheck([result('a'), call('a')]).detail).toBe('result a without its call before it');
    expect(pairingCheck([call('a'), result('a'), result('a')]).detail).toBe('call a has two results');
    expect(
      pairingCheck([
        {
          role: 'assistant',
          toolCalls: [{ id: 'a', name: 't', input: {} }],
          toolResults: [{ callId: 'a', content: '' }],
        },
      ]).passed,
    ).toBe(false);
  });
});

describe('no_second_assignment', () => {
  it('runs only for cases with an orchestration request', () => {
    const base = canaryCase();
    const spawn: Case = {
      ...base,
      reference: {
        ...base.reference,
        orchestration: { request: 'then spawn a reviewer', cues: ['spawn', 'reviewer'] },
      },
    };
    const h = handoffOf([]);
    expect(byName(runChecks(base, h, 'x'), 'no_second_assignment')).toBeUndefined();
    expect(
      byName(runChecks(spawn, h, 'Next: spawn a reviewer for the adapter.'), 'no_second_assignment'),
    ).toMatchObject({ passed: false, detail: "child acted on the parent's orchestration request" });
    expect(byName(runChecks(spawn, h, 'Adapters checked.'), 'no_second_assignment')).toMatchObject({
      passed: true,
      detail: 'did its own task only',
    });
  });
});
