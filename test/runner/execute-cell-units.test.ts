import { describe, expect, it } from 'vitest';
import type {
  CallRecord,
  ModelRequest,
  ModelResponse,
  Provider,
  Strategy,
  StrategyContext,
} from '../../harness/core/index.ts';
import type { ResolvedConfig } from '../../harness/config/types.ts';
import { resolveConfig } from '../../harness/config/resolve-config.ts';
import { createProviders } from '../../harness/providers/index.ts';
import { createCallPath } from '../../harness/calls/call-path.ts';
import { executeCell } from '../../harness/runner/execute-cell.ts';
import { HandoffMemo } from '../../harness/runner/handoff-memo.ts';
import { windowBefore } from '../../harness/runner/cell-views.ts';
import { ProviderError } from '../../harness/core/errors.ts';
import { finishHandoff } from '../../strategies/compose.ts';
import { miniCase } from '../strategies/helpers.ts';

/**
 * One cell in-process, with the receiver (and, where asked, the source) scripted and the sim judging
 * (issue 32 item 3): what an error row holds, each unusable answer's wording, the receiver request,
 * the row's totals, a deterministic strategy's shared handoff, and the errors that stop a run instead
 * of becoming a row.
 */
type Script = (req: ModelRequest, n: number) => Partial<ModelResponse> | Error;

const ok: Script = () => ({ text: 'The answer.', stopReason: 'end_turn' });

function strategy(
  name: string,
  opts: {
    deterministic?: boolean;
    source?: Partial<ModelResponse>;
    toolRounds?: number;
    prepared?: { n: number };
  } = {},
): Strategy {
  return {
    name,
    description: 'test',
    seed: 'test',
    params: {},
    ...(opts.deterministic ? { deterministic: true } : {}),
    prepare: async (ctx: StrategyContext) => {
      if (opts.prepared) opts.prepared.n++;
      if (opts.source || opts.deterministic === undefined)
        await ctx.call('source', {
          purpose: 'summarize',
          messages: [{ role: 'user', text: 'sum up' }],
          maxTokens: 64,
        });
      const h = finishHandoff(ctx, {
        system: 'SYS',
        messages: [
          { role: 'user', text: 'handoff one' },
          { role: 'assistant', text: 'handoff two' },
        ],
      });
      return opts.toolRounds === undefined ? h : { ...h, toolRounds: opts.toolRounds };
    },
  };
}

async function runCell(
  s: Strategy,
  script: Script,
  o: {
    source?: Partial<ModelResponse>;
    rep?: number;
    models?: { source: string; receiver: string };
    signal?: AbortSignal;
    handoffs?: HandoffMemo;
    config?: (c: ResolvedConfig) => ResolvedConfig;
  } = {},
) {
  const base = resolveConfig({ cache: false, seed: 11 }, {}, 'eval.config.ts');
  const config = (o.config ?? ((c) => c))({ ...base, strategies: { ...base.strategies, [s.name]: s } });
  const providers = await createProviders(config);
  const sim = providers.sim!;
  const answers: ModelRequest[] = [];
  const scripted: Provider = {
    ...sim,
    generate: async (req, g) => {
      // Costs and latencies of their own per purpose, so a row's totals show which calls they summed.
      const raw = await sim.generate(req, g);
      const priced = { judge: 0.25, classify: 0.25, answer: 0.125, summarize: 0.0625 } as Record<
        string,
        number
      >;
      const real = {
        ...raw,
        costUsd: priced[req.purpose] ?? 1,
        latencyMs: req.purpose === 'answer' ? 7 : 3,
        usage: { ...raw.usage, cacheReadTokens: req.purpose === 'answer' ? 5 : 1 },
      };
      if (req.purpose === 'summarize') return { ...real, toolCalls: [], ...o.source };
      if (req.purpose !== 'answer') return real;
      answers.push(structuredClone(req));
      const r = script(req, answers.length - 1);
      if (r instanceof Error) throw r;
      return { ...real, toolCalls: [], ...r };
    },
  };
  const records: CallRecord[] = [];
  const calls = createCallPath({
    config,
    providers: { sim: scripted },
    cache: null,
    runId: 'cell-units',
    onCall: (r) => records.push(r),
  });
  const c = await miniCase();
  const armSpec = {
    name: 'arm-x',
    strategy: s.name,
    models: o.models ?? { source: 'large', receiver: 'small' },
  };
  const rep = o.rep ?? 0;
  const cell = {
    id: `mini/${c.id}/arm-x/${rep}`,
    suite: 'mini',
    caseId: c.id,
    arm: 'arm-x',
    rep,
    case: c,
    armSpec,
    params: {},
    baselineArm: 'inline',
    primaryCriterion: 'correctness',
  };
  const row = await executeCell(cell, {
    config,
    calls,
    runId: 'cell-units',
    harnessVersion: 'hv-test',
    ...(o.signal ? { signal: o.signal } : {}),
    ...(o.handoffs ? { handoffs: o.handoffs } : {}),
  });
  return { row, answers, records, c, config };
}

