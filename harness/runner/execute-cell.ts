import type {
  CellDetail,
  ChatMessage,
  Handoff,
  ModelRequestInput,
  ModelResponse,
  ModelRole,
  ResultRow,
  SimHints,
  ToolCall,
} from '../core/index.ts';
import type { ResolvedConfig } from '../config/types.ts';
import type { CallPath, CellCallContext } from '../calls/call-path.ts';
import type { PlannedCell } from './plan.ts';
import { countTokens, messageTokens } from '../core/tokens.ts';
import { describeError, isFatal, UnusableAnswerError } from '../core/errors.ts';
import { unusableAnswer, unusableKind, truncatedRoles, type UnusableKind } from '../calls/unusable.ts';
import { getStrategy } from '../../strategies/index.ts';
import { judgeCell } from '../../judges/judge-cell.ts';
import { checksOf } from './judging.ts';
import { simHintsOf, trackCalls } from '../../strategies/compose.ts';
import type { HandoffMemo } from './handoff-memo.ts';
import { prepareLive, type LiveCell } from './live-cell.ts';
import { seenOf, handoffTokens, windowBefore, boundedArtifacts } from './cell-views.ts';

export interface CellEnv {
  config: ResolvedConfig;
  calls: CallPath;
  runId: string;
  harnessVersion: string;
  signal?: AbortSignal;
  /** Handoffs of deterministic strategies, shared by the reps of a case × arm (one memo per run). */
  handoffs?: HandoffMemo;
}

/** The receiver may call the tools its handoff gives it (e.g. fetch_transcript_span) this many rounds. */
const MAX_TOOL_ROUNDS = 4;
const RECEIVER_MAX_TOKENS = 2048;

/** One cell: strategy → receiver → judges → one complete row. Failures become an error row. */
export async function executeCell(cell: PlannedCell, env: CellEnv): Promise<ResultRow> {
  const ctx: CellCallContext = {
    cellId: cell.id,
    caseId: cell.caseId,
    rep: cell.rep,
    aliases: cell.armSpec.models,
    signal: env.signal,
    made: [],
  };
  const call = env.calls.forCell(ctx);
  const base = baseRow(cell, env);
  let live: LiveCell | undefined;
  try {
    // Live mode: the source re-runs over the case's world first; everything after sees its transcript.
    live = await prepareLive(cell, env.config.strategies, call);
    const run = live ? { ...cell, case: live.case } : cell;
    const before = ctx.made.length;
    const prepared = await prepareHandoff(run, env, call);
    checkSourceAnswers(ctx.made.slice(before));
    const handoff = live ? live.receiverHandoff(prepared) : prepared;
    const receiver = await runReceiver(run, handoff, call);
    const judged = await judgeCell(run.case, handoff, receiver.answer, (r) => call('judge', r), {
      ...env.config.judge,
      provider: env.config.provider.judge,
      registry: env.config.criteria,
      checks: checksOf(env.config, cell.suite),
    });
    // Object.assign onto the fresh base row, not spreads into a new object: the same keys in the same
    // order, without V8 rebuilding a 40-field object per spread (several µs per cell).
    if (live?.reading) {
      // The "made by the source" stage is read before the strategy runs; its disagreement sits with the others.
      judged.fields.survival_disagreement = {
        made: live.reading.disagreement,
        ...judged.fields.survival_disagreement,
      };
    }
    const detail = {
      ...judged.detail,
      ...(live?.reading ? { source_claims: live.reading.claims } : {}),
      ...unquotedOf(judged.detail.survival_unquoted, live?.reading?.unquoted),
      system: handoff.system,
      seen: seenOf(handoff),
      answer: receiver.answer,
      artifacts: boundedArtifacts({ ...handoff.artifacts, ...live?.artifacts }),
    };
    return Object.assign(
      base,
      accounting(ctx, receiver.requestTokens, run),
      judged.fields,
      live?.fields(receiver.toolCalls),
      truncatedRoles(ctx.made, cell.armSpec.allowTruncation === true),
      { detail },
    );
  } catch (err) {
    // Not a row: an interrupted cell is simply not done, and a fatal provider error stops the run
    // (every other cell would fail the same way) — either way a resume runs the cell again.
    if (env.signal?.aborted || isFatal(err)) throw err;
    const { message, code } = describeError(err);
    return Object.assign(base, accounting(ctx, 0, cell), {
      status: 'error' as const,
      error: message,
      error_code: code,
    });
  } finally {
    live?.close();
  }
}

