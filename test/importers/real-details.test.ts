import { describe, expect, it } from 'vitest';
import { importTranscript } from '../../harness/importers/index.ts';
import type { Transcript } from '../../harness/core/index.ts';
import { shared, sharedLabel, sharedMissing } from './shared-transcripts.ts';

const calls = (t: Transcript) => t.messages.flatMap((m) => m.toolCalls ?? []);
const results = (t: Transcript) => t.messages.flatMap((m) => m.toolResults ?? []);

describe.skipIf(sharedMissing)(`${sharedLabel}: format details`, () => {
  it('Claude Code v1: summary line → title, slash command kept, 5 inline sidechains linked by prompt', () => {
    const { transcript, stats } = importTranscript(shared('claude-code-nextjs-todo.jsonl'));
    expect(transcript.meta?.titles).toEqual(['Empty Repo Setup: CLAUDE.md Foundation Created']);
    expect(transcript.meta?.compactions).toBeUndefined();
    expect(transcript.messages.some((m) => m.compacted)).toBe(false);
    expect(transcript.messages[0]).toMatchObject({
      role: 'user',
      text: '/orchestrator create TODO app by Next.js',
    });
    expect(stats.skipped).toMatchObject({ meta_user_line: 1, command_wrapper: 1, summary: 1 });
    expect(transcript.agents.main?.role).toBe('parent');
    const tasks = calls(transcript).filter((c) => c.name === 'Task');
    expect(Object.keys(transcript.children ?? {}).sort()).toEqual(tasks.map((c) => c.id).sort());
    for (const task of tasks) {
      const child = transcript.children![task.id]!;
      // The link rule itself: the child's first user text is the Task prompt.
      expect(child.messages[0]!.text).toBe((task.input as { prompt: string }).prompt.trim());
      expect(Object.values(child.agents)[0]?.role).toBe('child');
    }
  });

  it('Claude Code v2.1: subagent files linked through toolUseResult.agentId, .meta.json in child meta', () => {
    const { transcript, stats } = importTranscript(shared('claude-code-v2-teammates'));
    const names = Object.values(transcript.children ?? {}).map((c) => Object.keys(c.agents)[0]);
    expect(names.sort()).toEqual(['alice', 'alice2', 'bob', 'bob2', 'carol', 'carol2']);
    const alice = Object.values(transcript.children!).find((c) => c.agents.alice)!;
    expect(alice.meta).toMatchObject({
      agentId: 'a4ca7529859c158c2',
      description: 'Research Claude Code plan mode',
      agentType: 'general-purpose',
    });
    // jq: 2 system away_summary lines, 14 thinking blocks, 45 hook_success attachments.
    expect((transcript.meta?.awaySummaries as string[]).length).toBe(2);
    expect(stats.skipped).toMatchObject({
      'system:away_summary': 2,
      thinking: 14,
      'attachment:hook_success': 45,
    });
    // The directory and the session file are the same import.
    const viaFile = importTranscript(
      shared('claude-code-v2-teammates/ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl'),
    );
    expect(viaFile.stats).toEqual(stats);
    // A subagent file alone is a session of its own (alice: A=20, T=19, U=1 by the jq rule; 24 calls).
    const solo = importTranscript(
      shared(
        'claude-code-v2-teammates/ef958aa1-0e93-49f0-bb71-150f63befcd1/subagents/agent-a4ca7529859c158c2.jsonl',
      ),
    );
    expect(solo.stats).toMatchObject({
      messages: 40,
      toolCalls: 24,
      pairedResults: 24,
      orphans: 0,
      children: 0,
      skipped: {},
    });
  });

  it('Claude Code v2.0: parallel calls form one message, results out of call order still pair', () => {
    const { transcript, stats } = importTranscript(shared('claude-code-v2-jssoundrecorder-parallel.jsonl'));
    expect(stats.skipped).toMatchObject({ thinking: 36, 'queue-operation': 12 });
    const parallel = transcript.messages.filter((m) => (m.toolCalls?.length ?? 0) > 1);
    expect(parallel.length).toBe(26); // README: 26 parallel multi-tool messages
    let outOfOrder = 0;
    transcript.messages.forEach((m, i) => {
      if (!m.toolCalls || m.toolCalls.length < 2) return;
      const carrier = transcript.messages[i + 1]!;
      expect(carrier.toolResults?.map((r) => r.callId).sort()).toEqual(m.toolCalls.map((c) => c.id).sort());
      if (carrier.toolResults!.some((r, j) => r.callId !== m.toolCalls![j]!.id)) outOfOrder++;
    });
    expect(outOfOrder).toBeGreaterThan(0);
  });

  it('SWE-agent function calling: reused call ids become unique and still pair in order', () => {
    const { transcript } = importTranscript(shared('sweagent-fc-marshmallow-1867.traj'));
    // jq: call_5iDdbOYybq7L19vqXmR0DPaU is used by 4 steps.
    const ids = calls(transcript)
      .map((c) => c.id)
      .filter((id) => id.startsWith('call_5iDdbOYybq7L19vqXmR0DPaU'));
    expect(ids).toEqual([
      'call_5iDdbOYybq7L19vqXmR0DPaU',
      'call_5iDdbOYybq7L19vqXmR0DPaU#2',
      'call_5iDdbOYybq7L19vqXmR0DPaU#3',
      'call_5iDdbOYybq7L19vqXmR0DPaU#4',
    ]);
    expect(results(transcript).find((r) => r.callId === 'call_5iDdbOYybq7L19vqXmR0DPaU#2')?.content).toMatch(
      /^AUTHORS\.rst/,
    );
    expect(transcript.meta?.system).toMatch(/^SETTING: You are an autonomous programmer/);
  });

  it('SWE-agent text actions: demonstration skipped and counted, actions paired by position', () => {
    const { transcript, stats } = importTranscript(shared('sweagent-text-pydicom-1458.traj'));
    expect(stats.skipped).toMatchObject({ demonstration: 1, system: 1 });
    expect(transcript.messages.some((m) => m.text?.includes('Here is a demonstration'))).toBe(false);
    const [first] = calls(transcript);
    expect(first).toMatchObject({ name: 'create', input: { command: 'create reproduce_bug.py' } });
    expect(results(transcript)[0]?.content).toMatch(/^\[File: \/pydicom__pydicom\/reproduce_bug\.py/);
    expect(calls(transcript).at(-1)?.name).toBe('submit');
  });

  it('OpenAI (τ-bench): system prompt in meta, arguments parsed into objects', () => {
    const { transcript, stats } = importTranscript(shared('taubench-gpt4o-airline-task9.json'));
    expect(transcript.meta?.system).toMatch(/^# Airline Agent Policy/);
    expect(stats.skipped).toEqual({ system: 1 });
    expect(calls(transcript).every((c) => typeof c.input === 'object')).toBe(true);
    expect(transcript.id).toBe('9');
  });

  it('OpenHands: the cause-less error is appended to the preceding action result; plumbing counted', () => {
    const { transcript, stats } = importTranscript(shared('openhands-multiswe-ponyc.jsonl'), { instance: 1 });
    expect(stats.skipped).toMatchObject({ system: 1, recall: 2, orphan_error_appended: 1 });
    // history id 27 (toolu_12, read) → id 28 (its observation) → id 29 (error without cause).
    const read = results(transcript).find((r) => r.callId === 'toolu_12')!;
    expect(read.content).toMatch(
      /^I read the file|[\s\S]*\[error observation, no cause\]\nParameter 'command' is expected/,
    );
    expect(read.content).toContain("Parameter 'command' is expected to be one of");
    expect(transcript.meta?.instances).toEqual([
      'ponylang__ponyc-4595',
      'ponylang__ponyc-4593',
      'ponylang__ponyc-4588',
    ]);
    expect(calls(transcript).at(-1)?.name).toBe('finish');
  });

  it('inspect_ai: model from eval, dict arguments kept as objects', () => {
    const { transcript } = importTranscript(shared('inspect-browser-gpt4omini.json'));
    expect(transcript.agents.main?.model).toBe('openai/gpt-4o-mini');
    expect(calls(transcript)[0]).toMatchObject({
      name: 'web_browser_go',
      input: { url: 'https://www.aisi.gov.uk/' },
    });
  });
});
