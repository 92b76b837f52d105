import type { ChatMessage, Handoff, ModelRequestInput, ModelResponse, ModelRole, ResultRow, SimHints } from '../types.ts';
import type { ResolvedConfig } from '../config/types.ts';
import type { CallPath, CellCallContext } from './calls.ts';
import type { PlannedCell } from './plan.ts';
import { countTokens, messagesTokens, requestTokens } from '../tokens.ts';
import { describeError } from '../errors.ts';
import { getStrategy } from '../../strategies/index.ts';
import { renderMessage } from '../../strategies/render.ts';
import { judgeCell } from '../../judges/judge-cell.ts';

export interface CellEnv {
  config: ResolvedConfig;
  calls: CallPath;
  runId: string;
  harnessVersion: string;
  signal?: AbortSignal;
}

/** The receiver may call the tools its handoff gives it (e.g. fetch_transcript_span) this many rounds. */
const MAX_TOOL_ROUNDS = 4;
const RECEIVER_MAX_TOKENS = 2048;
const SEEN_LIMIT = 24_000;

/** One cell: strategy → receiver → judges → one complete row. Failures become an error row. */
export async function executeCell(cell: PlannedCell, env: CellEnv): Promise<ResultRow> {
  const ctx: CellCallContext = { cellId: cell.id, caseId: cell.caseId, rep: cell.rep, aliases: cell.armSpec.models, signal: env.signal, made: [] };
  const call = env.calls.forCell(ctx);
  const base = baseRow(cell, env);
  try {
    const strategy = getStrategy(cell.armSpec.strategy, env.config.strategies);
    const handoff = await strategy.prepare({ case: cell.case, arm: cell.armSpec, rep: cell.rep, budgetTokens: env.config.budgetTokens, tokens: countTokens, call, signal: env.signal }, cell.params);
    const receiver = await runReceiver(cell, handoff, call);
    const judged = await judgeCell(cell.case, handoff, receiver.answer, (r) => call('judge', r), { ...env.config.judge, provider: env.config.provider.judge });
    return { ...base, ...accounting(ctx, receiver.requestTokens, cell), ...judged.fields, detail: { ...judged.detail, system: handoff.system, seen: bounded(seenText(handoff)), answer: receiver.answer, artifacts: boundedArtifacts(handoff.artifacts) } };
  } catch (err) {
    if (env.signal?.aborted) throw err;
    const { message, code } = describeError(err);
    return { ...base, ...accounting(ctx, 0, cell), status: 'error', error: message, error_code: code };
  }
}

async function runReceiver(cell: PlannedCell, h: Handoff, call: (role: ModelRole, r: ModelRequestInput) => Promise<ModelResponse>) {
  const messages: ChatMessage[] = [...h.messages, { role: 'user', text: cell.case.task }];
  const request = (msgs: ChatMessage[]): ModelRequestInput => ({ purpose: 'answer', system: h.system, messages: msgs, tools: h.tools.length ? h.tools : undefined, maxTokens: RECEIVER_MAX_TOKENS, cachePrefix: h.messages.length, sim: hintsOf(cell) });
  const requestTokensIn = requestTokens(request(messages));
  let res = await call('receiver', request(messages));
  for (let round = 0; round < MAX_TOOL_ROUNDS && res.toolCalls.length > 0 && h.runTool; round++) {
    messages.push({ role: 'assistant', text: res.text || undefined, toolCalls: res.toolCalls });
    messages.push({ role: 'user', toolResults: res.toolCalls.map((c) => ({ callId: c.id, content: h.runTool!(c) })) });
    res = await call('receiver', request(messages));
  }
  return { answer: res.text, requestTokens: requestTokensIn };
}

export function hintsOf(cell: PlannedCell): SimHints {
  return { caseId: cell.case.id, assertions: cell.case.assertions, reference: cell.case.reference };
}

function accounting(ctx: CellCallContext, receiverRequestTokens: number, cell: PlannedCell) {
  const work = ctx.made.filter((m) => m.role !== 'judge');
  const sum = (f: (r: ModelResponse) => number, xs = work) => xs.reduce((n, m) => n + f(m.response), 0);
  const history = cell.case.receiverHistory?.messages ?? [];
  return {
    receiver_window_tokens_before: history.length ? messagesTokens(history) + countTokens(cell.case.task) : 0,
    receiver_window_tokens_after: receiverRequestTokens,
    source_output_tokens: sum((r) => r.usage.outputTokens, work.filter((m) => m.role === 'source')),
    input_tokens: sum((r) => r.usage.inputTokens),
    output_tokens: sum((r) => r.usage.outputTokens),
    cache_read_tokens: sum((r) => r.usage.cacheReadTokens),
    latency_ms: sum((r) => r.latencyMs),
    cost_usd: sum((r) => r.costUsd),
    judge_cost_usd: sum((r) => r.costUsd, ctx.made.filter((m) => m.role === 'judge')),
    cached_calls: ctx.made.filter((m) => m.response.cached).length,
    model_calls: ctx.made.length,
  };
}

function baseRow(cell: PlannedCell, env: CellEnv): ResultRow {
  const m = (role: ModelRole) => {
    try {
      const r = env.calls.modelFor(role, cell.armSpec.models);
      return `${r.provider}:${r.model}`;
    } catch {
      return 'unresolved';
    }
  };
  return {
    run_id: env.runId, cell_id: cell.id, suite: cell.suite, case_id: cell.caseId, arm: cell.arm, strategy: cell.armSpec.strategy,
    params: cell.params, rep: cell.rep, status: 'ok', error: null, error_code: null,
    source_model: m('source'), receiver_model: m('receiver'), judge_model: m('judge'), provider: env.config.provider.receiver,
    seed: env.config.seed, harness_version: env.harnessVersion, baseline_arm: cell.baselineArm,
    handoff_tokens: 0, handoff_chars: 0, receiver_window_tokens_before: 0, receiver_window_tokens_after: 0, source_output_tokens: 0,
    input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, latency_ms: 0, cost_usd: 0, judge_cost_usd: 0, cached_calls: 0, model_calls: 0,
    markers_count: 0, tool_calls_visible: 0, overstated_count: 0, judge_errors: 0,
    scores: {}, survival: { payload: {}, answer: {} }, checks: [],
  };
}

function seenText(h: Handoff): string {
  return h.messages.map(renderMessage).join('\n\n');
}

/** Head and tail of a long text with an explicit marker (rows stay small; reports show what was cut). */
function bounded(text: string, limit = SEEN_LIMIT): string {
  if (text.length <= limit) return text;
  const head = Math.floor(limit * 0.4);
  const tail = limit - head;
  return `${text.slice(0, head)}\n… (${text.length - limit} characters omitted from this view) …\n${text.slice(text.length - tail)}`;
}

function boundedArtifacts(a: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(a)) out[k] = typeof v === 'string' ? bounded(v, 8000) : v;
  return out;
}
