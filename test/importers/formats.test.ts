import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectFormat, importTranscript } from '../../harness/importers/index.ts';
import { pairingProblems } from './invariants.ts';
import { jsonl, tempFiles } from './shared-transcripts.ts';

const write = (name: string, content: string): string => join(tempFiles({ [name]: content }), name);

describe('OpenAI variants', () => {
  const messages = [
    { role: 'system', content: 'policy' },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'see' },
        { type: 'image_url', image_url: { url: 'x' } },
      ],
    },
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'k', type: 'function', function: { name: 'f', arguments: '{not json' } }],
    },
    { role: 'tool', tool_call_id: 'k', content: 'Error: bad arguments' },
  ];

  it.each([
    ['plain array', messages],
    ['{messages}', { model: 'gpt-x', messages }],
    ['τ-bench {traj}', { task_id: 3, reward: 1, traj: messages }],
  ])('%s: same transcript, system in meta, unparsable arguments kept raw', (_label, value) => {
    const file = write('c.json', JSON.stringify(value));
    expect(detectFormat(file)).toBe('openai');
    const { transcript, stats } = importTranscript(file);
    expect(transcript.meta?.system).toBe('policy');
    expect(transcript.messages[0]).toMatchObject({ role: 'user', text: 'see\n[image]' });
    expect(transcript.messages[1]!.toolCalls![0]!.input).toBe('{not json');
    // No error flag in the format: "Error: …" text stays a plain result.
    expect(transcript.messages[2]!.toolResults).toEqual([{ callId: 'k', content: 'Error: bad arguments' }]);
    expect(stats).toMatchObject({
      messages: 3,
      toolCalls: 1,
      pairedResults: 1,
      orphans: 0,
      skipped: { system: 1 },
    });
  });

  it('tells Anthropic from OpenAI by blocks and roles', () => {
    expect(
      detectFormat(
        write(
          'a.json',
          JSON.stringify([
            { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'x', content: 'y' }] },
          ]),
        ),
      ),
    ).toBe('anthropic');
    expect(
      detectFormat(
        write('b.json', JSON.stringify({ system: 's', messages: [{ role: 'user', content: 'hi' }] })),
      ),
    ).toBe('anthropic');
    expect(detectFormat(write('c.json', JSON.stringify([{ role: 'user', content: 'hi' }])))).toBe('openai');
  });
});

describe('Anthropic system prompt as text blocks', () => {
  it('joins the blocks into the transcript’s system text, as the string form gives it', () => {
    const messages = [
      { role: 'user', content: 'Which merchants pin 2023-10?' },
      { role: 'assistant', content: [{ type: 'text', text: 'Checking.' }] },
    ];
    const blocks = write(
      'blocks.json',
      JSON.stringify({
        model: 'claude-x',
        system: [
          { type: 'text', text: 'You are the billing agent.' },
          { type: 'text', text: 'Cite file:line.', cache_control: { type: 'ephemeral' } },
        ],
        messages,
      }),
    );
    expect(detectFormat(blocks)).toBe('anthropic');
    const { transcript, stats } = importTranscript(blocks);
    expect(transcript.meta?.system).toBe('You are the billing agent.\n\nCite file:line.');
    expect(stats.skipped).toMatchObject({ system: 1 });
    expect(transcript.messages.map((m) => m.text)).toEqual(['Which merchants pin 2023-10?', 'Checking.']);
    const plain = write('plain.json', JSON.stringify({ system: 'You are the billing agent.', messages }));
    expect(importTranscript(plain).transcript.meta?.system).toBe('You are the billing agent.');
  });
});

