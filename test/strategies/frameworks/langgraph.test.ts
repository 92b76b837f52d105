import { describe, expect, it } from 'vitest';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import {
  AIMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
  type BaseMessage,
} from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { MessagesAnnotation, StateGraph, START, END } from '@langchain/langgraph';
import { createSupervisor } from '@langchain/langgraph-supervisor';
import type { Case, ChatMessage, Message } from '../../../harness/core/index.ts';
import { miniCase, prepare } from '../helpers.ts';
import { conversation, sourceName } from '../../../strategies/frameworks/shared.ts';
import { contextFor } from '../helpers.ts';
import { itemsOfChat, type Item } from './sdk-items.ts';

// The same return through langgraph-supervisor's own graph (@langchain/langgraph-supervisor 1.1.3,
// pinned) and through our langgraph-* strategies, compared message by message. The supervisor's model
// is scripted: it first makes the receiver's pending spawn call (a transfer_to_<worker> call), and its
// second request — recorded — is what the supervisor sees after the worker ran. The worker is a graph
// that answers with the source's recorded messages.

/** A chat model that replays scripted replies and records every request. */
class ScriptedChat extends BaseChatModel {
  seen: BaseMessage[][] = [];
  constructor(private script: AIMessage[]) {
    super({});
  }
  _llmType() {
    return 'scripted';
  }
  override bindTools() {
    return this as never;
  }
  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    this.seen.push(messages);
    const message = this.script.shift() ?? new AIMessage('done');
    return { generations: [{ text: typeof message.content === 'string' ? message.content : '', message }] };
  }
}

function toLangChain(messages: readonly ChatMessage[]): BaseMessage[] {
  const out: BaseMessage[] = [];
  for (const m of messages) {
    for (const r of m.toolResults ?? [])
      out.push(new ToolMessage({ content: r.content, tool_call_id: r.callId }));
    if (m.role === 'assistant')
      out.push(
        new AIMessage({
          content: m.text ?? '',
          tool_calls: (m.toolCalls ?? []).map((c) => ({
            id: c.id,
            name: c.name,
            args: (c.input ?? {}) as Record<string, unknown>,
          })),
        }),
      );
    else if (m.text !== undefined)
      out.push(m.role === 'system' ? new SystemMessage(m.text) : new HumanMessage(m.text));
  }
  return out;
}

function itemsOfLangChain(messages: readonly BaseMessage[]): Item[] {
  const out: Item[] = [];
  for (const m of messages) {
    const text = typeof m.content === 'string' ? m.content : JSON.stringify(m.content);
    const type = m.getType();
    if (type === 'tool') out.push({ kind: 'result', id: (m as ToolMessage).tool_call_id, output: text });
    else if (type === 'ai') {
      if (text !== '') out.push({ kind: 'message', role: 'assistant', text });
      for (const c of (m as AIMessage).tool_calls ?? [])
        out.push({ kind: 'call', id: c.id!, name: c.name, args: c.args });
    } else out.push({ kind: 'message', role: type === 'human' ? 'user' : type, text });
  }
  return out;
}

/** The mini return case with its pending spawn call made a langgraph-supervisor handoff call. */
async function supervisedCase(): Promise<{ c: Case; worker: string }> {
  const base = await miniCase();
  const worker = sourceName(base.source);
  const history = base.receiverHistory!.messages;
  const last = history[history.length - 1]!;
  const renamed: Message = {
    ...last,
    toolCalls: last.toolCalls!.map((x) => ({ ...x, name: `transfer_to_${worker}` })),
  };
  return {
    c: {
      ...base,
      receiverHistory: { ...base.receiverHistory!, messages: [...history.slice(0, -1), renamed] },
    },
    worker,
  };
}

async function supervisorSees(c: Case, worker: string, outputMode: 'full_history' | 'last_message') {
  const history = toLangChain(c.receiverHistory!.messages);
  const pending = history.pop() as AIMessage;
  const { work } = conversation(contextFor(c));
  const workerGraph = new StateGraph(MessagesAnnotation)
    .addNode('work', () => ({ messages: toLangChain(work) }))
    .addEdge(START, 'work')
    .addEdge('work', END)
    .compile({ name: worker });
  const llm = new ScriptedChat([pending]);
  const app = createSupervisor({
    agents: [workerGraph],
    llm,
    outputMode,
    supervisorName: 'parent',
  }).compile();
  await app.invoke({ messages: history }, { recursionLimit: 10 });
  expect(llm.seen.length).toBe(2);
  return itemsOfLangChain(llm.seen[1]!);
}

/** Ids the library makes up (uuid of the handoff-back call) replaced by ours, position by position. */
function sameIds(theirs: Item[], ours: Item[]): Item[] {
  return theirs.map((t, i) => {
    const o = ours[i];
    if (t.kind === 'call' && o?.kind === 'call' && t.name.startsWith('transfer_back_to_'))
      return { ...t, id: o.id };
    if (t.kind === 'result' && o?.kind === 'result' && t.output.startsWith('Successfully transferred back'))
      return { ...t, id: o.id };
    return t;
  });
}

describe('langgraph-* against @langchain/langgraph-supervisor 1.1.3', () => {
  for (const [name, mode] of [
    ['langgraph-full-history', 'full_history'],
    ['langgraph-last-message', 'last_message'],
  ] as const)
    it(`${name}: what the supervisor's model sees after the worker, message by message`, async () => {
      const { c, worker } = await supervisedCase();
      const theirs = await supervisorSees(c, worker, mode);
      const ours = itemsOfChat((await prepare(name, { ...c, receiverAgent: 'parent' })).messages);
      expect(sameIds(theirs, ours)).toEqual(ours);
      expect(ours.at(-2)).toMatchObject({ kind: 'call', name: 'transfer_back_to_parent' });
    });
});
