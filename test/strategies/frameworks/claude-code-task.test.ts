import { describe, expect, it } from 'vitest';
import type { Transcript } from '../../../harness/core/index.ts';
import { importTranscript } from '../../../harness/importers/index.ts';
import { caseOf, prepare } from '../helpers.ts';
import { trailer } from '../../../strategies/frameworks/claude-code-task.ts';
import { lastMessageText } from '../../../strategies/frameworks/shared.ts';

// claude-code-task against the Agent/Task results Claude Code itself recorded in the shipped sessions:
// v2 (2.1.114, six Agent calls, three of them parallel) and v1 (Task results, text only).

const shipped = (f: string) => new URL(`../../fixtures/transcripts/${f}`, import.meta.url).pathname;
const teammates = () =>
  importTranscript(shipped('claude-code-v2-teammates/ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl')).transcript;

/** The result Claude Code recorded for each spawn call of a parent session. */
function recorded(parent: Transcript): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of parent.messages) for (const r of m.toolResults ?? []) out.set(r.callId, r.content);
  return out;
}

describe('claude-code-task against recorded Claude Code results', () => {
  it('v2: final text, agentId line, worktree lines and tool_uses as recorded; tokens and duration in their places', () => {
    const parent = teammates();
    const results = recorded(parent);
    const children = Object.entries(parent.children ?? {});
    expect(children).toHaveLength(6);
    for (const [callId, child] of children) {
      const real = results.get(callId)!;
      const ours = `${lastMessageText(child)}\n${trailer(child)}`;
      const head = (s: string) => s.slice(0, s.lastIndexOf('<usage>'));
      expect(head(ours)).toBe(head(real));
      const usage = /<usage>total_tokens: (\d+)\ntool_uses: (\d+)\nduration_ms: (\d+)<\/usage>$/;
      const [, , realUses] = usage.exec(real)!;
      const [, tokens, uses] = usage.exec(ours)!;
      expect(uses).toBe(realUses);
      expect(Number(tokens)).toBeGreaterThan(0);
    }
  });

  it('several children: one result per Agent call, each its own child', async () => {
    const parent = teammates();
    const at = parent.messages.findIndex(
      (m) => (m.toolCalls ?? []).filter((c) => c.name === 'Agent').length === 3,
    );
    expect(at).toBeGreaterThan(0);
    const calls = parent.messages[at]!.toolCalls!.filter((c) => c.name === 'Agent');
    const sources = calls.map((c) => parent.children![c.id]!);
    const receiverHistory = { ...parent, messages: parent.messages.slice(0, at + 1), children: {} };
    const c = caseOf(sources[0]!, { direction: 'return', sources, receiverHistory });
    const h = await prepare('claude-code-task', c);
    const last = h.messages.at(-1)!;
    const byCall = new Map(last.toolResults!.map((r) => [r.callId, r.content]));
    // Every pending call is answered (the TaskUpdate calls made alongside too)…
    expect([...byCall.keys()]).toEqual(parent.messages[at]!.toolCalls!.map((x) => x.id));
    // …and each Agent call gets its own child's result, with that child's agentId as recorded.
    const results = recorded(parent);
    for (const call of calls) {
      const ours = byCall.get(call.id)!;
      expect(ours.startsWith(lastMessageText(parent.children![call.id]!))).toBe(true);
      const agentId = /agentId: (\w+)/.exec(ours)![1];
      expect(results.get(call.id)).toContain(`agentId: ${agentId} `);
    }
  });

  it("v1: the Task result is the child's final text alone, as recorded", () => {
    const parent = importTranscript(shipped('claude-code-nextjs-todo.jsonl')).transcript;
    const results = recorded(parent);
    const children = Object.entries(parent.children ?? {});
    expect(children.length).toBeGreaterThan(0);
    for (const [callId, child] of children) expect(lastMessageText(child)).toBe(results.get(callId));
  });
});
