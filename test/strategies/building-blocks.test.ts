import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../harness/core/index.ts';
import { messagesTokens } from '../../harness/core/tokens.ts';
import { briefLength, closePendingCall, replayable } from '../../strategies/compose.ts';
import { middleMarker, planCut, trimHeadTail } from '../../strategies/head-tail.ts';
import type { RenderedSegment } from '../../strategies/narrate.ts';
import {
  answerPending,
  endedSessions,
  framingFor,
  functionStyle,
  lastMessageText,
  pyJson,
} from '../../strategies/frameworks/shared.ts';
import { framings } from '../../strategies/framing.ts';
import { withoutTools } from '../../strategies/frameworks/agents-sdk-remove-tools.ts';
import { lastMsgSummary } from '../../strategies/frameworks/ag2-carryover.ts';
import { maskObservations, maskedObservation } from '../../strategies/frameworks/observation-masking.ts';
import { trailer } from '../../strategies/frameworks/claude-code-task.ts';
import { isResearchResult } from '../../strategies/contract-schema.ts';
import { finishHandoff } from '../../strategies/finish.ts';
import { call, caseOf, contextFor, session } from './helpers.ts';
import { validRecord } from './contract-fixtures.ts';

// The small functions the strategies are built from, each at its edges: what a strategy-level test
// reaches only by luck (an empty session, a call answered twice, a question that is a number).