describe('inspect_ai', () => {
  const log = {
    version: 2,
    status: 'success',
    eval: { model: 'openai/test' },
    samples: [
      { id: 'first', messages: [{ role: 'user', content: 'one' }] },
      {
        id: 'second',
        messages: [
          { role: 'system', content: 'sys' },
          { role: 'user', content: [{ type: 'text', text: 'go' }] },
          {
            role: 'assistant',
            content: [
              { type: 'reasoning', reasoning: 'r' },
              { type: 'text', text: 'calling' },
            ],
            tool_calls: [{ id: 'c', function: 'bash', arguments: { cmd: 'ls' } }],
          },
          {
            role: 'tool',
            tool_call_id: 'c',
            function: 'bash',
            content: '',
            error: { type: 'timeout', message: 'timed out' },
          },
        ],
      },
    ],
  };

  it('--sample picks the sample; parts, reasoning and tool errors are mapped', () => {
    const { transcript, stats } = importTranscript(write('log.json', JSON.stringify(log)), { sample: 1 });
    expect(transcript.id).toBe('second');
    expect(transcript.messages[1]).toMatchObject({
      text: 'calling',
      toolCalls: [{ id: 'c', name: 'bash', input: { cmd: 'ls' } }],
    });
    expect(transcript.messages[2]!.toolResults).toEqual([
      { callId: 'c', content: 'timed out', isError: true },
    ]);
    expect(stats.skipped).toEqual({ system: 1, reasoning: 1 });
  });

  it('defaults to sample 0', () => {
    expect(importTranscript(write('log.json', JSON.stringify(log))).transcript.id).toBe('first');
  });
});

describe('OpenHands event stream', () => {
  const tcm = (id: string) => ({
    function_name: id === 't1' ? 'execute_bash' : 'str_replace_editor',
    tool_call_id: id,
    total_calls_in_response: 2,
    model_response: {
      id: 'r1',
      choices: [
        {
          message: {
            content: 'Looking.',
            tool_calls: [
              { id: 't1', function: { name: 'execute_bash', arguments: '{"command":"ls"}' } },
              { id: 't2', function: { name: 'str_replace_editor', arguments: '{"command":"bogus"}' } },
            ],
          },
        },
      ],
    },
  });
  const instance = (id: string) => ({
    instance_id: id,
    instruction: 'fix',
    metadata: { agent_class: 'CodeActAgent', llm_config: { model: 'llm-x' } },
    history: [
      { id: 0, source: 'agent', action: 'system', args: { content: 'sys' } },
      { id: 1, source: 'user', action: 'message', args: { content: `fix ${id}` } },
      {
        id: 2,
        source: 'agent',
        action: 'run',
        args: { command: 'ls', thought: 'Looking.' },
        tool_call_metadata: tcm('t1'),
      },
      { id: 3, source: 'agent', observation: 'run', cause: 2, content: 'a b', tool_call_metadata: tcm('t1') },
      { id: 4, source: 'agent', action: 'edit', args: { command: 'bogus' }, tool_call_metadata: tcm('t2') },
      { id: 5, source: 'agent', observation: 'error', cause: null, content: 'Parameter command is invalid' },
      { id: 6, source: 'environment', observation: 'agent_state_changed', cause: null, content: '' },
      { id: 7, source: 'agent', action: 'message', args: { content: 'Done.' } },
    ],
  });

  it('parallel actions of one model_response form one message; a cause-less error answers the unanswered preceding action', () => {
    const { transcript, stats } = importTranscript(write('out.jsonl', jsonl(instance('a'), instance('b'))));
    expect(transcript.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(transcript.messages[1]).toMatchObject({
      text: 'Looking.',
      toolCalls: [
        { id: 't1', input: { command: 'ls' } },
        { id: 't2', input: { command: 'bogus' } },
      ],
    });
    expect(transcript.messages[2]!.toolResults).toEqual([
      { callId: 't1', content: 'a b' },
      { callId: 't2', content: 'Parameter command is invalid', isError: true },
    ]);
    expect(stats).toMatchObject({ orphans: 0, skipped: { system: 1, 'observation:agent_state_changed': 1 } });
    expect(transcript.meta).toMatchObject({
      system: 'sys',
      instances: ['a', 'b'],
      orphanErrors: [{ event: 5, attachedTo: 't2', how: 'result' }],
    });
    expect(pairingProblems(transcript, stats)).toEqual([]);
  });

  it('--instance takes an instance_id or an index', () => {
    const file = write('out.jsonl', jsonl(instance('a'), instance('b')));
    expect(importTranscript(file, { instance: 'b' }).transcript.messages[0]!.text).toBe('fix b');
    expect(importTranscript(file, { instance: 1 }).transcript.messages[0]!.text).toBe('fix b');
    expect(() => importTranscript(file, { instance: 'zzz' })).toThrow(
      /no instance "zzz"; this file has 2: 0=a, 1=b/,
    );
  });
});
