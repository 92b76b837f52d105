import type { Message, Transcript } from '../core/index.ts';
import type { ResolvedSource } from '../config/sources.ts';
import { SourceRunError } from '../core/errors.ts';
import { briefOf, sourceAgentOf, type SourceLoopResult } from './loop.ts';
import { runOwnSource } from './own-source.ts';

/**
 * The user's own agent in place of the harness's source loop (docs/live.md#your-own-agent-as-the-source): it gets
 * the same brief the loop would (the recorded session's leading user messages plus the arm's notice)
 * and its imported session becomes the live transcript — the brief as the case states it, then the
 * agent's own messages, stamped with the recorded source agent so strategies and judges see the same
 * agents as in the recording. Its effort is read from that session: tool calls and error results as
 * it recorded them, turns = its assistant messages, latency = its process's wall time. The harness
 * cannot refuse an own agent's calls, so a budget is exhausted when the session made more calls than
 * the budget (`refused` stays 0).
 */
export async function runOwnSourceLoop(o: {
  recorded: Transcript;
  notice?: string;
  source: ResolvedSource;
  budget: number;
  worldRoot: string;
  worldKey: unknown;
  cacheDir: string | null;
  where: string;
}): Promise<SourceLoopResult> {
  const brief = briefOf(o.recorded, o.notice);
  const text = brief.map((m) => m.text ?? '').join('\n\n');
  const run = await runOwnSource(o.source, {
    worldRoot: o.worldRoot,
    worldKey: o.worldKey,
    brief: text,
    budget: o.budget,
    cacheDir: o.cacheDir,
    where: o.where,
  });
  const own = ownMessages(run.transcript);
  if (!own.some((m) => m.role === 'assistant'))
    throw new SourceRunError(
      `source "${o.source.name}" (${o.where}): its session (${run.format}) holds no assistant message after the brief`,
    );
  const agent = sourceAgentOf(o.recorded);
  const messages: Message[] = [
    ...brief,
    ...own.map((m) => {
      const { agent: _a, ...rest } = m;
      return (m.role === 'assistant' && agent ? { ...rest, agent } : rest) as Message;
    }),
  ];
  const calls = own.flatMap((m) => m.toolCalls ?? []);
  const results = own.flatMap((m) => m.toolResults ?? []);
  const last = [...own].reverse().find((m) => m.role === 'assistant');
  const budgetExhausted = calls.length > o.budget;
  return {
    transcript: {
      id: `${o.recorded.id ?? 'source'}-live-${o.source.name}`,
      agents: o.recorded.agents,
      messages,
      meta: {
        live: true,
        ownSource: o.source.name,
        ownSourceVersion: o.source.version,
        format: run.format,
        cached: run.cached,
        toolCalls: calls.length,
        budget: o.budget,
        budgetExhausted,
      },
    },
    toolCalls: calls.length,
    toolErrors: results.filter((r) => r.isError).length,
    refused: 0,
    budgetExhausted,
    turns: own.filter((m) => m.role === 'assistant').length,
    latencyMs: run.wallMs,
    outputTokens: 0,
    stopReason: last?.toolCalls?.length ? 'tool_use' : 'end_turn',
  };
}

/** The session after its own leading brief (user messages with text and no tool results). */
function ownMessages(t: Transcript): Message[] {
  let n = 0;
  while (n < t.messages.length && t.messages[n]!.role === 'user' && !t.messages[n]!.toolResults?.length) n++;
  return t.messages.slice(n);
}