describe('replayable: every tool call keeps its result', () => {
  it('narrates a result whose call is not in the session and keeps it out of toolResults', () => {
    const out = replayable([
      { role: 'assistant', text: 'looking', toolCalls: [call('a')] },
      {
        role: 'user',
        toolResults: [
          { callId: 'a', content: 'found it' },
          { callId: 'ghost', content: 'from elsewhere' },
        ],
      },
    ]);
    expect(out[1]).toEqual({ role: 'user', toolResults: [{ callId: 'a', content: 'found it' }] });
    expect(out[2]!.role).toBe('system');
    expect(out[2]!.text).toMatch(/^\[result of a call not in this session \(ghost\): /);
    expect(out[2]!.text).toContain('from elsewhere');
  });

  it('a message left with no call or result carries neither key (not an empty list)', () => {
    const out = replayable([
      { role: 'assistant', text: 'trying', toolCalls: [call('orphan')] },
      { role: 'user', text: 'and?' },
    ]);
    expect(out[0]).toEqual({ role: 'assistant', text: 'trying' });
    expect(Object.keys(out[0]!)).toEqual(['role', 'text']);
    expect(out.some((m) => m.role === 'system' && /orphan/.test(m.text ?? ''))).toBe(true);
  });

  it('a note about an unanswered call never separates another call from its result, even when a result repeats', () => {
    const out = replayable([
      { role: 'assistant', toolCalls: [call('x')] },
      { role: 'user', toolResults: [{ callId: 'x', content: 'one' }] },
      { role: 'assistant', toolCalls: [call('a'), call('lost')] },
      // 'x' answered a second time beside the awaited 'a'.
      {
        role: 'user',
        toolResults: [
          { callId: 'a', content: 'two' },
          { callId: 'x', content: 'again' },
        ],
      },
    ]);
    const at = out.findIndex((m) => m.toolCalls?.some((c) => c.id === 'a'));
    expect(out[at + 1]!.toolResults?.map((r) => r.callId)).toEqual(['a', 'x']);
    expect(out[at + 2]).toMatchObject({ role: 'system' });
    expect(out[at + 2]!.text).toContain('lost');
  });
});

describe('briefLength and closePendingCall', () => {
  const brief: ChatMessage[] = [
    { role: 'user', text: 'Find the pin.' },
    { role: 'user', text: 'Also the date.' },
  ];

  it('counts the leading user texts only when the receiver has its own history', () => {
    const child = [...brief, { role: 'assistant' as const, text: 'ok' }];
    expect(briefLength(child, true)).toBe(2);
    expect(briefLength(child, false)).toBe(0);
  });

  it('a session that is all brief is all skipped, without reading past its end', () => {
    expect(briefLength(brief, true)).toBe(2);
    expect(briefLength([], true)).toBe(0);
  });

  it('a user message carrying results ends the brief', () => {
    const m: ChatMessage[] = [brief[0]!, { role: 'user', toolResults: [{ callId: 'a', content: 'x' }] }];
    expect(briefLength(m, true)).toBe(1);
  });

  it('closePendingCall answers every parallel spawn call, the first with the content', () => {
    const history: ChatMessage[] = [
      { role: 'assistant', toolCalls: [call('s1', 'Task'), call('s2', 'Task')] },
    ];
    expect(closePendingCall(history, 'result').at(-1)).toEqual({
      role: 'user',
      toolResults: [
        { callId: 's1', content: 'result' },
        { callId: 's2', content: '(returned together with the result of call s1)' },
      ],
    });
    const answered: ChatMessage[] = [...history, { role: 'user', text: 'no calls pending now' }];
    expect(closePendingCall(answered, 'result')).toBe(answered);
  });
});

describe('trimHeadTail', () => {
  const seg = (i: number, text: string, extra: Partial<RenderedSegment> = {}): RenderedSegment => ({
    start: i,
    end: i + 1,
    messages: [{ role: i % 2 ? 'assistant' : 'user', text }],
    shown: 0,
    listed: 0,
    markers: [],
    assistant: i % 2 === 1,
    userText: i % 2 === 0,
    ...extra,
  });
  const words = (n: number, w: string) => Array.from({ length: n }, (_, i) => `${w}${i}`).join(' ');

  it('within the budget: everything, no marker, no call, not over budget', async () => {
    const segments = [seg(0, 'request'), seg(1, 'plan')];
    const r = await trimHeadTail(segments, { budgetTokens: 10_000, middle: 'drop', summaryTokens: 0 });
    expect(r).toEqual({
      messages: segments.flatMap((s) => s.messages),
      kept: segments,
      middle: null,
      markers: [],
      calls: [],
      overBudget: false,
    });
  });

  it('one segment over the budget is kept whole and said to be over budget', async () => {
    const r = await trimHeadTail([seg(0, words(400, 'w'))], {
      budgetTokens: 50,
      middle: 'drop',
      summaryTokens: 0,
    });
    expect(r.messages).toHaveLength(1);
    expect(r).toMatchObject({ middle: null, markers: [], calls: [], overBudget: true });
  });

  it('drops the middle with a marker that counts its messages and calls (singular for one)', async () => {
    const segments = [
      seg(0, 'request'),
      seg(1, 'first plan'),
      seg(2, words(300, 'mid'), { shown: 1 }),
      seg(3, 'newest'),
    ];
    const budget =
      messagesTokens([...segments[0]!.messages, ...segments[1]!.messages, ...segments[3]!.messages]) + 60;
    const r = await trimHeadTail(segments, { budgetTokens: budget, middle: 'drop', summaryTokens: 0 });
    const marker = middleMarker(1, 1, false);
    expect(marker).toContain('1 message, 1 tool call;');
    expect(r.messages.map((m) => m.text)).toEqual(['request', 'first plan', marker, 'newest']);
    expect(r.middle).toEqual({ messages: 1, sourceMessages: 1, calls: 1 });
    expect(r.markers).toEqual([{ text: marker, kind: 'middle', dropped: 1 }]);
    expect(r.overBudget).toBe(false);
  });

  it('a head that cannot shrink and leaves no middle is over budget, every message kept', async () => {
    // The only request is in the last segment: the head shrinks to it, so nothing lies between head and tail.
    const segments = [seg(1, words(200, 'plan')), seg(2, words(200, 'ask'), { userText: true })];
    const r = await trimHeadTail(segments, { budgetTokens: 60, middle: 'drop', summaryTokens: 0 });
    expect(
      planCut(
        segments,
        segments.map((s) => messagesTokens(s.messages)),
        60 - 48,
      ).headEnd,
    ).toBe(2);
    expect(r).toMatchObject({ middle: null, markers: [], calls: [], overBudget: true });
    expect(r.messages).toHaveLength(2);
  });
});

describe('frameworks/shared', () => {
  it('answerPending: contents go to the first call and the others point at it when counts differ', () => {
    const history: ChatMessage[] = [
      { role: 'assistant', toolCalls: [call('s1', 'Task'), call('s2', 'Task')] },
    ];
    expect(answerPending(history, ['one', 'two', 'three']).at(-1)!.toolResults).toEqual([
      { callId: 's1', content: 'one\n\ntwo\n\nthree' },
      { callId: 's2', content: '(returned together with the result of call s1)' },
    ]);
    expect(
      answerPending(history, ['one', 'two'])
        .at(-1)!
        .toolResults!.map((r) => r.content),
    ).toEqual(['one', 'two']);
  });

  it('answerPending: with nothing handed over, every pending call says so', () => {
    const history: ChatMessage[] = [
      { role: 'assistant', toolCalls: [call('s1', 'Task'), call('s2', 'Task')] },
    ];
    expect(
      answerPending(history, [])
        .at(-1)!
        .toolResults!.map((r) => r.content),
    ).toEqual([
      "(this call's result is not part of the handoff)",
      "(this call's result is not part of the handoff)",
    ]);
  });

  it('functionStyle: a run of spaces is one underscore', () => {
    expect(functionStyle('  Research   Agent ')).toBe('research_agent');
    expect(functionStyle('Billing-Bot v2')).toBe('billing_bot_v2');
  });

  it("lastMessageText: the last assistant's text, '' when it has none", () => {
    const t = session([
      { role: 'assistant', text: 'the answer' },
      { role: 'user', text: 'thanks' },
    ]);
    expect(lastMessageText(t)).toBe('the answer');
    expect(lastMessageText(session([{ role: 'assistant', toolCalls: [call('a')] }]))).toBe('');
    expect(lastMessageText(session([{ role: 'user', text: 'only a request' }]))).toBe('');
  });

  it('pyJson spells what json.dumps spells, NaN and the infinities included', () => {
    expect(pyJson({ a: 1, b: 1.5, c: [true, null, 'x'], d: undefined })).toBe(
      '{"a": 1, "b": 1.5, "c": [true, null, "x"]}',
    );
    expect(pyJson([NaN, Infinity, -Infinity, -2])).toBe('[NaN, Infinity, -Infinity, -2]');
  });

  it('framingFor: parent for a return, child for a spawn, continuity otherwise', () => {
    const t = session([{ role: 'user', text: 'go' }]);
    const framing = (direction: 'return' | 'spawn' | 'escalation') =>
      framingFor(contextFor(caseOf(t, { direction })));
    expect(framing('return')).toBe(framings.parent);
    expect(framing('spawn')).toBe(framings.child);
    expect(framing('escalation')).toBe(framings.continuity);
  });

  it('endedSessions: a spawn hands over the parent up to its spawn call, nothing after it', () => {
    const t = session([
      { role: 'user', text: 'do it' },
      { role: 'assistant', text: 'spawning', toolCalls: [call('sp', 'Task')] },
      { role: 'user', toolResults: [{ callId: 'sp', content: 'child said' }] },
      { role: 'assistant', text: 'AFTER THE SPAWN' },
    ]);
    const spawned = endedSessions(contextFor(caseOf(t, { direction: 'spawn', spawnCallId: 'sp' })));
    expect(spawned).toHaveLength(1);
    expect(JSON.stringify(spawned[0]!.messages)).not.toContain('AFTER THE SPAWN');
    const escalated = endedSessions(contextFor(caseOf(t)));
    expect(escalated[0]!.messages).toHaveLength(4);
  });

  it('withoutTools drops calls, results and messages left without text (an empty string is none)', () => {
    expect(
      withoutTools([
        { role: 'assistant', text: '', toolCalls: [call('a')] },
        { role: 'user', toolResults: [{ callId: 'a', content: 'r' }] },
        { role: 'assistant', text: 'done', toolCalls: [call('b')] },
      ]),
    ).toEqual([{ role: 'assistant', text: 'done' }]);
  });

  it("lastMsgSummary: '' for an empty session, TERMINATE removed, a tool message's results joined", () => {
    expect(lastMsgSummary(session([]))).toBe('');
    expect(lastMsgSummary(session([{ role: 'assistant', text: 'all done TERMINATE' }]))).toBe('all done ');
    expect(
      lastMsgSummary(
        session([
          {
            role: 'user',
            toolResults: [
              { callId: 'a', content: 'one' },
              { callId: 'b', content: 'two' },
            ],
          },
        ]),
      ),
    ).toBe('one\n\ntwo');
  });

  it('maskObservations: an empty result is masked as zero lines', () => {
    const messages: ChatMessage[] = [
      { role: 'assistant', toolCalls: [call('a'), call('b')] },
      {
        role: 'user',
        toolResults: [
          { callId: 'a', content: '' },
          { callId: 'b', content: 'l1\nl2' },
        ],
      },
    ];
    const masked = maskObservations(messages, 0);
    const contents = masked.messages.at(-1)!.toolResults!.map((r) => r.content);
    expect(contents).toEqual([maskedObservation(0), maskedObservation(2)]);
    expect(masked.markers.map((m) => m.dropped)).toEqual([0, 2]);
  });

  it("trailer: a recorded usage that is not a finite number is replaced by the session's own count", () => {
    const child = session([{ role: 'assistant', text: 'done' }], {
      meta: { agentId: 'a1', totalTokens: 'many', totalDurationMs: Number.NaN },
    });
    const text = trailer(child);
    expect(text).toContain(`total_tokens: ${messagesTokens(child.messages)}\n`);
    expect(text).toContain('duration_ms: 0</usage>');
    expect(trailer({ ...child, meta: { agentId: 'a1', totalTokens: 1234, totalDurationMs: 56 } })).toContain(
      'total_tokens: 1234\ntool_uses: 0\nduration_ms: 56</usage>',
    );
  });

  it('isResearchResult says yes to a valid record and no to a broken one', () => {
    expect(isResearchResult(validRecord())).toBe(true);
    expect(isResearchResult({ ...validRecord(), findings: 'none' })).toBe(false);
  });
});

describe('finishHandoff', () => {
  it("a default payload is the messages after the receiver's own history, one blank line between them", () => {
    const parent = session([
      { role: 'user', text: 'PARENT REQUEST' },
      { role: 'assistant', text: 'PARENT PLAN' },
    ]);
    const ctx = contextFor(caseOf(session([]), { direction: 'return', receiverHistory: parent }));
    const own: ChatMessage[] = parent.messages.map((m) => ({ role: m.role, text: m.text }));
    const h = finishHandoff(ctx, {
      system: 's',
      messages: [...own, { role: 'user', text: 'CHILD FOUND' }, { role: 'assistant', text: 'NOTED' }],
    });
    expect(h.payload).not.toContain('PARENT');
    expect(h.payload).toBe('[user]\nCHILD FOUND\n\n[assistant]\nNOTED');
    // Fewer messages than the history: nothing was appended to it, so all of them are the payload.
    const short = finishHandoff(ctx, { system: 's', messages: [{ role: 'user', text: 'ONLY' }] });
    expect(short.payload).toContain('ONLY');
  });
});
