import { describe, expect, it } from 'vitest';
import { readdirSync, statSync } from 'node:fs';
import type { ChatMessage, ModelRequest } from '../../harness/core/index.ts';
import { toAnthropicBody } from '../../harness/providers/wire-anthropic.ts';
import { toOpenAIBody } from '../../harness/providers/wire-openai.ts';
import { normalizeMessages } from '../../harness/providers/wire-shared.ts';
import { importTranscript } from '../../harness/importers/index.ts';
import { checkAnthropic, checkOpenAI } from '../support/mock-llm-wire.ts';
import { shared, sharedLabel, sharedMissing, transcriptsDir } from '../importers/shared-transcripts.ts';

const req = (messages: ChatMessage[], extra: Partial<ModelRequest> = {}): ModelRequest => ({
  purpose: 'answer',
  model: 'm',
  seed: '1/c/0/answer#0',
  maxTokens: 100,
  messages,
  ...extra,
});
const openai = (r: ModelRequest) => toOpenAIBody(r, { tokenField: 'max_tokens', sendSeed: false });

/** A parent that spawned a child, narration lines from a primary, and the task — the shapes strategies hand over. */
const handoff: ChatMessage[] = [
  { role: 'user', text: 'Will any merchants break?' },
  {
    role: 'assistant',
    text: 'Spawning a research child.',
    toolCalls: [{ id: 'spawn.1', name: 'spawn research', input: { brief: 'find them' } }],
  },
  {
    role: 'user',
    toolResults: [{ callId: 'spawn.1', content: 'CHILD RETURN: m_0007 and m_0013 pin 2023-10' }],
  },
  { role: 'system', text: '[primary called grep({"q":"2023-10"})]' },
  { role: 'system', text: '[result: adapters/paylane.ts:12]' },
  { role: 'user', text: 'Write the escalation answer.' },
];