function prepareHandoff(
  cell: PlannedCell,
  env: CellEnv,
  call: (role: ModelRole, r: ModelRequestInput) => Promise<ModelResponse>,
): Promise<Handoff> {
  const strategy = getStrategy(cell.armSpec.strategy, env.config.strategies);
  const ctx = {
    case: cell.case,
    arm: cell.armSpec,
    rep: cell.rep,
    budgetTokens: env.config.budgetTokens,
    tokens: countTokens,
    // Tracked apart from the cell's receiver and judge calls: finishHandoff totals the strategy's own.
    call: trackCalls(call),
    signal: env.signal,
  };
  if (!strategy.deterministic) return strategy.prepare(ctx, cell.params);
  // One handoff for every rep of the case × arm: it may not depend on the rep's calls, so there are none.
  ctx.call = () =>
    Promise.reject(
      new Error(`strategy "${strategy.name}" is declared deterministic but asked for a model call`),
    );
  // A live cell's source differs per rep: its handoff is its own.
  if (!env.handoffs || cell.live) return strategy.prepare(ctx, cell.params);
  return env.handoffs.get(`${cell.suite}\n${cell.caseId}\n${cell.arm}`, () =>
    strategy.prepare(ctx, cell.params),
  );
}

async function runReceiver(
  cell: PlannedCell,
  h: Handoff,
  call: (role: ModelRole, r: ModelRequestInput) => Promise<ModelResponse>,
) {
  const messages: ChatMessage[] = [...h.messages, { role: 'user', text: cell.case.task }];
  const sim = simHintsOf(cell.case);
  const first = receiverRequest(h, messages, sim);
  // requestTokens(first), with the handoff's part counted once per handoff.
  const requestTokensIn = handoffTokens(h) + messageTokens(messages[messages.length - 1]!);
  const toolCalls: ToolCall[] = [];
  let res = await call('receiver', first);
  const rounds = h.toolRounds ?? MAX_TOOL_ROUNDS;
  for (let round = 0; round < rounds && res.toolCalls.length > 0 && h.runTool; round++) {
    toolCalls.push(...res.toolCalls);
    messages.push({ role: 'assistant', text: res.text || undefined, toolCalls: res.toolCalls });
    messages.push({
      role: 'user',
      toolResults: res.toolCalls.map((c) => ({ callId: c.id, content: h.runTool!(c) })),
    });
    res = await call('receiver', receiverRequest(h, messages, sim));
  }
  const unusable = unusableAnswer(res);
  if (unusable) throw new UnusableAnswerError(unusable, res.stopReason, unusableDetail(unusable, res));
  return { answer: res.text, requestTokens: requestTokensIn, toolCalls };
}

/**
 * The source's answers the handoff was built from (a summary, a spawn background, a contract): one
 * that is empty, refused or content-filtered would be handed on as if it were the handoff and scored,
 * so the cell is an error row naming it, as an unusable receiver answer is.
 */
function checkSourceAnswers(made: CellCallContext['made']): void {
  for (const { role, purpose, response } of made) {
    if (role !== 'source') continue;
    const kind = unusableKind(response);
    if (!kind) continue;
    const said = response.text.trim() ? `: ${JSON.stringify(response.text.trim().slice(0, 160))}` : '';
    const what = `the source's ${purpose} answer`;
    const detail =
      kind === 'refusal'
        ? `the source refused its ${purpose} call (stop reason ${response.stopReason})${said}`
        : kind === 'content_filter'
          ? `${what} was stopped by a content filter (stop reason ${response.stopReason})${said}`
          : `${what} is empty (stop reason ${response.stopReason})`;
    throw new UnusableAnswerError(kind, response.stopReason, detail);
  }
}

/** Why the cell has no answer to judge, with what the receiver did say. */
function unusableDetail(kind: UnusableKind, res: ModelResponse): string {
  const said = res.text.trim() ? `: ${JSON.stringify(res.text.trim().slice(0, 160))}` : '';
  if (kind === 'refusal') return `the receiver refused (stop reason ${res.stopReason})${said}`;
  if (kind === 'content_filter')
    return `the receiver's answer was stopped by a content filter (stop reason ${res.stopReason})${said}`;
  return `the receiver's answer is empty (stop reason ${res.stopReason})`;
}

