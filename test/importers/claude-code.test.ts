import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ImportError } from '../../harness/core/errors.ts';
import { importTranscript } from '../../harness/importers/index.ts';
import { assistant, result, session, text, use, user } from './fixtures.ts';
import { pairingProblems } from './invariants.ts';
import { jsonl, tempFiles } from './shared-transcripts.ts';

describe('Claude Code compaction and noise', () => {
  it('compact_boundary + isCompactSummary become ONE compacted message; earlier turns stay as recorded', () => {
    const dir = tempFiles({
      's.jsonl': jsonl(
        user('old task'),
        assistant('m1', text('old answer')),
        {
          type: 'system',
          subtype: 'compact_boundary',
          content: 'Conversation compacted',
          sessionId: session,
          compactMetadata: { trigger: 'auto' },
        },
        user('This session is being continued… Summary: did X.', {
          isCompactSummary: true,
          isVisibleInTranscriptOnly: true,
        }),
        user('next task'),
      ),
    });
    const { transcript } = importTranscript(join(dir, 's.jsonl'));
    expect(transcript.messages.map((m) => [m.text, m.compacted ?? false])).toEqual([
      ['old task', false],
      ['old answer', false],
      ['This session is being continued… Summary: did X.', true],
      ['next task', false],
    ]);
    expect(transcript.meta?.compactions).toBe(1);
  });

  it('summary lines are session titles (meta), not compactions, and never split a response', () => {
    // Claude Code writes {"type":"summary","summary":<title>,"leafUuid"} to title a conversation branch;
    // it can land between the lines of one streamed response. Compaction is the isCompactSummary line.
    const title = (summary: string) => ({ type: 'summary', summary, leafUuid: 'u2' });
    const dir = tempFiles({
      's.jsonl': jsonl(
        title('Fixing the login bug'),
        user('please fix the login bug'),
        assistant('m1', text('Looking at it.')),
        title('Login bug: session cookie'),
        assistant('m1', use('c1')),
        user([result('c1')]),
        title('Fixing the login bug'),
        assistant('m2', text('Fixed.')),
      ),
    });
    const { transcript, stats } = importTranscript(join(dir, 's.jsonl'));
    expect(transcript.messages.some((m) => m.compacted)).toBe(false);
    expect(transcript.meta?.compactions).toBeUndefined();
    expect(transcript.messages.map((m) => [m.role, m.text, m.toolCalls?.length ?? 0])).toEqual([
      ['user', 'please fix the login bug', 0],
      ['assistant', 'Looking at it.', 1],
      ['user', undefined, 0],
      ['assistant', 'Fixed.', 0],
    ]);
    expect(transcript.meta?.titles).toEqual(['Fixing the login bug', 'Login bug: session cookie']);
    expect(stats.skipped).toEqual({ summary: 3 });
  });

  it('a v1 isCompactSummary line with no boundary is a compaction of its own', () => {
    const dir = tempFiles({
      's.jsonl': jsonl(
        { type: 'summary', summary: 'Old work', leafUuid: 'x' },
        user('This session is being continued from a previous conversation… Summary: X.', {
          isCompactSummary: true,
        }),
        user('go on'),
      ),
    });
    const { transcript } = importTranscript(join(dir, 's.jsonl'));
    expect(transcript.messages.map((m) => [m.text?.slice(0, 20), m.compacted ?? false])).toEqual([
      ['This session is bein', true],
      ['go on', false],
    ]);
    expect(transcript.meta?.compactions).toBe(1);
  });

  it('a result Claude Code cleared is marked cleared; an empty result is not', () => {
    const dir = tempFiles({
      's.jsonl': jsonl(
        user('go'),
        assistant('m1', use('c1')),
        assistant('m1', use('c2')),
        user([result('c1', '[Old tool result content cleared]')]),
        user([result('c2', '')]),
      ),
    });
    const { transcript } = importTranscript(join(dir, 's.jsonl'));
    expect(transcript.messages[2]!.toolResults).toEqual([
      { callId: 'c1', content: '[Old tool result content cleared]', cleared: true },
      { callId: 'c2', content: '' },
    ]);
  });

  it('noise is skipped and counted by kind; wrappers are stripped from real user text', () => {
    const dir = tempFiles({
      's.jsonl': jsonl(
        { type: 'permission-mode', permissionMode: 'default', sessionId: session },
        { type: 'file-history-snapshot', messageId: 'x', snapshot: {} },
        user(
          '<command-message>review</command-message>\n<command-name>/review</command-name>\n<command-args>PR 12</command-args>',
        ),
        user([text('Expanded slash command prompt…')], { isMeta: true }),
        user('<system-reminder>be nice</system-reminder>'),
        user([text('<ide_opened_file>a.ts</ide_opened_file>'), text('fix the bug')]),
        { type: 'attachment', attachment: { type: 'hook_success' }, sessionId: session },
        assistant('m1', { type: 'thinking', thinking: '…', signature: 'sig' }),
        assistant('m1', text('on it')),
        { type: 'system', subtype: 'away_summary', content: 'Recap: fixing the bug.', sessionId: session },
        { type: 'queue-operation', operation: 'enqueue', sessionId: session },
      ),
    });
    const { transcript, stats } = importTranscript(join(dir, 's.jsonl'));
    expect(transcript.messages.map((m) => m.text)).toEqual(['/review PR 12', 'fix the bug', 'on it']);
    expect(stats.skipped).toEqual({
      'permission-mode': 1,
      'file-history-snapshot': 1,
      command_wrapper: 1,
      meta_user_line: 1,
      system_reminder: 1,
      ide_context: 1,
      'attachment:hook_success': 1,
      thinking: 1,
      'system:away_summary': 1,
      'queue-operation': 1,
    });
    expect(transcript.meta?.awaySummaries).toEqual(['Recap: fixing the bug.']);
  });
});

