import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectFormat, importTranscript } from '../../harness/importers/index.ts';
import { runCli } from '../support/cli.ts';
import { jsonl, tempFiles } from './shared-transcripts.ts';

/** A JSONL whose lines carry `type` but are not Claude Code lines (a Codex CLI rollout's shape). */
const rollout = jsonl(
  { timestamp: 't0', type: 'session_meta', payload: { id: 's1', cli_version: '0.1' } },
  {
    timestamp: 't1',
    type: 'response_item',
    payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] },
  },
  {
    timestamp: 't2',
    type: 'response_item',
    payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'hello' }] },
  },
);

describe('a file of another format (issue 13)', () => {
  it('--from claude-code on a file with no Claude Code lines exits 2 with a hint, not 0 with 0 messages', () => {
    const file = join(tempFiles({ 'rollout.jsonl': rollout }), 'rollout.jsonl');
    const r = runCli(['import', file, '--from', 'claude-code', '--stats']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(file);
    expect(r.stderr).toMatch(/no messages/);
    // Since issue 19 the rollout is a format we read, so the hint names it.
    expect(r.stderr).toMatch(/it looks like codex: try --from codex/);
  });

  it('any failed --from import names the format the file looks like', () => {
    const dir = tempFiles({
      'x.traj': JSON.stringify({ history: [{ role: 'user', content: 'hi' }], info: {} }, null, 2),
    });
    expect(() => importTranscript(join(dir, 'x.traj'), { from: 'claude-code' })).toThrow(
      /x\.traj:1: invalid JSON line.*; it looks like swe-agent: try --from swe-agent/,
    );
  });

  it('a SWE-agent .traj holding only `history` is detected as swe-agent', () => {
    const traj = {
      history: [
        { role: 'system', content: 'You are an autonomous programmer', agent: 'main' },
        { role: 'user', content: 'fix the bug', agent: 'main' },
        { role: 'assistant', content: 'Looking.', thought: 'Looking.', action: 'ls', agent: 'main' },
        { role: 'user', content: 'a.py', agent: 'main' },
      ],
    };
    const dir = tempFiles({ 'x.traj': JSON.stringify(traj), 'x.json': JSON.stringify(traj) });
    for (const name of ['x.traj', 'x.json']) {
      expect(detectFormat(join(dir, name))).toBe('swe-agent');
      expect(importTranscript(join(dir, name)).stats).toMatchObject({ messages: 3, toolCalls: 1 });
    }
  });
});
