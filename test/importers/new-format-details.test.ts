import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { zipSync, strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { importTranscript } from '../../harness/importers/index.ts';
import type { Transcript } from '../../harness/core/index.ts';
import { runCli } from '../support/cli.ts';
import { jsonl, tempFiles } from './shared-transcripts.ts';

const results = (t: Transcript) => t.messages.flatMap((m) => m.toolResults ?? []);
const calls = (t: Transcript) => t.messages.flatMap((m) => m.toolCalls ?? []);
const write = (name: string, content: string): string => join(tempFiles({ [name]: content }), name);

const item = (payload: Record<string, unknown>) => ({ timestamp: 't', type: 'response_item', payload });

describe('Codex rollout details', () => {
  const file = write(
    'rollout.jsonl',
    jsonl(
      {
        timestamp: 't',
        type: 'session_meta',
        payload: { id: 'sess', cli_version: '0.50', base_instructions: { text: 'You are Codex.' } },
      },
      { timestamp: 't', type: 'turn_context', payload: { model: 'gpt-5-codex', cwd: '/w' } },
      item({
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: '<environment_context>cwd</environment_context>' }],
      }),
      item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'fix it' }] }),
      { timestamp: 't', type: 'event_msg', payload: { type: 'user_message', message: 'fix it' } },
      item({
        type: 'reasoning',
        summary: [{ type: 'summary_text', text: 'thinking' }],
        encrypted_content: 'x',
      }),
      item({ type: 'reasoning', summary: [], encrypted_content: 'gAAA' }),
      item({
        type: 'local_shell_call',
        call_id: 'ls1',
        status: 'completed',
        action: { type: 'exec', command: ['ls'] },
      }),
      item({ type: 'custom_tool_call', call_id: 'p1', name: 'apply_patch', input: '*** Begin Patch' }),
      item({
        type: 'web_search_call',
        id: 'ws1',
        status: 'completed',
        action: { type: 'search', query: 'q' },
      }),
      item({ type: 'function_call_output', call_id: 'ls1', output: 'a.ts' }),
      item({ type: 'custom_tool_call_output', call_id: 'p1', output: 'Done!' }),
      {
        timestamp: 't',
        type: 'event_msg',
        payload: { type: 'exec_command_end', call_id: 'ls1', exit_code: 2 },
      },
      { timestamp: 't', type: 'compacted', payload: { message: 'summary of the work' } },
      item({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'done' }] }),
    ),
  );

  it('maps local shell, custom and web search calls; skips injected context, duplicates and reasoning', () => {
    const { transcript, stats } = importTranscript(file);
    expect(stats.format).toBe('codex');
    expect(
      transcript.messages.map((m) => [
        m.role,
        m.text ?? '',
        m.toolCalls?.length ?? 0,
        m.toolResults?.length ?? 0,
        m.compacted ?? false,
      ]),
    ).toEqual([
      ['user', 'fix it', 0, 0, false],
      ['assistant', '', 3, 0, false],
      ['user', '', 0, 2, false],
      ['user', 'summary of the work', 0, 0, true],
      ['assistant', 'done', 0, 0, false],
    ]);
    expect(calls(transcript).map((c) => c.name)).toEqual(['local_shell', 'apply_patch', 'web_search']);
    // The exit code of exec_command_end is the only structured failure signal; web search results are not recorded.
    expect(results(transcript).map((r) => [r.callId, r.isError ?? false])).toEqual([
      ['ls1', true],
      ['p1', false],
    ]);
    expect(stats).toMatchObject({ orphans: 1, errors: 1 });
    expect(transcript.agents.main?.model).toBe('gpt-5-codex');
    // Injected context the model saw is kept as system text after the base instructions (issue 28 item 6).
    expect(transcript.meta?.system).toBe('You are Codex.\n\n<environment_context>cwd</environment_context>');
    expect(stats.skipped).toMatchObject({
      environment_context: 1,
      duplicate_user_message: 1,
      reasoning: 1,
      reasoning_encrypted: 1,
      'event_msg:exec_command_end': 1,
    });
  });
});

