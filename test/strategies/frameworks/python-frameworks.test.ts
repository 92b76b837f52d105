import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Case, Message, Transcript } from '../../../harness/core/index.ts';
import { loadInput } from '../../../harness/cli/commands/render-input.ts';
import { caseOf, miniCase, prepare, scriptedProvider } from '../helpers.ts';
import { contextFor } from '../helpers.ts';
import { sdkConversation } from '../../../strategies/frameworks/agents-sdk.ts';
import { inputItems } from '../../../strategies/frameworks/agents-sdk-nested.ts';
import { AG2_SUMMARY_PROMPT, processCarryover } from '../../../strategies/frameworks/ag2-carryover.ts';

// Frameworks that ship only Python: compared with outputs of the framework's own code, its tests'
// cases or its recorded requests, copied under test/fixtures/frameworks/<name>/ with LICENSE and
// SOURCE.md.

const fixture = (path: string) =>
  JSON.parse(readFileSync(new URL(`../../fixtures/frameworks/${path}`, import.meta.url), 'utf8'));
const shipped = (f: string) => new URL(`../../fixtures/transcripts/${f}`, import.meta.url).pathname;

const session = (texts: [Message['role'], string][], agent = 'worker'): Transcript => ({
  messages: texts.map(([role, text]) => ({ role, text, ...(role === 'assistant' ? { agent } : {}) })),
  agents: { [agent]: { role: 'child' } },
});

describe('agents-sdk-nested against openai-agents-python v0.22.0 nest_handoff_history', () => {
  const cases: [string, () => Promise<Case>][] = [
    ['mini', miniCase],
    [
      'claude-code-nextjs-todo',
      () => loadInput({ file: shipped('claude-code-nextjs-todo.jsonl'), strategy: 'agents-sdk-nested' }),
    ],
  ];
  for (const [name, load] of cases)
    it(`${name}: the one assistant message the SDK builds, character for character`, async () => {
      const f = fixture(`openai-agents-python/${name}.json`);
      const c = await load();
      const { history, work, handoff } = sdkConversation(contextFor(c));
      // The same items went into the SDK's function…
      expect(inputItems([...history, ...work])).toEqual(f.input_history);
      expect(inputItems(handoff)).toEqual(f.new_items);
      // …and our rendering is what it returned.
      const h = await prepare('agents-sdk-nested', c);
      expect(f.nest_handoff_history).toHaveLength(1);
      expect(h.messages).toEqual([{ role: 'assistant', text: f.nest_handoff_history[0].content }]);
    });
});

describe('crewai-task-context against CrewAI 1.15.17 (recorded request)', () => {
  it("the context block is the listed tasks' raw outputs joined by CrewAI's dividers", async () => {
    const f = fixture('crewai/sequential-async-context.json');
    const raw = f.tasks.map((t: { response: string }) => t.response.split('Final Answer:')[1]!.trim());
    const sources = f.tasks.map((t: { description: string }, i: number) =>
      session([
        ['user', t.description],
        ['assistant', raw[i]],
      ]),
    );
    const c = caseOf(sources[0], { direction: 'return', sources });
    const h = await prepare('crewai-task-context', c);
    expect(h.messages).toHaveLength(1);
    const block = h.messages[0]!.text!;
    expect(block.startsWith("This is the context you're working with:\n")).toBe(true);
    // The recorded request carries exactly this block (then the older prompt's "Begin!" line).
    expect(f.write_article_request_user_content).toContain(`\n\n${block}\n\nBegin!`);
  });
});

describe('ag2-carryover-* against AG2 (test cases and docstring)', () => {
  const f = fixture('ag2/carryover.json');
  it('_process_carryover: the message, "\\nContext: \\n", the carryover items', () => {
    for (const t of f.test_process_carryover) {
      const items = t.carryover === null ? [] : ([] as string[]).concat(t.carryover);
      expect(processCarryover(t.content, items)).toBe(t.expected);
    }
    expect(processCarryover(f.initiate_chat_docstring_example.message, ['x'])).toBe(
      `${f.initiate_chat_docstring_example.expected_prefix}x`,
    );
  });

  it('last_msg: the chat\'s last message without TERMINATE, after "Context:"', async () => {
    const chat = f.last_msg_summary.chat.map((m: { role: Message['role']; content: string }) => [
      m.role,
      m.content,
    ]);
    const h = await prepare('ag2-carryover-last', caseOf(session(chat), { direction: 'return' }));
    expect(h.messages).toEqual([{ role: 'user', text: 'Context: \nHi' }]);
    expect(h.payload).not.toContain(f.last_msg_summary.must_not_contain);
  });

  it('reflection_with_llm: the chat plus the summary prompt as a system message, asked of the source model', async () => {
    const provider = scriptedProvider([() => ({ text: 'the takeaway' })]);
    const c = caseOf(
      session([
        ['user', 'Find the bug.'],
        ['assistant', 'It is in parse().'],
      ]),
      { direction: 'return' },
    );
    const ctx = contextFor(c, { provider });
    const { getStrategy } = await import('../../../strategies/index.ts');
    const { resolveParams } = await import('../../../strategies/define.ts');
    const s = getStrategy('ag2-carryover-reflection');
    const h = await s.prepare(ctx, resolveParams(s, {}));
    expect(provider.seen).toHaveLength(1);
    expect(provider.seen[0]!.messages.at(-1)).toEqual({ role: 'system', text: f.DEFAULT_SUMMARY_PROMPT });
    expect(AG2_SUMMARY_PROMPT).toBe(f.DEFAULT_SUMMARY_PROMPT);
    expect(h.messages).toEqual([{ role: 'user', text: 'Context: \nthe takeaway' }]);
    expect(h.stats.calls).toBe(1);
  });
});

describe("adk-no-contents against ADK v1.4.2's documented include_contents='none'", () => {
  it('the request carries no contents: no history, no source work, no payload', async () => {
    const f = fixture('adk-python/include-contents.json');
    expect(f['contents.py run_async']).toContain("if agent.include_contents != 'none':");
    for (const c of [
      await miniCase(),
      await loadInput({ file: shipped('claude-code-nextjs-todo.jsonl'), strategy: 'adk-no-contents' }),
    ]) {
      const h = await prepare('adk-no-contents', c);
      expect(h.messages).toEqual(f.expected.contents);
      expect(h.payload).toBe('');
      expect(h.stats.dropped).toBe(c.source.messages.length);
    }
  });
});
