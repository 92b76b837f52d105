import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { detectFormat, importTranscript, type ImportOptions } from '../../harness/importers/index.ts';
import { pairingProblems } from './invariants.ts';
import { newFormatFiles, resolverOutputFile } from './new-formats.test.ts';
import { shared, sharedLabel, sharedMissing, transcriptsDir } from './shared-transcripts.ts';

interface Expected {
  file: string;
  options?: ImportOptions;
  format: string;
  messages: number;
  toolCalls: number;
  pairedResults: number;
  orphans: number;
  children: number;
}

/*
 * Every number below was established by reading the file with jq, NOT by running the importer.
 * Claude Code (CC) message rule: one assistant message per distinct message.id that has a non-thinking
 * block (A), one result-carrying user message per message.id that made tool calls (T — checked: all of
 * a message's results arrive before the next message starts), one message per user text line left
 * after dropping isMeta lines and wrapper-only text (U), one per compaction (S): a compact_boundary line
 * (its isCompactSummary line fills it) or an isCompactSummary line with no boundary before it (v1).
 * `summary` lines are session titles, not compactions (issue 13), so they count for nothing.
 *   A: jq -s '[.[]|select(.type=="assistant")|select(any(.message.content[];.type!="thinking"))|.message.id]|unique|length'
 *   T: jq -s '[.[]|select(.type=="assistant")|select(any(.message.content[];.type=="tool_use"))|.message.id]|unique|length'
 *   U: jq -r 'select(.type=="user" and (.isMeta|not))|.message.content|if type=="string" then . else ([.[]|select(.type=="text")|.text]|join(" ")) end|select(.!="")' — then read by eye
 *   S: jq -s '[.[]|select(.subtype=="compact_boundary" or .isCompactSummary==true)]|length' (0 in all three files)
 *   calls: jq -s '[.[]|select(.type=="assistant")|.message.content[]|select(.type=="tool_use")]|length'
 *   paired: jq -s '([..tool_use ids..]) as $c | [tool_result tool_use_ids|select(IN($c[]))]|unique|length'
 */
