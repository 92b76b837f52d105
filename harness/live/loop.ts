import type {
  ChatMessage,
  Message,
  ModelRequestInput,
  ModelResponse,
  SimHints,
  ToolCall,
  ToolResult,
  Transcript,
} from '../core/index.ts';
import { budgetSpentMessage } from '../core/index.ts';
import type { WorldTools } from './tools.ts';
import type { LivePrompts } from '../config/live-prompts.ts';

/**
 * The source agent's own tool loop (live mode, docs/live.md): its brief as the task, the world's tools,
 * at most `budget` tool calls. Each round the model answers with tool calls (run against the world;
 * parallel calls in one message are each counted) or with its final report. A call past the budget is
 * not run: it gets an error result saying the budget is spent, the loop is marked budget-exhausted, and
 * one last turn without tools asks for the report — so a loop that exceeds its budget is stopped and
 * recorded, never cut silently. Tool errors (bad arguments, unknown tools, paths outside the world)
 * are results the model sees and may recover from.
 */
export interface SourceLoopOptions {
  /** The session being re-lived: its leading user messages are the brief, its agents the agents. */
  recorded: Transcript;
  tools: WorldTools;
  budget: number;
  /** The system prompt and reminder set by the config (per suite or arm); absent = the built-in ones. */
  prompts?: LivePrompts;
  /** What the source is told in its first turn about how it will return (a strategy's sourceNotice). */
  notice?: string;
  call: (request: ModelRequestInput) => Promise<ModelResponse>;
  sim?: SimHints;
  maxTokens?: number;
  /** `--live-inline prefix`: the parent's window, sent before the brief in every request (harness/live/inline-prefix.ts). */
  prefix?: readonly ChatMessage[];
}

export interface SourceLoopResult {
  transcript: Transcript;
  /** Tool calls run against the world (never more than the budget). */
  toolCalls: number;
  /** Of those, calls whose result was an error result. */
  toolErrors: number;
  /** Calls the model asked for past the budget (not run). */
  refused: number;
  budgetExhausted: boolean;
  /** Model calls of the loop (rounds). */
  turns: number;
  latencyMs: number;
  outputTokens: number;
  /** The stop reason of the final report's call. */
  stopReason: string;
}

/** The refused call's result (harness/core: the contract guard recognises it). */
export { budgetSpentMessage };

export const SOURCE_MAX_TOKENS = 4096;

/**
 * The source's system prompt. Without `prompts`, the built-in one (its last line carries the "what you
 * could not determine" reminder). `prompts.system` replaces the whole prompt (`{budget}` replaced);
 * `prompts.reminder` is a sentence appended to it, or false for none — with the built-in prompt,
 * false drops its reminder clause and a string replaces it (docs/live.md#the-source-prompts).
 */
export function liveSystemPrompt(budget: number, prompts?: LivePrompts): string {
  const report =
    'When you have what you need, reply with your final report and no tool call: each finding with its source (file:line or table.column)';
  const head = [
    'You are a research agent working in a read-only copy of a repository and its data, through the tools you are given.',
    `Investigate what your task asks. You can make at most ${budget} tool calls in total; calls past that are refused.`,
  ];
  if (prompts?.system === undefined && prompts?.reminder === undefined)
    return [...head, `${report}, what you could not determine, and what you had to assume.`].join('\n');
  const system =
    prompts.system !== undefined
      ? prompts.system.replace(/\{budget\}/g, String(budget))
      : [...head, `${report}.`].join('\n');
  return typeof prompts.reminder === 'string' ? `${system}\n${prompts.reminder}` : system;
}

export async function runSourceLoop(o: SourceLoopOptions): Promise<SourceLoopResult> {
  const agent = sourceAgentOf(o.recorded);
  const brief = briefOf(o.recorded, o.notice);
  const prefix = o.prefix ?? [];
  const messages: ChatMessage[] = [...prefix, ...brief.map(({ agent: _a, compacted: _c, ...m }) => m)];
  const sim = o.sim && prefix.length ? { ...o.sim, prefixMessages: prefix.length } : o.sim;
  const out: SourceLoopResult = {
    transcript: o.recorded,
    toolCalls: 0,
    toolErrors: 0,
    refused: 0,
    budgetExhausted: false,
    turns: 0,
    latencyMs: 0,
    outputTokens: 0,
    stopReason: '',
  };
  const request = (): ModelRequestInput => ({
    purpose: 'act',
    system: liveSystemPrompt(o.budget, o.prompts),
    messages: [...messages],
    tools: o.tools.specs,
    toolChoice: out.budgetExhausted ? { type: 'none' } : { type: 'auto' },
    maxTokens: o.maxTokens ?? SOURCE_MAX_TOKENS,
    ...(sim ? { sim } : {}),
  });
  // Each round either runs at least one call of the budget or marks it exhausted: ≤ budget + 2 rounds.
  for (let round = 0; round <= o.budget + 1; round++) {
    const res = await o.call(request());
    out.turns++;
    out.latencyMs += res.latencyMs;
    out.outputTokens += res.usage.outputTokens;
    out.stopReason = res.stopReason;
    if (res.toolCalls.length === 0 || out.budgetExhausted || round === o.budget + 1) {
      messages.push({ role: 'assistant', text: res.text.trim() || '(the agent ended without a report)' });
      break;
    }
    messages.push({
      role: 'assistant',
      ...(res.text.trim() ? { text: res.text } : {}),
      toolCalls: res.toolCalls,
    });
    messages.push({ role: 'user', toolResults: res.toolCalls.map((c) => runOne(c, o, out)) });
  }
  out.transcript = {
    id: `${o.recorded.id ?? 'source'}-live`,
    agents: o.recorded.agents,
    messages: [
      ...brief,
      ...messages
        .slice(prefix.length + brief.length)
        .map((m) => ({ ...m, ...(m.role === 'assistant' ? { agent } : {}) }) as Message),
    ],
    meta: { live: true, toolCalls: out.toolCalls, budget: o.budget, budgetExhausted: out.budgetExhausted },
  };
  return out;
}

function runOne(c: ToolCall, o: SourceLoopOptions, out: SourceLoopResult): ToolResult {
  if (out.toolCalls >= o.budget) {
    out.refused++;
    out.budgetExhausted = true;
    return { callId: c.id, content: budgetSpentMessage(o.budget), isError: true };
  }
  out.toolCalls++;
  const r = o.tools.run(c);
  if (r.isError) out.toolErrors++;
  return { callId: c.id, content: r.content, ...(r.isError ? { isError: true } : {}) };
}

/** The recorded session's leading user messages (the brief its parent sent), with the notice appended. */
export function briefOf(t: Transcript, notice: string | undefined): Message[] {
  let n = 0;
  while (
    n < t.messages.length &&
    t.messages[n]!.role === 'user' &&
    t.messages[n]!.text &&
    !t.messages[n]!.toolResults?.length
  )
    n++;
  const brief = t.messages.slice(0, Math.max(n, 0)).map((m) => ({ ...m }));
  if (brief.length === 0) brief.push({ role: 'user', text: 'Investigate the task you were given.' });
  if (notice) {
    const last = brief[brief.length - 1]!;
    last.text = `${last.text}\n\n${notice}`;
  }
  return brief;
}

/** The agent whose work the session records: its first assistant message's agent, else a child/primary. */
export function sourceAgentOf(t: Transcript): string | undefined {
  const first = t.messages.find((m) => m.role === 'assistant' && m.agent);
  if (first) return first.agent;
  return Object.entries(t.agents).find(([, a]) => a.role === 'child' || a.role === 'primary')?.[0];
}