describe('Responses API details', () => {
  it('a request with a string input and instructions, plus its response object', () => {
    const file = write(
      'r.json',
      JSON.stringify({
        responses_create_params: { input: 'what is 2+2?', instructions: 'Be brief.' },
        response: {
          id: 'resp_1',
          model: 'gpt-4.1',
          output: [
            { type: 'function_call', call_id: 'c1', name: 'calc', arguments: '{"x":"2+2"}' },
            { type: 'function_call_output', call_id: 'c1', output: [{ type: 'input_text', text: '4' }] },
            { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: '4' }] },
          ],
        },
      }),
    );
    const { transcript, stats } = importTranscript(file);
    expect(stats).toMatchObject({ format: 'responses', messages: 4, toolCalls: 1, pairedResults: 1 });
    expect(transcript.meta?.system).toBe('Be brief.');
    expect(calls(transcript)[0]?.input).toEqual({ x: '2+2' });
    expect(transcript.agents.main?.model).toBe('gpt-4.1');
  });
});

describe('Gemini CLI details', () => {
  it('JSONL: a repeated id replaces in place, $rewindTo drops the tail; a subagent file becomes a child', () => {
    const dir = tempFiles({});
    const meta = { sessionId: 'S', projectHash: 'h', startTime: 't', lastUpdated: 't' };
    const call = (id: string, status: string, extra: Record<string, unknown> = {}) => ({
      id,
      name: 'codebase_investigator',
      args: { objective: 'look' },
      status,
      timestamp: 't',
      result: [{ functionResponse: { id, name: 'codebase_investigator', response: { output: 'found it' } } }],
      ...extra,
    });
    writeFileSync(
      join(dir, 'session-x.jsonl'),
      jsonl(
        meta,
        { id: 'u1', timestamp: 't', type: 'user', content: [{ text: 'investigate' }] },
        { id: 'g1', timestamp: 't', type: 'gemini', content: '', toolCalls: [call('c1', 'executing')] },
        {
          id: 'g1',
          timestamp: 't',
          type: 'gemini',
          content: '',
          toolCalls: [call('c1', 'success', { agentId: 'A1' })],
        },
        { id: 'u2', timestamp: 't', type: 'user', content: 'oops' },
        { $rewindTo: 'u2' },
        { id: 'g2', timestamp: 't', type: 'gemini', content: 'Done.', model: 'gemini-2.5-pro' },
        { id: 'i1', timestamp: 't', type: 'info', content: 'note' },
      ),
    );
    const sub = join(dir, 'S');
    mkdirSync(sub);
    writeFileSync(
      join(sub, 'A1.jsonl'),
      jsonl(
        { sessionId: 'A1', projectHash: 'h', startTime: 't', lastUpdated: 't', kind: 'subagent' },
        { id: 'x1', timestamp: 't', type: 'user', content: 'look' },
        { id: 'x2', timestamp: 't', type: 'gemini', content: 'found it' },
      ),
    );
    const { transcript, stats } = importTranscript(join(dir, 'session-x.jsonl'));
    // g1's second record replaced the first (one call, now answered); u2 was rewound away.
    const shape = (m: Transcript['messages'][number]) =>
      m.text ?? (m.toolCalls ? `calls:${m.toolCalls.length}` : `results:${m.toolResults?.length ?? 0}`);
    expect(transcript.messages.map(shape)).toEqual(['investigate', 'calls:1', 'results:1', 'Done.']);
    expect(Object.keys(transcript.children ?? {})).toEqual(['c1']);
    expect(transcript.children!.c1!.agents).toEqual({ codebase_investigator: { role: 'child' } });
    expect(transcript.agents.main?.role).toBe('parent');
    expect(stats).toMatchObject({ children: 1, agents: 2, skipped: { rewind: 1, 'gemini:info': 1 } });
  });
});

