import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importTranscript } from '../../harness/importers/index.ts';
import { assistant, result, text, use, user } from './fixtures.ts';
import { pairingProblems } from './invariants.ts';
import { jsonl, tempFiles } from './shared-transcripts.ts';

function importLines(name: string, ...lines: unknown[]) {
  const dir = tempFiles({ [name]: jsonl(...lines) });
  return importTranscript(join(dir, name));
}

function importJson(name: string, value: unknown, from?: 'openai' | 'anthropic') {
  const dir = tempFiles({ [name]: JSON.stringify(value, null, 2) });
  return importTranscript(join(dir, name), from ? { from } : {});
}

describe('Claude Code pairing', () => {
  it('results interleaved between the tool_use lines of one message go after the whole message', () => {
    const { transcript, stats } = importLines(
      's.jsonl',
      user('go'),
      assistant('m1', text('two calls')),
      assistant('m1', use('c1')),
      user([result('c1')]),
      assistant('m1', use('c2')),
      user([result('c2')]),
      assistant('m2', text('done')),
    );
    expect(
      transcript.messages.map((m) => [
        m.role,
        m.text ?? '',
        (m.toolCalls ?? []).map((c) => c.id),
        (m.toolResults ?? []).map((r) => r.callId),
      ]),
    ).toEqual([
      ['user', 'go', [], []],
      ['assistant', 'two calls', ['c1', 'c2'], []],
      ['user', '', [], ['c1', 'c2']],
      ['assistant', 'done', [], []],
    ]);
    expect(stats).toMatchObject({ toolCalls: 2, pairedResults: 2, orphans: 0 });
    expect(pairingProblems(transcript, stats)).toEqual([]);
  });

  it('results out of call order still pair, in arrival order', () => {
    const { transcript, stats } = importLines(
      's.jsonl',
      user('go'),
      assistant('m1', use('c1')),
      assistant('m1', use('c2')),
      assistant('m1', use('c3')),
      user([result('c3')]),
      user([result('c1', 'boom', true)]),
      user([result('c2')]),
    );
    expect(transcript.messages[2]!.toolResults).toEqual([
      { callId: 'c3', content: 'out of c3' },
      { callId: 'c1', content: 'boom', isError: true },
      { callId: 'c2', content: 'out of c2' },
    ]);
    expect(stats).toMatchObject({ pairedResults: 3, orphans: 0 });
  });

  it('an unanswered call and a result without a call are both counted as orphans, never dropped', () => {
    const { transcript, stats } = importLines(
      's.jsonl',
      user('go'),
      assistant('m1', use('c1')),
      user([result('ghost')]),
      assistant('m2', use('c2')),
      user([result('c2')]),
    );
    expect(stats).toMatchObject({ toolCalls: 2, pairedResults: 1, orphans: 2 });
    expect(transcript.messages.flatMap((m) => m.toolResults ?? []).map((r) => r.callId)).toEqual([
      'ghost',
      'c2',
    ]);
    expect(pairingProblems(transcript, stats)).toEqual([]);
  });
});

describe('OpenAI pairing', () => {
  it('parallel tool_calls answered in swapped order land in one result carrier', () => {
    const { transcript, stats } = importJson('chat.json', [
      { role: 'user', content: 'weather?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'a', type: 'function', function: { name: 'w', arguments: '{"city":"Oslo"}' } },
          { id: 'b', type: 'function', function: { name: 'w', arguments: '{"city":"Rome"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'b', content: 'sunny' },
      { role: 'tool', tool_call_id: 'a', content: 'rain' },
      { role: 'assistant', content: 'Rain in Oslo, sun in Rome.' },
    ]);
    expect(transcript.messages).toHaveLength(4);
    expect(transcript.messages[1]!.toolCalls!.map((c) => c.input)).toEqual([
      { city: 'Oslo' },
      { city: 'Rome' },
    ]);
    expect(transcript.messages[2]!.toolResults).toEqual([
      { callId: 'b', content: 'sunny' },
      { callId: 'a', content: 'rain' },
    ]);
    expect(stats).toMatchObject({ pairedResults: 2, orphans: 0 });
  });

  it('legacy function_call / role function pair by name, in order', () => {
    const { transcript, stats } = importJson('legacy.json', [
      { role: 'user', content: 'x' },
      { role: 'assistant', content: null, function_call: { name: 'f', arguments: '{}' } },
      { role: 'function', name: 'f', content: 'one' },
    ]);
    expect(transcript.messages[2]!.toolResults![0]!.callId).toBe(transcript.messages[1]!.toolCalls![0]!.id);
    expect(stats.orphans).toBe(0);
  });
});

describe('Anthropic pairing', () => {
  it('tool_use ↔ tool_result blocks; list results joined with images as [image]', () => {
    const { transcript, stats } = importJson('anth.json', {
      system: 'be brief',
      messages: [
        { role: 'user', content: 'look' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'hm', signature: 's' },
            { type: 'tool_use', id: 't1', name: 'shot', input: { url: 'u' } },
          ],
        },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 't1',
              content: [
                { type: 'text', text: 'page' },
                { type: 'image', source: {} },
              ],
            },
          ],
        },
      ],
    });
    expect(transcript.messages[2]!.toolResults).toEqual([{ callId: 't1', content: 'page\n[image]' }]);
    expect(transcript.meta?.system).toBe('be brief');
    expect(stats).toMatchObject({
      format: 'anthropic',
      pairedResults: 1,
      orphans: 0,
      skipped: { thinking: 1, system: 1 },
    });
  });
});

describe('SWE-agent pairing', () => {
  it('a reused call id pairs each observation with the call right before it', () => {
    const call = (id: string, cmd: string) => ({
      id,
      type: 'function',
      function: { name: 'bash', arguments: JSON.stringify({ command: cmd }) },
    });
    const { transcript, stats } = importJson('x.traj', {
      trajectory: [],
      info: {},
      history: [
        { role: 'system', content: 'sys', agent: 'main' },
        { role: 'user', content: 'issue', agent: 'main' },
        { role: 'assistant', content: 'first', agent: 'main', tool_calls: [call('dup', 'ls')] },
        { role: 'tool', content: 'files', agent: 'main', tool_call_ids: ['dup'] },
        { role: 'assistant', content: 'again', agent: 'main', tool_calls: [call('dup', 'pwd')] },
        { role: 'tool', content: '/testbed', agent: 'main', tool_call_ids: ['dup'] },
      ],
    });
    const results = transcript.messages.flatMap((m) => m.toolResults ?? []);
    expect(results).toEqual([
      { callId: 'dup', content: 'files' },
      { callId: 'dup#2', content: '/testbed' },
    ]);
    expect(pairingProblems(transcript, stats)).toEqual([]);
  });
});