describe('a cell’s error row', () => {
  it('holds the cell’s identity, the reason and code, and the totals of the calls made before it failed', async () => {
    const { row, records, c } = await runCell(
      strategy('det', { deterministic: true }),
      () => new Error('boom'),
    );
    expect(row).toMatchObject({
      run_id: 'cell-units',
      cell_id: `mini/${c.id}/arm-x/0`,
      suite: 'mini',
      case_id: c.id,
      arm: 'arm-x',
      strategy: 'det',
      params: {},
      rep: 0,
      status: 'error',
      error: 'Error: boom',
      error_code: 'internal',
      stop_reason: null,
      source_model: 'sim:sim-large',
      receiver_model: 'sim:sim-small',
      judge_model: 'sim:sim-judge',
      provider: 'sim',
      seed: 11,
      harness_version: 'hv-test',
      baseline_arm: 'inline',
      primary_criterion: 'correctness',
      receiver_window_tokens_before: windowBefore(c),
      receiver_window_tokens_after: 0,
      model_calls: 0,
      input_tokens: 0,
      cost_usd: 0,
      scores: {},
      checks: [],
      judge_errors: 0,
      survival: { payload: {}, answer: {} },
    });
    expect(row.detail).toBeUndefined();
    expect(row.labels_proposed! + row.labels_confirmed!).toBe(c.assertions.length);
    expect(row.labels_confirmed).toBe(c.assertions.filter((a) => a.status !== 'proposed').length);
    expect(records.map((r) => [r.role, r.purpose, r.error])).toEqual([['receiver', 'answer', 'Error: boom']]);
  });

  it('counts a source call made before a failed receiver', async () => {
    const { row, records } = await runCell(strategy('src'), () => new Error('late'));
    expect(row.status).toBe('error');
    expect(row.model_calls).toBe(1);
    const source = records.find((r) => r.role === 'source')!;
    expect(row.input_tokens).toBe(source.inputTokens);
    expect(row.source_output_tokens).toBe(source.outputTokens);
    expect(row.output_tokens).toBe(source.outputTokens);
    expect(row.cost_usd).toBe(source.costUsd);
    expect(row.receiver_window_tokens_after).toBe(0);
  });

  it('a model alias the config lacks: labelled "unresolved", and the cell is an error row naming the field', async () => {
    const { row } = await runCell(strategy('det', { deterministic: true }), ok, {
      models: { source: 'nope', receiver: 'large' },
    });
    expect(row.source_model).toBe('unresolved');
    expect(row.receiver_model).toBe('sim:sim-large');
    expect(row.status).toBe('ok'); // a deterministic strategy never calls its source
    const failed = await runCell(strategy('det2', { deterministic: true }), ok, {
      models: { source: 'large', receiver: 'nope' },
    });
    expect(failed.row.receiver_model).toBe('unresolved');
    expect(failed.row).toMatchObject({
      status: 'error',
      error_code: 'config_invalid',
      error: 'eval.config.ts: models.nope.sim: no model id for alias "nope" under provider "sim"',
    });
  });

  it('a deterministic strategy that asks for a model call is an error row saying so', async () => {
    const s: Strategy = {
      ...strategy('liar', { deterministic: true }),
      prepare: async (ctx) => {
        await ctx.call('source', { purpose: 'summarize', messages: [], maxTokens: 8 });
        throw new Error('unreachable');
      },
    };
    const { row } = await runCell(s, ok);
    expect(row.status).toBe('error');
    expect(row.error).toBe('Error: strategy "liar" is declared deterministic but asked for a model call');
  });

  it('a fatal provider error and an aborted cell are thrown, not made rows', async () => {
    const fatal = new ProviderError('sim', 'key refused', 401, undefined, { fatal: true });
    await expect(runCell(strategy('det', { deterministic: true }), () => fatal)).rejects.toBe(fatal);
    const notFatal = new ProviderError('sim', 'overloaded', 529, 'req-1');
    const { row } = await runCell(strategy('det', { deterministic: true }), () => notFatal);
    expect(row.error).toBe('overloaded; status 529; request req-1');
    expect(row.error_code).toBe('provider_error');
    const ac = new AbortController();
    ac.abort();
    const err = new Error('aborted');
    await expect(
      runCell(strategy('det', { deterministic: true }), () => err, { signal: ac.signal }),
    ).rejects.toBe(err);
  });
});