const expectations: Expected[] = [
  // CC v1: A=170 T=163 U=7 (the /orchestrator command line, "Thanks! …", 5 sidechain root prompts) S=0 → 340
  // (its one `summary` line is the title "Empty Repo Setup: CLAUDE.md Foundation Created").
  // calls 167 = results 167, all ids match. children: 5 Task calls; jq -s '[.[]|select(.isSidechain and .parentUuid==null)]|length' = 5 roots.
  {
    file: 'claude-code-nextjs-todo.jsonl',
    format: 'claude-code',
    messages: 340,
    toolCalls: 167,
    pairedResults: 167,
    orphans: 0,
    children: 5,
  },
  // CC v2.1 parent: A=17 T=15 U=3 (4 text lines minus "<local-command-stdout>See ya!</…>", wrapper only) → 35;
  // subagents (A+T+U): a36e 6+5+1, a4ca 20+19+1, a528 15+14+1, a6aa 5+4+1, ab1e 15+14+1, aef0 5+4+1 → 132. Total 167.
  // calls 40 + (7+24+17+6+17+6) = 117, every one with a result. children: 6 Agent calls whose toolUseResult.agentId names a subagent file.
  {
    file: 'claude-code-v2-teammates',
    format: 'claude-code',
    messages: 167,
    toolCalls: 117,
    pairedResults: 117,
    orphans: 0,
    children: 6,
  },
  // CC v2.0.42: A=36 T=31 U=7 (/init, the ide_opened_file+prompt line, "[Request interrupted…]", 3 prompts, ide_selection+prompt) → 74; calls 71 = results 71.
  {
    file: 'claude-code-v2-jssoundrecorder-parallel.jsonl',
    format: 'claude-code',
    messages: 74,
    toolCalls: 71,
    pairedResults: 71,
    orphans: 0,
    children: 0,
  },
  // jq '[.history[]|select(.role!="system")]|length' = 27; jq '[.history[]|.tool_calls//[]|length]|add' = 13;
  // jq '[.history[]|select(.role=="tool")|.tool_call_ids|length]|add' = 13, each tool entry right after its call.
  {
    file: 'sweagent-fc-marshmallow-1867.traj',
    format: 'swe-agent',
    messages: 27,
    toolCalls: 13,
    pairedResults: 13,
    orphans: 0,
    children: 0,
  },
  // jq '[.history[]|select(.role!="system" and (.is_demo|not))]|length' = 24; 12 assistant entries with .action;
  // 13 user entries = demo + issue + 11 observations; the last entry is the assistant "submit" with no observation → 1 orphan.
  {
    file: 'sweagent-text-pydicom-1458.traj',
    format: 'swe-agent',
    messages: 24,
    toolCalls: 12,
    pairedResults: 11,
    orphans: 1,
    children: 0,
  },
  // jq '[.traj[]|select(.role!="system")]|length' = 61, no two tool messages adjacent (so no merging);
  // jq '[.traj[]|.tool_calls//[]|length]|add' = 23; 23 tool messages whose tool_call_id is one of those ids.
  {
    file: 'taubench-gpt4o-airline-task9.json',
    format: 'openai',
    messages: 61,
    toolCalls: 23,
    pairedResults: 23,
    orphans: 0,
    children: 0,
  },
  // Per instance: 1 user message action + one assistant message per distinct tool_call_metadata.model_response.id
  // (= number of tool actions: 23/33/49) + one result message per observation whose cause is a tool action (22/32/49).
  // Unanswered: the `finish` call in instances 0 and 1 (instance 2 has no finish).
  {
    file: 'openhands-multiswe-ponyc.jsonl',
    format: 'openhands',
    messages: 46,
    toolCalls: 23,
    pairedResults: 22,
    orphans: 1,
    children: 0,
  },
  {
    file: 'openhands-multiswe-ponyc.jsonl',
    options: { instance: 1 },
    format: 'openhands',
    messages: 66,
    toolCalls: 33,
    pairedResults: 32,
    orphans: 1,
    children: 0,
  },
  {
    file: 'openhands-multiswe-ponyc.jsonl',
    options: { instance: 'ponylang__ponyc-4588' },
    format: 'openhands',
    messages: 99,
    toolCalls: 49,
    pairedResults: 49,
    orphans: 0,
    children: 0,
  },
  // jq '[.samples[0].messages[]|select(.role!="system")]|length' = 10 (no system message); 4 tool_calls, 4 tool messages.
  {
    file: 'inspect-browser-gpt4omini.json',
    format: 'inspect',
    messages: 10,
    toolCalls: 4,
    pairedResults: 4,
    orphans: 0,
    children: 0,
  },
];

describe.skipIf(sharedMissing)(sharedLabel, () => {
  it('has an expectation for every transcript in the folder', () => {
    // The second batch (issue 19) is checked against independent counts in new-formats.test.ts.
    const listed = new Set([
      ...expectations.map((e) => e.file),
      ...newFormatFiles.map(([f]) => f),
      resolverOutputFile,
    ]);
    const present = readdirSync(transcriptsDir).filter((f) => !f.endsWith('.md'));
    expect(present.filter((f) => !listed.has(f))).toEqual([]);
  });

  for (const e of expectations) {
    const label = `${e.file}${e.options ? ` ${JSON.stringify(e.options)}` : ''}`;
    it(`${label}: imports with the counts read from the file`, () => {
      expect(detectFormat(shared(e.file))).toBe(e.format);
      const { transcript, stats } = importTranscript(shared(e.file), e.options);
      const { format, messages, toolCalls, pairedResults, orphans, children } = stats;
      expect({ format, messages, toolCalls, pairedResults, orphans, children }).toEqual({
        format: e.format,
        messages: e.messages,
        toolCalls: e.toolCalls,
        pairedResults: e.pairedResults,
        orphans: e.orphans,
        children: e.children,
      });
      expect(pairingProblems(transcript, stats)).toEqual([]);
    });
  }
});
