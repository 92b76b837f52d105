import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importTranscript } from '../../harness/importers/index.ts';
import { scaffoldCase } from '../../cases/scaffold.ts';
import type { Transcript } from '../../harness/core/index.ts';
import { tempFiles } from './shared-transcripts.ts';

/**
 * A Gemini CLI ConversationRecord in the shape its ChatRecordingService writes (chatRecordingTypes.ts:
 * ToolCallRecord {id, name, args, result, status, timestamp}); recordToolCalls appends a later round's
 * calls to the last gemini record when no thought is queued, so one record holds three rounds here,
 * each stamped by geminiChat.recordCompletedToolCalls when its batch completed.
 */
const done = (output: string) => [{ functionResponse: { id: 'x', name: 'x', response: { output } } }];
const tc = (id: string, name: string, at: string, args: Record<string, unknown> = {}) => ({
  id,
  name,
  args,
  result: done(`${name} ok`),
  status: 'success',
  timestamp: `2026-01-05T10:00:${at}Z`,
});
const session = {
  sessionId: 's1',
  projectHash: 'p',
  startTime: '2026-01-05T10:00:00.000Z',
  lastUpdated: '2026-01-05T10:01:00.000Z',
  messages: [
    { id: 'u1', timestamp: '2026-01-05T10:00:00.000Z', type: 'user', content: 'plan and delegate' },
    {
      id: 'g1',
      timestamp: '2026-01-05T10:00:01.000Z',
      type: 'gemini',
      content: 'Splitting the work.',
      toolCalls: [
        tc('r1a', 'read_file', '01.000', { path: 'a' }),
        tc('r1b', 'delegate_to_agent', '01.001', { agent_name: 'investigator', objective: 'look' }),
        tc('r2a', 'write_todos', '09.500', { todos: [{ description: 'look', status: 'completed' }] }),
        tc('r3a', 'read_file', '15.250', { path: 'b' }),
        tc('r3b', 'read_file', '15.250', { path: 'c' }),
      ],
    },
    { id: 'g2', timestamp: '2026-01-05T10:00:20.000Z', type: 'gemini', content: 'All done.' },
  ],
};
const file = join(tempFiles({ 'session.json': JSON.stringify(session) }), 'session.json');
const callRounds = (t: Transcript) =>
  t.messages.filter((m) => m.toolCalls?.length).map((m) => m.toolCalls!.map((c) => c.id));

describe('Gemini CLI: one record, several model rounds (issue 28 item 3)', () => {
  it('splits the calls by completion timestamp, each round followed by its own results', () => {
    const { transcript, stats } = importTranscript(file);
    expect(callRounds(transcript)).toEqual([['r1a', 'r1b'], ['r2a'], ['r3a', 'r3b']]);
    expect(transcript.messages.map((m) => [m.role, m.text ?? '', m.toolResults?.length ?? 0])).toEqual([
      ['user', 'plan and delegate', 0],
      ['assistant', 'Splitting the work.', 0],
      ['user', '', 2],
      ['assistant', '', 0],
      ['user', '', 1],
      ['assistant', '', 0],
      ['user', '', 2],
      ['assistant', 'All done.', 0],
    ]);
    expect(stats).toMatchObject({ toolCalls: 5, pairedResults: 5, orphans: 0 });
  });

  it('a spawn case is built at delegate_to_agent and holds none of the later rounds', () => {
    const c = scaffoldCase({ file, task: 'investigate', direction: 'spawn' }) as {
      spawnCallId: string;
      source: Transcript;
    };
    expect(c.spawnCallId).toBe('r1b');
    const ids = c.source.messages.flatMap((m) => (m.toolCalls ?? []).map((x) => x.id));
    expect(ids).toEqual(['r1a', 'r1b']);
  });
});