describe('an answer nobody can score', () => {
  const long = 'x'.repeat(200);
  it.each([
    [
      { text: "I can't help.", stopReason: 'refusal' },
      'refusal',
      'the receiver refused (stop reason refusal): "I can\'t help."',
    ],
    [{ text: '  ', stopReason: 'refusal' }, 'refusal', 'the receiver refused (stop reason refusal)'],
    [
      { text: long, stopReason: 'content_filter' },
      'content_filter',
      `the receiver's answer was stopped by a content filter (stop reason content_filter): "${'x'.repeat(160)}"`,
    ],
    [
      { text: '', stopReason: 'content_filter' },
      'content_filter',
      "the receiver's answer was stopped by a content filter (stop reason content_filter)",
    ],
    [
      { text: ' \n', stopReason: 'end_turn' },
      'empty_answer',
      "the receiver's answer is empty (stop reason end_turn)",
    ],
  ] as const)('receiver %j → %s', async (answer, code, message) => {
    const { row } = await runCell(strategy('det', { deterministic: true }), () => answer);
    expect(row).toMatchObject({
      status: 'error',
      error_code: code,
      error: message,
      stop_reason: answer.stopReason,
    });
    expect(row.model_calls).toBe(1);
    expect(row.scores).toEqual({});
  });

  it.each([
    [
      { text: ' No. ', stopReason: 'refusal' },
      'refusal',
      'the source refused its summarize call (stop reason refusal): "No."',
    ],
    [
      { text: '', stopReason: 'refusal' },
      'refusal',
      'the source refused its summarize call (stop reason refusal)',
    ],
    [
      { text: 'half', stopReason: 'content_filter' },
      'content_filter',
      `the source's summarize answer was stopped by a content filter (stop reason content_filter): "half"`,
    ],
    [
      { text: '', stopReason: 'end_turn' },
      'empty_answer',
      "the source's summarize answer is empty (stop reason end_turn)",
    ],
  ] as const)('source %j → %s, before the receiver is asked', async (source, code, message) => {
    const { row, answers } = await runCell(strategy('src', { source }), ok, { source });
    expect(row).toMatchObject({ status: 'error', error_code: code, error: message });
    expect(answers).toEqual([]);
  });

  it('a receiver answer with text and a tool call it may not run is usable: its text is judged', async () => {
    const { row } = await runCell(strategy('det', { deterministic: true }), () => ({
      text: 'Final.',
      stopReason: 'tool_use',
      toolCalls: [{ id: 't', name: 'x', input: {} }],
    }));
    expect(row.status).toBe('ok');
    expect(row.detail?.answer).toBe('Final.');
    expect(row.stop_reason).toBe('tool_use');
  });
});