function receiverRequest(h: Handoff, messages: ChatMessage[], sim: SimHints): ModelRequestInput {
  return {
    purpose: 'answer',
    system: h.system,
    messages,
    tools: h.tools.length ? h.tools : undefined,
    maxTokens: RECEIVER_MAX_TOKENS,
    cachePrefix: h.messages.length,
    sim,
  };
}

/** The row's totals over the cell's calls (one pass: this runs for every cell). Judge calls count apart. */
function accounting(ctx: CellCallContext, receiverRequestTokens: number, cell: PlannedCell) {
  const out = {
    receiver_window_tokens_before: windowBefore(cell.case),
    receiver_window_tokens_after: receiverRequestTokens,
    source_output_tokens: 0,
    input_tokens: 0,
    output_tokens: 0,
    cache_read_tokens: 0,
    latency_ms: 0,
    cost_usd: 0,
    judge_cost_usd: 0,
    cached_calls: 0,
    model_calls: ctx.made.length,
    stop_reason: null as string | null,
  };
  for (const { role, response: r } of ctx.made) {
    if (r.cached) out.cached_calls++;
    if (role === 'receiver') out.stop_reason = r.stopReason;
    if (role === 'judge') {
      out.judge_cost_usd += r.costUsd;
      continue;
    }
    if (role === 'source') out.source_output_tokens += r.usage.outputTokens;
    out.input_tokens += r.usage.inputTokens;
    out.output_tokens += r.usage.outputTokens;
    out.cache_read_tokens += r.usage.cacheReadTokens;
    out.latency_ms += r.latencyMs;
    out.cost_usd += r.costUsd;
  }
  return out;
}

function modelLabel(env: CellEnv, role: ModelRole, aliases: PlannedCell['armSpec']['models']): string {
  try {
    const r = env.calls.modelFor(role, aliases);
    return `${r.provider}:${r.model}`;
  } catch {
    return 'unresolved';
  }
}

function baseRow(cell: PlannedCell, env: CellEnv): ResultRow {
  const models = cell.armSpec.models;
  return {
    run_id: env.runId,
    cell_id: cell.id,
    suite: cell.suite,
    case_id: cell.caseId,
    labels_proposed: cell.case.assertions.filter((a) => a.status === 'proposed').length,
    labels_confirmed: cell.case.assertions.filter((a) => a.status !== 'proposed').length,
    arm: cell.arm,
    strategy: cell.armSpec.strategy,
    params: cell.params,
    rep: cell.rep,
    status: 'ok',
    error: null,
    error_code: null,
    stop_reason: null,
    source_model: modelLabel(env, 'source', models),
    receiver_model: modelLabel(env, 'receiver', models),
    judge_model: modelLabel(env, 'judge', models),
    provider: env.config.provider.receiver,
    seed: env.config.seed,
    harness_version: env.harnessVersion,
    baseline_arm: cell.baselineArm,
    primary_criterion: cell.primaryCriterion,
    handoff_tokens: 0,
    handoff_chars: 0,
    receiver_window_tokens_before: 0,
    receiver_window_tokens_after: 0,
    source_output_tokens: 0,
    input_tokens: 0,
    output_tokens: 0,
    cache_read_tokens: 0,
    latency_ms: 0,
    cost_usd: 0,
    judge_cost_usd: 0,
    cached_calls: 0,
    model_calls: 0,
    markers_count: 0,
    tool_calls_visible: 0,
    overstated_count: 0,
    judge_errors: 0,
    scores: {},
    survival: { payload: {}, answer: {} },
    checks: [],
  };
}

/** The classifier's unquoted marks (read absent) of every stage, the source's sections beside the payload's and answer's. */
function unquotedOf(
  judged: CellDetail['survival_unquoted'],
  made: CellDetail['survival_unquoted'] | undefined,
): Pick<CellDetail, 'survival_unquoted'> {
  const all = { ...made, ...judged };
  return Object.keys(all).length ? { survival_unquoted: all } : {};
}
