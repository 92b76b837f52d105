import type { ChatMessage } from '../../harness/core/index.ts';
import { defineStrategy } from '../define.ts';
import { finishHandoff } from '../compose.ts';
import { renderMessages } from '../render.ts';
import {
  answerPending,
  conversation,
  framingFor,
  freshCallId,
  functionStyle,
  receiverName,
  sourceName,
  sourcesOf,
  spawnedBy,
} from './shared.ts';

/**
 * langgraph-supervisor's `createSupervisor({ outputMode })`: what the supervisor's model sees after a
 * worker agent ran. The supervisor's own history (its `transfer_to_<agent>` call answered by the
 * handoff tool's `Successfully transferred to <agent>`), then the worker's messages — all of them
 * (`full_history`) or only its last (`last_message`, the library's default) — then the handoff-back
 * pair: an AI message `Transferring back to <supervisor>` calling `transfer_back_to_<supervisor>`, and
 * its tool message `Successfully transferred back to <supervisor>`. `addHandoffBackMessages: false`
 * leaves the pair out.
 *
 * Source: @langchain/langgraph-supervisor 1.1.3 (pinned devDependency, its dist read and run by the
 * test; the git snapshot's newest tag is @langchain/langgraph-supervisor@1.1.1,
 * 957cac4ea4bca715e1ee87af2ab8e97e7447601d, with the same code), langchain-ai/langgraphjs
 * libs/langgraph-supervisor src/supervisor.ts `makeCallAgent` (`messages.slice(-1)` for
 * last_message, `createHandoffBackMessages` appended) and `createSupervisor` (outputMode default
 * "last_message", supervisorName default "supervisor"); src/handoff.ts `createHandoffTool` and
 * `createHandoffBackMessages`. Python twin: langchain-ai/langgraph-supervisor-py, supervisor.py
 * `_make_call_agent`. Checked against the library's own graph in
 * test/strategies/frameworks/langgraph.test.ts.
 */
function langgraphStrategy(mode: 'full_history' | 'last_message') {
  const name = mode === 'full_history' ? 'langgraph-full-history' : 'langgraph-last-message';
  return defineStrategy({
    name,
    description: `langgraph-supervisor outputMode "${mode}": ${mode === 'full_history' ? "the worker's whole history" : "the worker's last message"}, then the handoff-back pair.`,
    seed: `framework: @langchain/langgraph-supervisor 1.1.3 (langchain-ai/langgraphjs libs/langgraph-supervisor) src/supervisor.ts makeCallAgent, outputMode "${mode}"`,
    deterministic: true,
    ...(mode === 'full_history' ? { properties: { superset: true } } : {}),
    declares: {
      'spawn-instructions':
        "hands the receiving agent the whole conversation with its roles, as the framework does: on a spawn the parent's own requests reach the child as user turns",
    },
    params: {
      addHandoffBackMessages: {
        type: 'boolean',
        default: true,
        description:
          "append the 'Transferring back' AI message and its tool message (the library's default: true)",
      },
      supervisorName: {
        type: 'string',
        default: '',
        description:
          "the supervisor's name in the handoff-back pair ('' = the case's receiving agent, else \"supervisor\", the library's default)",
      },
    },
    async prepare(ctx, params) {
      const { history, work } = conversation(ctx);
      const supervisor = params.supervisorName || (ctx.case.receiverAgent ?? 'supervisor');
      const sources = sourcesOf(ctx);
      const handedIn = answerPending(
        history,
        sources.map((s) => `Successfully transferred to ${sourceName(s)}`),
        spawnedBy(sources),
      );
      const spawn = ctx.case.direction === 'spawn';
      const worker = spawn || mode === 'full_history' ? work : lastOf(work);
      const back = spawn
        ? handoffOut(work, receiverName(ctx))
        : params.addHandoffBackMessages
          ? handoffBack([...handedIn, ...work], supervisor)
          : [];
      const payloadMessages = [...worker, ...back];
      return finishHandoff(ctx, {
        system: framingFor(ctx),
        messages: [...handedIn, ...payloadMessages],
        payload: renderMessages(payloadMessages).join('\n\n'),
        payloadMessages,
        retained: worker.length,
        dropped: work.length - worker.length,
      });
    },
  });
}

/**
 * `messages.slice(-1)`, as its text: a last message that carries tool calls or results keeps only its
 * text, since a lone tool message (or an unanswered call) cannot be replayed to a model API, so pairing
 * wins over a verbatim slice there; a last message with no text is nothing to hand over.
 */
function lastOf(work: readonly ChatMessage[]): ChatMessage[] {
  const last = work[work.length - 1];
  return last?.text ? [{ role: last.role, text: last.text }] : [];
}

/**
 * A spawn: `createHandoffTool` forwards the supervisor's whole state to the worker with the handoff
 * call answered by `Successfully transferred to <agent>` — the same in both output modes (they shape
 * only the way back).
 */
function handoffOut(work: readonly ChatMessage[], agent: string): ChatMessage[] {
  const id = freshCallId(work, 'call_transfer_');
  return [
    { role: 'assistant', toolCalls: [{ id, name: `transfer_to_${functionStyle(agent)}`, input: {} }] },
    { role: 'user', toolResults: [{ callId: id, content: `Successfully transferred to ${agent}` }] },
  ];
}

/** `createHandoffBackMessages(agentName, supervisorName)`. */
function handoffBack(before: readonly ChatMessage[], supervisor: string): ChatMessage[] {
  const id = freshCallId(before, 'call_back_');
  const tool = `transfer_back_to_${functionStyle(supervisor)}`;
  return [
    {
      role: 'assistant',
      text: `Transferring back to ${supervisor}`,
      toolCalls: [{ id, name: tool, input: {} }],
    },
    {
      role: 'user',
      toolResults: [{ callId: id, content: `Successfully transferred back to ${supervisor}` }],
    },
  ];
}

export const langgraphFullHistory = langgraphStrategy('full_history');
export const langgraphLastMessage = langgraphStrategy('last_message');
