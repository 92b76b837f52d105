import { describe, expect, it } from 'vitest';
import {
  Agent,
  RunContext,
  Runner,
  Usage,
  handoff,
  type Model,
  type ModelRequest,
} from '@openai/agents-core';
import { removeAllTools } from '@openai/agents-core/extensions';
import type { Case, ChatMessage } from '../../../harness/core/index.ts';
import { loadInput } from '../../../harness/cli/commands/render-input.ts';
import { miniCase, prepare } from '../helpers.ts';
import { itemsOfChat, itemsOfSdk, sdkInput } from './sdk-items.ts';
import { lastMessageText } from '../../../strategies/frameworks/shared.ts';

// The same session through the OpenAI Agents SDK's own Runner (@openai/agents-core 0.14.3, pinned)
// and through our strategies, compared item by item. The source agent's model answers with the
// handoff call; the receiving agent's model records the input the SDK built for it — what the SDK
// hands over — and ends the run. Nothing leaves the process (tracing off, models are local objects).

const shipped = (f: string) => new URL(`../../fixtures/transcripts/${f}`, import.meta.url).pathname;

async function sessions(): Promise<[string, Case][]> {
  return [
    ['mini return case (receiver history, pending spawn call)', await miniCase()],
    [
      'claude-code-nextjs-todo (escalation)',
      await loadInput({ file: shipped('claude-code-nextjs-todo.jsonl'), strategy: 'agents-sdk-full' }),
    ],
    [
      'codex rollout (escalation)',
      await loadInput({
        file: shipped('codex-rollout-desktop-0.128.0a1-019e1695.jsonl'),
        strategy: 'agents-sdk-full',
      }),
    ],
  ];
}

/** Runs the SDK: `before` is the conversation up to the handoff, the source's model calls `tool` with `callId`. */
async function sdkHandsOver(
  before: readonly ChatMessage[],
  tool: { name: string; callId: string; receiver: string },
  inputFilter?: typeof removeAllTools,
): Promise<any[]> {
  let seen: any[] | undefined;
  const done: Model = {
    async getResponse(req: ModelRequest) {
      seen = structuredClone(req.input as any[]);
      return { usage: new Usage(), output: [message('done')] };
    },
    getStreamedResponse: () => {
      throw new Error('not streamed');
    },
  };
  const receiver = new Agent({ name: tool.receiver, instructions: 'receive', model: done });
  const h = handoff(receiver, inputFilter ? { inputFilter } : {});
  expect(h.toolName).toBe(tool.name);
  const callsHandoff: Model = {
    async getResponse() {
      return {
        usage: new Usage(),
        output: [
          {
            type: 'function_call',
            callId: tool.callId,
            name: tool.name,
            status: 'completed',
            arguments: '{}',
          },
        ],
      };
    },
    getStreamedResponse: () => {
      throw new Error('not streamed');
    },
  };
  const source = new Agent({ name: 'source', instructions: 'work', model: callsHandoff, handoffs: [h] });
  await new Runner({ tracingDisabled: true }).run(source, sdkInput(before) as never, { maxTurns: 3 });
  expect(seen).toBeDefined();
  return seen!;
}

const message = (text: string) => ({
  type: 'message' as const,
  role: 'assistant' as const,
  status: 'completed' as const,
  content: [{ type: 'output_text' as const, text }],
});

/** The handoff call our strategy placed (the assistant message calling transfer_to_…). */
function handoffCall(messages: readonly ChatMessage[]) {
  const call = [...messages]
    .reverse()
    .flatMap((m) => m.toolCalls ?? [])
    .find((c) => c.name.startsWith('transfer_to_'));
  expect(call).toBeDefined();
  return call!;
}

describe('agents-sdk-* against @openai/agents-core 0.14.3', () => {
  it("agents-sdk-full: the receiving agent's model input, item by item", async () => {
    for (const [label, c] of await sessions()) {
      const ours = await prepare('agents-sdk-full', c);
      const call = handoffCall(ours.messages);
      const at = ours.messages.findIndex((m) => m.toolCalls?.some((x) => x.id === call.id));
      const before = ours.messages.slice(0, at);
      const sdk = await sdkHandsOver(before, { name: call.name, callId: call.id, receiver: receiverOf(c) });
      expect(itemsOfSdk(sdk), label).toEqual(itemsOfChat(ours.messages));
    }
  });

  it('agents-sdk-remove-tools: what removeAllTools leaves, item by item', async () => {
    for (const [label, c] of await sessions()) {
      const full = await prepare('agents-sdk-full', c);
      const call = handoffCall(full.messages);
      const at = full.messages.findIndex((m) => m.toolCalls?.some((x) => x.id === call.id));
      const sdk = await sdkHandsOver(
        full.messages.slice(0, at),
        { name: call.name, callId: call.id, receiver: receiverOf(c) },
        removeAllTools,
      );
      const ours = await prepare('agents-sdk-remove-tools', c);
      expect(itemsOfSdk(sdk), label).toEqual(itemsOfChat(ours.messages));
      // The comparison is not vacuous: the session had tool items and the filter dropped them.
      expect(itemsOfChat(full.messages).some((i) => i.kind === 'call')).toBe(true);
      expect(itemsOfSdk(sdk).some((i) => i.kind !== 'message')).toBe(false);
    }
  });
});

describe('agents-as-tool against @openai/agents-core 0.14.3 Agent.asTool()', () => {
  it("the tool's output is the sub-agent's last response text, as our result", async () => {
    for (const [label, c] of await sessions()) {
      const ours = await prepare('agents-as-tool', c);
      const result = ours.messages.at(-1)!.toolResults![0]!.content;
      // The sub-agent's model answers with the recorded session's last assistant message.
      const last = lastMessageText(c.source);
      const replay: Model = {
        async getResponse() {
          return { usage: new Usage(), output: [message(last)] };
        },
        getStreamedResponse: () => {
          throw new Error('not streamed');
        },
      };
      const sub = new Agent({ name: 'sub', instructions: 'research', model: replay });
      const tool = sub.asTool({ toolName: 'sub', toolDescription: 'research' });
      const out = await tool.invoke(new RunContext(), JSON.stringify({ input: 'go' }));
      expect(out, label).toBe(result);
      expect(result.length, label).toBeGreaterThan(0);
    }
  });
});

/** The receiving agent's name our strategies use for a case (as strategies/frameworks/shared.ts). */
function receiverOf(c: Case): string {
  return (
    c.receiverAgent ??
    (c.direction === 'return' ? 'parent' : c.direction === 'spawn' ? 'child' : 'escalation')
  );
}