describe('Claude Code subagents', () => {
  const parent = (agentId?: string) =>
    jsonl(
      user('research'),
      assistant(
        'm1',
        use('spawn1', 'Task', {
          description: 'look',
          subagent_type: 'general-purpose',
          prompt: 'Find the thing.',
        }),
      ),
      user(
        [result('spawn1', [text('Found it.')])],
        agentId ? { toolUseResult: { agentId, status: 'completed' } } : {},
      ),
      assistant('m2', text('Child says found.')),
    );
  /** A subagent chain: sidechain lines threaded by parentUuid from a root with parentUuid null. */
  const child = (prompt = 'Find the thing.') => {
    const lines = [
      user(prompt),
      assistant('c1', use('k1', 'Grep')),
      user([result('k1')]),
      assistant('c2', text('Found it.')),
    ];
    lines.forEach((l, i) =>
      Object.assign(l, { isSidechain: true, parentUuid: i === 0 ? null : lines[i - 1]!.uuid }),
    );
    return jsonl(...lines);
  };

  it('v2.1: <session>/subagents/agent-<id>.jsonl linked by toolUseResult.agentId, .meta.json merged', () => {
    const dir = tempFiles({
      'sess-1.jsonl': parent('abc'),
      // A different prompt proves the link is the agentId, not the text.
      'sess-1/subagents/agent-abc.jsonl': child('Reworded prompt.'),
      'sess-1/subagents/agent-abc.meta.json': JSON.stringify({
        agentType: 'general-purpose',
        description: 'look',
      }),
      'sess-1/subagents/agent-acompact-1.jsonl': child('Summarise the conversation'),
    });
    for (const path of [join(dir, 'sess-1.jsonl'), join(dir, 'sess-1'), dir]) {
      const { transcript, stats } = importTranscript(path);
      const kid = transcript.children!.spawn1!;
      expect(kid.meta).toMatchObject({ agentId: 'abc', agentType: 'general-purpose', spawnedBy: 'spawn1' });
      expect(kid.agents).toEqual({ 'general-purpose-1': { role: 'child', model: 'claude-test' } });
      expect(transcript.agents.main?.role).toBe('parent');
      expect(stats).toMatchObject({
        children: 1,
        toolCalls: 2,
        pairedResults: 2,
        skipped: { unlinked_subagent: 1 },
      });
      expect(transcript.meta?.unlinkedSubagents).toEqual(['acompact-1']);
      expect(pairingProblems(transcript, stats)).toEqual([]);
    }
  });

  it('v2.0: agent-<id>.jsonl next to the session, same sessionId, linked by prompt', () => {
    const other = jsonl(
      user('Find the thing.', { isSidechain: true, parentUuid: null, sessionId: 'someone-else' }),
    );
    const dir = tempFiles({ 'sess-1.jsonl': parent(), 'agent-x1.jsonl': child(), 'agent-x2.jsonl': other });
    const { transcript, stats } = importTranscript(join(dir, 'sess-1.jsonl'));
    expect(transcript.children!.spawn1!.meta).toMatchObject({ agentId: 'x1' });
    // agent-x2 belongs to another session: not ours, so neither linked nor counted.
    expect(stats.children).toBe(1);
    expect(stats.skipped.unlinked_subagent).toBeUndefined();
  });

  it('v1: inline sidechain linked by root prompt; a subagent file alone imports as its own session', () => {
    const dir = tempFiles({ 's.jsonl': parent() + child(), 'solo/agent-solo.jsonl': child() });
    const { transcript, stats } = importTranscript(join(dir, 's.jsonl'));
    expect(transcript.messages).toHaveLength(4);
    expect(transcript.children!.spawn1!.messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
    expect(stats).toMatchObject({ messages: 8, children: 1 });
    const solo = importTranscript(join(dir, 'solo/agent-solo.jsonl'));
    expect(solo.stats).toMatchObject({ messages: 4, children: 0 });
  });

  it('a subagent that ran but whose file is missing is counted and named, in both v2 layouts (issue 28 item 4)', () => {
    // v2.1 keeps subagents in <session>/subagents/, v2.0 beside the session: here neither file is there.
    for (const files of [
      { 'sess-1.jsonl': parent('abc'), 'sess-1/subagents/.keep': '' } as Record<string, string>,
      { 'sess-1.jsonl': parent('abc') },
    ]) {
      const { transcript, stats } = importTranscript(join(tempFiles(files), 'sess-1.jsonl'));
      expect(stats.children).toBe(0);
      expect(stats.skipped).toMatchObject({ subagent_file_missing: 1 });
      expect(transcript.meta?.missingSubagents).toEqual(['abc']);
    }
    // v1 (no agentId on the result): a Task call answered without its sidechain lines is missing too.
    const v1 = importTranscript(join(tempFiles({ 's.jsonl': parent() }), 's.jsonl'));
    expect(v1.stats.skipped).toMatchObject({ subagent_file_missing: 1 });
    expect(v1.transcript.meta?.missingSubagents).toEqual(['spawn1']);
  });

  it('a Task call refused before it ran spawned nothing: not counted as missing', () => {
    const refused = jsonl(
      user('research'),
      assistant('m1', use('spawn1', 'Task', { description: 'look', prompt: 'Find the thing.' })),
      user([{ ...result('spawn1', [text('The user rejected this tool use.')]), is_error: true }]),
    );
    const { stats } = importTranscript(join(tempFiles({ 's.jsonl': refused }), 's.jsonl'));
    expect(stats.skipped.subagent_file_missing).toBeUndefined();
  });

  it('a directory with several sessions is an error naming them', () => {
    const dir = tempFiles({ 'a.jsonl': parent(), 'b.jsonl': parent() });
    expect(() => importTranscript(dir)).toThrow(ImportError);
    expect(() => importTranscript(dir)).toThrow(/holds 2 sessions \(a\.jsonl, b\.jsonl\)/);
  });
});