describe('an ok cell', () => {
  it('asks the receiver once with the handoff, then the task; 2048 tokens; the cache prefix at the handoff', async () => {
    const { row, answers, c } = await runCell(strategy('det', { deterministic: true }), ok);
    expect(row.status, row.error ?? '').toBe('ok');
    expect(answers).toHaveLength(1);
    const req = answers[0]!;
    expect(req.purpose).toBe('answer');
    expect(req.system).toBe('SYS');
    expect(req.maxTokens).toBe(2048);
    expect(req.cachePrefix).toBe(2);
    expect(req.tools).toBeUndefined();
    expect(req.model).toBe('sim-small');
    expect(req.seed).toBe(`11/${c.id}/0/answer#0`);
    expect(req.messages.map((m) => m.text)).toEqual(['handoff one', 'handoff two', c.task]);
    expect(row.detail).toMatchObject({ system: 'SYS', answer: 'The answer.' });
    expect(row.detail?.seen).toContain('handoff one');
    expect(row.receiver_window_tokens_after).toBeGreaterThan(0);
  });

  it('totals: source and receiver in the cell’s tokens and cost, judge calls only in judge_cost_usd', async () => {
    const { row, records } = await runCell(strategy('src'), ok);
    expect(row.status, row.error ?? '').toBe('ok');
    const of = (role: string) => records.filter((r) => r.role === role);
    const sum = (rs: CallRecord[], f: (r: CallRecord) => number) => rs.reduce((n, r) => n + f(r), 0);
    const work = [...of('source'), ...of('receiver')];
    expect(of('judge').length).toBeGreaterThan(0);
    expect(row.model_calls).toBe(records.length);
    expect(row.input_tokens).toBe(sum(work, (r) => r.inputTokens));
    expect(row.output_tokens).toBe(sum(work, (r) => r.outputTokens));
    expect(row.cache_read_tokens).toBe(sum(work, (r) => r.cacheReadTokens));
    expect(row.latency_ms).toBe(sum(work, (r) => r.latencyMs));
    expect(row.cost_usd).toBeCloseTo(
      sum(work, (r) => r.costUsd),
      12,
    );
    expect(row.judge_cost_usd).toBeCloseTo(
      sum(of('judge'), (r) => r.costUsd),
      12,
    );
    expect(row.judge_cost_usd).toBeGreaterThan(0);
    expect(row.source_output_tokens).toBe(sum(of('source'), (r) => r.outputTokens));
    expect(row.stop_reason).toBe('end_turn');
    expect(row.cached_calls).toBe(0);
  });

  it('a handoff’s own toolRounds bounds the receiver’s tool loop', async () => {
    const s = strategy('rounds', { deterministic: true, toolRounds: 1 });
    const tooled: Strategy = {
      ...s,
      prepare: async (ctx) => ({ ...(await s.prepare(ctx, {})), runTool: () => 'tool says hi' }),
    };
    const { row, answers } = await runCell(tooled, (_req, n) =>
      n < 3
        ? { text: '', toolCalls: [{ id: `t${n}`, name: 'peek', input: {} }], stopReason: 'tool_use' }
        : { text: 'done', stopReason: 'end_turn' },
    );
    expect(answers).toHaveLength(2);
    expect(answers[1]!.messages.at(-1)!.toolResults).toEqual([{ callId: 't0', content: 'tool says hi' }]);
    expect(row.status).toBe('error');
    expect(row.error_code).toBe('empty_answer');
  });

  it('a deterministic handoff is prepared once for the reps of a case × arm when a memo is given', async () => {
    const prepared = { n: 0 };
    const s = strategy('memo', { deterministic: true, prepared });
    const handoffs = new HandoffMemo();
    await runCell(s, ok, { handoffs, rep: 0 });
    await runCell(s, ok, { handoffs, rep: 1 });
    expect(prepared.n).toBe(1);
    await runCell(s, ok, { rep: 2 });
    expect(prepared.n).toBe(2);
    const fresh = { n: 0 };
    const nd = strategy('nd', { prepared: fresh });
    const memo = new HandoffMemo();
    await runCell(nd, ok, { handoffs: memo, rep: 0 });
    await runCell(nd, ok, { handoffs: memo, rep: 1 });
    expect(fresh.n).toBe(2);
  });
});