describe('OpenHands resolver output (legacy history, positional pairing)', () => {
  it('flat actions and observations pair by position; the first message is the task', () => {
    const line = {
      issue: { owner: 'o', repo: 'r', number: 5, title: 't', body: 'b' },
      issue_type: 'issue',
      instruction: 'fix',
      base_commit: '',
      git_patch: '',
      history: [
        { content: 'Please fix the issue', action: 'message', wait_for_response: false },
        { command: 'ls', thought: 'Look first.', action: 'run', is_confirmed: 'confirmed' },
        { content: 'a.py', command: 'ls', exit_code: 0, observation: 'run' },
        [
          { code: 'print(1)', thought: '', action: 'run_ipython' },
          { content: '1', observation: 'run_ipython' },
        ],
        { outputs: {}, thought: 'Done.', action: 'finish' },
      ],
      metrics: null,
      success: true,
      comment_success: null,
      result_explanation: '',
      error: null,
    };
    const file = write('output.jsonl', jsonl(line, { ...line, issue: { ...line.issue, number: 6 } }));
    const { transcript, stats } = importTranscript(file);
    expect(stats).toMatchObject({ format: 'openhands', toolCalls: 3, pairedResults: 2, orphans: 1 });
    expect(transcript.id).toBe('o__r-5');
    expect(transcript.messages[0]).toMatchObject({ role: 'user', text: 'Please fix the issue' });
    expect(calls(transcript).map((c) => [c.name, c.input])).toEqual([
      ['run', { command: 'ls' }],
      ['run_ipython', { code: 'print(1)' }],
      ['finish', { outputs: {} }],
    ]);
    expect(importTranscript(file, { instance: 'o__r-6' }).transcript.id).toBe('o__r-6');
  });
});

describe('inspect .eval details', () => {
  it('reads header and samples from the zip, resolves attachment:// content, lists every sample', () => {
    const sample = (id: number, epoch: number) => ({
      id,
      epoch,
      attachments: { h1: 'the long tool output' },
      messages: [
        { role: 'user', content: `task ${id}` },
        {
          role: 'assistant',
          content: '',
          tool_calls: [{ id: 't1', function: 'bash', arguments: { cmd: 'ls' } }],
        },
        {
          role: 'tool',
          tool_call_id: 't1',
          content: 'attachment://h1',
          error: { type: 'timeout', message: 'x' },
        },
      ],
    });
    const zip = zipSync({
      'header.json': strToU8(JSON.stringify({ version: 2, eval: { model: 'anthropic/claude' } })),
      'samples/2_epoch_1.json': strToU8(JSON.stringify(sample(2, 1))),
      'samples/1_epoch_1.json': strToU8(JSON.stringify(sample(1, 1))),
    });
    const file = join(tempFiles({}), 'log.eval');
    writeFileSync(file, zip);
    const first = importTranscript(file).transcript;
    expect(first.messages[0]?.text).toBe('task 1');
    expect(results(first)[0]).toEqual({ callId: 't1', content: 'the long tool output', isError: true });
    expect(importTranscript(file, { sample: 1 }).transcript.messages[0]?.text).toBe('task 2');
    const r = runCli(['import', '--all', file, '--stats']);
    expect(r.code).toBe(0);
    expect(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).session),
    ).toEqual(['1', '2']);
  });
});

describe('formats we do not read, and known formats with no messages (exit 2)', () => {
  it('an unknown JSON shape lists the formats we read', () => {
    const r = runCli(['import', write('x.json', JSON.stringify({ hello: 'world' }))]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /claude-code, openai, anthropic, swe-agent, openhands, inspect, codex, responses, gemini/,
    );
  });

  it('a Gemini session with no messages fails', () => {
    const r = runCli([
      'import',
      write('s.json', JSON.stringify({ sessionId: 's', projectHash: 'h', messages: [] })),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no messages when read as gemini/);
    // The same way as a format we do not read: exit 2 and the formats we do.
    expect(r.stderr).toMatch(
      /the formats read are claude-code, openai, anthropic, swe-agent, openhands, inspect, codex, responses, gemini/,
    );
    const empty = runCli(['import', write('e.json', '[]')]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/no messages when read as \w+; the formats read are claude-code, /);
  });
});