describe('Anthropic wire mapping', () => {
  it('alternates roles, leads with tool_result, keeps narration as user text in place, and passes the API rules', () => {
    const body = toAnthropicBody(req(handoff, { system: 'You are the parent.' }));
    expect(checkAnthropic(body)).toBeUndefined();
    expect(body.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    const last = body.messages[2]!.content;
    expect(last[0]).toMatchObject({
      type: 'tool_result',
      tool_use_id: 'spawn_1',
      content: expect.stringContaining('CHILD RETURN'),
    });
    expect(last.slice(1).map((b) => (b as { text: string }).text)).toEqual([
      '[primary called grep({"q":"2023-10"})]',
      '[result: adapters/paylane.ts:12]',
      'Write the escalation answer.',
    ]);
    expect(body.system).toBe('You are the parent.');
  });

  it('puts cache_control on the last block of the shared prefix, even when the task merges into the same message', () => {
    const body = toAnthropicBody(req(handoff, { cachePrefix: 5 }));
    const marked = body.messages.flatMap((m) => m.content).filter((b) => b.cache_control);
    expect(marked).toHaveLength(1);
    expect(marked[0]).toMatchObject({ type: 'text', text: '[result: adapters/paylane.ts:12]' });
    expect(
      toAnthropicBody(req(handoff))
        .messages.flatMap((m) => m.content)
        .some((b) => b.cache_control),
    ).toBe(false);
  });

  it('declares the history tools as uncallable placeholders when the request defines none (the API requires tools)', () => {
    const body = toAnthropicBody(req(handoff));
    expect(body.tools?.map((t) => t.name)).toEqual(['spawn_research']);
    expect(body.tool_choice).toEqual({ type: 'none' });
  });

  it('maps tools and forced tool choice, with names the API accepts', () => {
    const body = toAnthropicBody(
      req([{ role: 'user', text: 'judge this' }], {
        tools: [{ name: 'submit.scores', description: 'd', inputSchema: { type: 'object' } }],
        toolChoice: { type: 'tool', name: 'submit.scores' },
        temperature: 0,
      }),
    );
    expect(body.tools).toEqual([
      { name: 'submit_scores', description: 'd', input_schema: { type: 'object' } },
    ]);
    expect(body.tool_choice).toEqual({ type: 'tool', name: 'submit_scores' });
    expect(body.temperature).toBe(0);
  });

  it('starts with a user turn when the history starts with the assistant', () => {
    const body = toAnthropicBody(
      req([
        { role: 'assistant', text: 'earlier' },
        { role: 'user', text: 'task' },
      ]),
    );
    expect(body.messages[0]!.role).toBe('user');
    expect(checkAnthropic(body)).toBeUndefined();
  });
});

describe('OpenAI wire mapping', () => {
  it('keeps narration as system messages in place and tool results as tool messages right after their call', () => {
    const body = openai(req(handoff, { system: 'You are the parent.' }));
    expect(checkOpenAI(body)).toBeUndefined();
    expect(body.messages.map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'system',
      'system',
      'user',
    ]);
    expect(body.messages[2]).toMatchObject({
      role: 'assistant',
      tool_calls: [
        {
          id: 'spawn_1',
          type: 'function',
          function: { name: 'spawn_research', arguments: '{"brief":"find them"}' },
        },
      ],
    });
    expect(body.max_tokens).toBe(100);
  });

  it('hoists tool messages above a user text that came first in the run', () => {
    const body = openai(
      req([
        { role: 'user', text: 'go' },
        {
          role: 'assistant',
          toolCalls: [
            { id: 'a', name: 't', input: {} },
            { id: 'b', name: 't', input: {} },
          ],
        },
        { role: 'user', text: 'note', toolResults: [{ callId: 'a', content: 'A' }] },
        { role: 'user', toolResults: [{ callId: 'b', content: 'B', isError: true }] },
      ]),
    );
    expect(checkOpenAI(body)).toBeUndefined();
    expect(body.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'user']);
    expect(body.messages[3]).toMatchObject({ tool_call_id: 'b', content: '(tool error) B' });
  });

  it('maps forced tool choice and the token field', () => {
    const body = toOpenAIBody(
      req([{ role: 'user', text: 'x' }], {
        tools: [{ name: 'submit_scores', description: 'd', inputSchema: { type: 'object' } }],
        toolChoice: { type: 'tool', name: 'submit_scores' },
      }),
      { tokenField: 'max_completion_tokens', sendSeed: true },
    );
    expect(body.tool_choice).toEqual({ type: 'function', function: { name: 'submit_scores' } });
    expect(body.max_completion_tokens).toBe(100);
    expect(body.max_tokens).toBeUndefined();
    expect(Number.isInteger(body.seed)).toBe(true);
  });
});

