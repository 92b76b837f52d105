import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importTranscript } from '../../harness/importers/index.ts';
import type { Transcript } from '../../harness/core/index.ts';
import { replayable } from '../../strategies/compose.ts';
import { adjacencyProblems } from '../support/adjacency.ts';
import { jsonl, tempFiles } from './shared-transcripts.ts';

/**
 * Synthetic rollouts in the shape codex-rs writes (protocol.rs `ExecCommandEndEvent {call_id,
 * process_id, exit_code}`; unified exec's `exec_command` / `write_stdin {session_id}` tools and their
 * "Process running with session ID N" / "Process exited with code N" output header).
 */
const write = (name: string, content: string): string => join(tempFiles({ [name]: content }), name);
const item = (payload: Record<string, unknown>) => ({ timestamp: 't', type: 'response_item', payload });
const event = (payload: Record<string, unknown>) => ({ timestamp: 't', type: 'event_msg', payload });
const call = (id: string, name: string, args: Record<string, unknown>) =>
  item({ type: 'function_call', call_id: id, name, arguments: JSON.stringify(args) });
const out = (id: string, output: string) => item({ type: 'function_call_output', call_id: id, output });
const results = (t: Transcript) => t.messages.flatMap((m) => m.toolResults ?? []);
const user = (text: string) =>
  item({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] });

const running = (n: number) =>
  `Chunk ID: a\nWall time: 1.0 seconds\nProcess running with session ID ${n}\nOutput:\n`;
const exited = (c: number) =>
  `Chunk ID: b\nWall time: 0.2 seconds\nProcess exited with code ${c}\nOutput:\nboom\n`;

describe('Codex exit codes are attributed by session (issue 28 item 2)', () => {
  it('flags the write_stdin result that reports the exit, not the "running" exec_command result', () => {
    const file = write(
      'r.jsonl',
      jsonl(
        user('build it'),
        call('e1', 'exec_command', { cmd: 'npm run build', yield_time_ms: 1000 }),
        out('e1', running(42)),
        call('e2', 'exec_command', { cmd: 'sleep 9; false' }),
        out('e2', running(7)),
        call('w1', 'write_stdin', { session_id: 42, chars: '' }),
        out('w1', running(42)),
        call('w2', 'write_stdin', { session_id: 7, chars: '' }),
        event({ type: 'exec_command_end', call_id: 'e2', process_id: '7', exit_code: 1 }),
        out('w2', exited(1)),
        call('w3', 'write_stdin', { session_id: 42, chars: '' }),
        // An older writer without process_id: the session is read from the exec result's header.
        event({ type: 'exec_command_end', call_id: 'e1', exit_code: 2 }),
        out('w3', exited(2)),
        call('e3', 'exec_command', { cmd: 'false' }),
        event({ type: 'exec_command_end', call_id: 'e3', exit_code: 1 }),
        out('e3', exited(1)),
        call('e4', 'exec_command', { cmd: 'true' }),
        event({ type: 'exec_command_end', call_id: 'e4', exit_code: 0 }),
        out('e4', exited(0)),
      ),
    );
    const { transcript, stats } = importTranscript(file);
    expect(results(transcript).map((r) => [r.callId, r.isError ?? false])).toEqual([
      ['e1', false],
      ['e2', false],
      ['w1', false],
      ['w2', true],
      ['w3', true],
      ['e3', true],
      ['e4', false],
    ]);
    expect(stats.errors).toBe(3);
  });
});

describe("Codex's injected context (issue 28 item 6)", () => {
  it('keeps AGENTS.md and the environment context as system text, not user turns', () => {
    const file = write(
      'r.jsonl',
      jsonl(
        {
          timestamp: 't',
          type: 'session_meta',
          payload: { id: 's', base_instructions: { text: 'You are Codex.' } },
        },
        user('# AGENTS.md instructions for /w\n\n<INSTRUCTIONS>Use pnpm.</INSTRUCTIONS>'),
        user('<environment_context>\n  <cwd>/w</cwd>\n</environment_context>'),
        user('fix it'),
        item({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'ok' }] }),
      ),
    );
    const { transcript, stats } = importTranscript(file);
    expect(transcript.messages.map((m) => m.text)).toEqual(['fix it', 'ok']);
    const system = transcript.meta?.system as string;
    expect(system).toContain('You are Codex.');
    expect(system).toContain('Use pnpm.');
    expect(system).toContain('<cwd>/w</cwd>');
    expect(stats.skipped).toMatchObject({ user_instructions: 1, environment_context: 1 });
  });
});

describe('Codex web search calls sharing a message with function calls (issue 28 item 1)', () => {
  it('replays every answered call next to its result; the unanswered search is narrated after them', async () => {
    const file = write(
      'r.jsonl',
      jsonl(
        user('look it up'),
        item({
          type: 'web_search_call',
          id: 'ws1',
          status: 'completed',
          action: { type: 'search', query: 'q' },
        }),
        call('c1', 'exec_command', { cmd: 'ls' }),
        call('c2', 'exec_command', { cmd: 'pwd' }),
        out('c1', exited(0)),
        out('c2', exited(0)),
        item({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'done' }] }),
      ),
    );
    const { transcript } = importTranscript(file);
    const replayed = replayable(transcript.messages);
    expect(adjacencyProblems(replayed)).toEqual([]);
    expect(replayed.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'system', 'assistant']);
  });
});