describe('tool pairing both formats need', () => {
  it('demotes an orphaned call and a stray result to text, keeping their content', () => {
    const out = normalizeMessages([
      { role: 'user', toolResults: [{ callId: 'ghost', content: 'stray result' }] },
      {
        role: 'assistant',
        text: 'working',
        toolCalls: [
          { id: 'c1', name: 'read', input: { p: 'a' } },
          { id: 'c2', name: 'grep', input: { q: 'b' } },
        ],
      },
      { role: 'user', toolResults: [{ callId: 'c1', content: 'A' }] },
      { role: 'user', text: 'task' },
    ]);
    expect(out[0]).toMatchObject({ text: expect.stringContaining('stray result') });
    expect(out[0]!.toolResults).toBeUndefined();
    expect(out[1]!.toolCalls?.map((c) => c.id)).toEqual(['c1']);
    expect(out[1]!.text).toContain('grep({"q":"b"}) — no result recorded');
    for (const body of [toAnthropicBody(req(out)), openai(req(out))]) expect('messages' in body).toBe(true);
    expect(checkAnthropic(toAnthropicBody(req(out)))).toBeUndefined();
    expect(checkOpenAI(openai(req(out)))).toBeUndefined();
  });

  it('treats consecutive assistant messages (split parallel calls) as one turn', () => {
    const out = normalizeMessages([
      { role: 'user', text: 'go' },
      { role: 'assistant', toolCalls: [{ id: 'a', name: 't', input: {} }] },
      { role: 'assistant', toolCalls: [{ id: 'b', name: 't', input: {} }] },
      {
        role: 'user',
        toolResults: [
          { callId: 'a', content: 'A' },
          { callId: 'b', content: 'B' },
        ],
      },
    ]);
    expect(out).toHaveLength(3);
    expect(out[1]!.toolCalls?.map((c) => c.id)).toEqual(['a', 'b']);
    expect(out[2]!.toolResults).toHaveLength(2);
  });

  it('sends a run of user text as one turn in both formats (strict servers want alternating roles)', () => {
    const messages: ChatMessage[] = [
      { role: 'user', text: 'go' },
      { role: 'assistant', toolCalls: [{ id: 'a', name: 't', input: {} }] },
      { role: 'user', toolResults: [{ callId: 'a', content: 'A' }] },
      { role: 'user', text: 'the parent follow-up' },
      { role: 'user', text: 'the research brief' },
    ];
    const o = openai(req(messages));
    expect(o.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(o.messages[3]).toEqual({ role: 'user', content: 'the parent follow-up\n\nthe research brief' });
    const a = toAnthropicBody(req(messages));
    expect(a.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(a.messages[2]!.content.map((b) => b.type)).toEqual(['tool_result', 'text', 'text']);
  });
});

describe(`every imported transcript maps onto both wire formats (${sharedLabel})`, () => {
  const files = sharedMissing
    ? []
    : readdirSync(transcriptsDir).filter((f) => !f.endsWith('.md') && statSync(shared(f)).isFile());
  it.skipIf(sharedMissing).each(files)('%s', (file) => {
    const { transcript } = importTranscript(shared(file));
    const messages: ChatMessage[] = [...transcript.messages, { role: 'user', text: 'Continue from here.' }];
    const r = req(messages, { cachePrefix: transcript.messages.length });
    const a = toAnthropicBody(r);
    expect(checkAnthropic(a)).toBeUndefined();
    expect(checkOpenAI(openai(r))).toBeUndefined();
    // Nothing dropped: every tool result's content is still in the request.
    const wire = JSON.stringify(a);
    for (const m of transcript.messages)
      for (const res of m.toolResults ?? [])
        expect(wire.includes(JSON.stringify(res.content).slice(1, 60))).toBe(true);
  });
});

describe('the mock enforces the rules it is trusted to check', () => {
  it('rejects what the real APIs reject', () => {
    const tu = { role: 'assistant', content: [{ type: 'tool_use', id: 'a', name: 't', input: {} }] };
    expect(
      checkAnthropic({ model: 'm', max_tokens: 1, messages: [{ role: 'assistant', content: 'x' }] }),
    ).toMatch(/first message/);
    expect(
      checkAnthropic({
        model: 'm',
        max_tokens: 1,
        tools: [{ name: 't' }],
        messages: [
          { role: 'user', content: 'x' },
          tu,
          { role: 'user', content: [{ type: 'text', text: 'y' }] },
        ],
      }),
    ).toMatch(/without tool_result/);
    expect(
      checkAnthropic({
        model: 'm',
        max_tokens: 1,
        messages: [
          { role: 'user', content: 'x' },
          tu,
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'a', content: 'r' }] },
        ],
      }),
    ).toMatch(/must define tools/);
    expect(
      checkAnthropic({
        model: 'm',
        max_tokens: 1,
        messages: [
          { role: 'user', content: 'x' },
          { role: 'user', content: 'y' },
        ],
      }),
    ).toMatch(/alternate/);
    expect(
      checkOpenAI({
        model: 'm',
        messages: [
          { role: 'user', content: 'x' },
          { role: 'assistant', content: null, tool_calls: [{ id: 'a' }] },
          { role: 'user', content: 'y' },
        ],
      }),
    ).toMatch(/must be followed by tool messages/);
    expect(
      checkOpenAI({ model: 'm', messages: [{ role: 'tool', tool_call_id: 'a', content: 'x' }] }),
    ).toMatch(/must be a response/);
  });
});
