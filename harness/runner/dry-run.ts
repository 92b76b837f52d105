import type { ModelRequest, ModelResponse, ModelRole, Provider } from '../core/index.ts';
import type { ResolvedConfig } from '../config/types.ts';
import { createSimProvider } from '../providers/sim/index.ts';
import { BATCH_PRICE_FACTOR, priceOf } from '../providers/prices.ts';
import { batchableProviders, isBatchable } from '../batch/batching-provider.ts';
import { requestTokens } from '../core/tokens.ts';
import { harnessVersion } from '../version.ts';
import { resolveModel, requestSeed, type CallPath } from '../calls/call-path.ts';
import { executeCell } from './execute-cell.ts';
import { loadExperiment } from './experiment.ts';
import { planCells } from './plan.ts';

/** What one arm of the plan is expected to cost. */
export interface ArmEstimate {
  suite: string;
  arm: string;
  strategy: string;
  cells: number;
  calls: Record<ModelRole, number>;
  inputTokens: number;
  /** Output tokens as the stand-in (the sim) produced them: a typical length, not a bound. */
  outputTokens: number;
  /** Output tokens if every call used its whole max_tokens: the bound. */
  maxOutputTokens: number;
  costUsd: number;
  maxCostUsd: number;
  /** Cells whose strategy failed during the estimate (their later calls are not counted). */
  failedCells: number;
}

export interface DryRunReport {
  cells: number;
  provider: ResolvedConfig['provider'];
  arms: ArmEstimate[];
  /** Model ids with no price in the table (their cost counts as 0). */
  unpriced: string[];
  /** Call purposes the stand-in has no behaviour for (output estimated at max_tokens). */
  unsimulated: string[];
  /** Priced at the batch APIs' price (`--batch`). */
  batch?: boolean;
}

/**
 * Plans the run and walks every cell without calling any provider: strategies render their handoffs
 * for real, and each model call they would make is counted by role and sized — input tokens from the
 * tokenizer on the rendered request, output tokens from the sim standing in for the model (whose
 * summaries respect the strategy's maxTokens, whose contracts validate) and, as a bound, max_tokens.
 * Cost uses the price table of the models the run would call, at full input price (no prompt caching).
 */
export async function dryRun(
  config: ResolvedConfig,
  opts: { skip?: ReadonlySet<string> } = {},
): Promise<DryRunReport> {
  const suites = await loadExperiment(config);
  const cells = planCells(suites, config).filter((c) => !opts.skip?.has(c.id));
  const stand = createSimProvider(config.sim, { windows: false });
  const arms = new Map<string, ArmEstimate>();
  const unpriced = new Set<string>();
  const unsimulated = new Set<string>();
  for (const cell of cells) {
    const key = `${cell.suite}\u0000${cell.arm}`;
    let est = arms.get(key);
    if (!est)
      arms.set(
        key,
        (est = {
          suite: cell.suite,
          arm: cell.arm,
          strategy: cell.armSpec.strategy,
          cells: 0,
          calls: { source: 0, receiver: 0, judge: 0 },
          inputTokens: 0,
          outputTokens: 0,
          maxOutputTokens: 0,
          costUsd: 0,
          maxCostUsd: 0,
          failedCells: 0,
        }),
      );
    est.cells++;
    const calls = estimatingCallPath(config, stand, est, unpriced, unsimulated);
    const row = await executeCell(cell, { config, calls, runId: 'dry-run', harnessVersion });
    if (row.status === 'error') est.failedCells++;
  }
  return {
    cells: cells.length,
    provider: config.provider,
    arms: [...arms.values()],
    unpriced: [...unpriced].sort(),
    unsimulated: [...unsimulated].sort(),
    ...(config.batch ? { batch: true } : {}),
  };
}

function estimatingCallPath(
  config: ResolvedConfig,
  stand: Provider,
  est: ArmEstimate,
  unpriced: Set<string>,
  unsimulated: Set<string>,
): CallPath {
  return {
    modelFor: (role, aliases) => resolveModel(config, role, aliases),
    forCell(cell) {
      const counters = new Map<string, number>();
      return async (role, input) => {
        const { provider, model, alias } = resolveModel(config, role, cell.aliases);
        const n = counters.get(input.purpose) ?? 0;
        counters.set(input.purpose, n + 1);
        const request: ModelRequest = {
          ...input,
          model: config.models[alias]?.sim ?? 'sim-large',
          seed: requestSeed(config, cell, input.purpose, n),
        };
        let response: ModelResponse;
        try {
          response = await stand.generate(request);
        } catch {
          unsimulated.add(input.purpose);
          response = unsimulatedResponse(model, input.purpose, input.maxTokens);
        }
        const inputTokens = requestTokens(input);
        const outputTokens = Math.min(response.usage.outputTokens, input.maxTokens);
        const price = priceOf(model, config.prices);
        if (!price && provider !== 'sim') unpriced.add(model);
        // `--batch`: the calls a batch API serves are billed at the batch price.
        const factor = config.batch && isBatchable(provider) ? BATCH_PRICE_FACTOR : 1;
        const usd = (tokIn: number, tokOut: number) =>
          price ? (factor * (price.input * tokIn + price.output * tokOut)) / 1e6 : 0;
        est.calls[role]++;
        est.inputTokens += inputTokens;
        est.outputTokens += outputTokens;
        est.maxOutputTokens += input.maxTokens;
        est.costUsd += usd(inputTokens, outputTokens);
        est.maxCostUsd += usd(inputTokens, input.maxTokens);
        const out = {
          ...response,
          model,
          usage: { ...response.usage, inputTokens, outputTokens },
          costUsd: usd(inputTokens, outputTokens),
        };
        cell.made.push({ role, purpose: input.purpose, response: out });
        return out;
      };
    },
  };
}

/**
 * A call the sim stand-in cannot answer: counted at its whole output budget. Its text says so rather
 * than being empty: an empty source answer fails the cell (checkSourceAnswers), and the estimate would
 * then leave out the receiver and judge calls the cell goes on to make.
 */
function unsimulatedResponse(model: string, purpose: string, maxTokens: number): ModelResponse {
  return {
    text: `(dry run: no stand-in answer for call purpose "${purpose}")`,
    toolCalls: [],
    stopReason: 'unsimulated',
    usage: { inputTokens: 0, outputTokens: maxTokens, cacheReadTokens: 0, cacheWriteTokens: 0 },
    latencyMs: 0,
    model,
    cached: false,
    retries: 0,
    costUsd: 0,
  };
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const usd = (n: number) => (n === 0 ? '$0' : n < 0.01 ? `$${n.toFixed(4)}` : `$${n.toFixed(2)}`);

/** The dry-run table: one line per arm, then the total and what the estimate assumes. */
export function renderDryRun(r: DryRunReport): string {
  const lines = [
    `handoff-eval run --dry-run: ${r.cells} cells; nothing was called. Providers: source=${r.provider.source}, receiver=${r.provider.receiver}, judge=${r.provider.judge}.`,
    '',
    '| suite | arm | strategy | cells | source calls | receiver calls | judge calls | input tokens | output tokens (est / max) | cost (est / max) |',
    '|---|---|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const total = { cells: 0, s: 0, r: 0, j: 0, inTok: 0, out: 0, outMax: 0, cost: 0, costMax: 0 };
  for (const a of r.arms) {
    lines.push(
      `| ${a.suite} | ${a.arm} | ${a.strategy} | ${a.cells} | ${a.calls.source} | ${a.calls.receiver} | ${a.calls.judge} | ${fmt(a.inputTokens)} | ${fmt(a.outputTokens)} / ${fmt(a.maxOutputTokens)} | ${usd(a.costUsd)} / ${usd(a.maxCostUsd)} |`,
    );
    Object.assign(total, {
      cells: total.cells + a.cells,
      s: total.s + a.calls.source,
      r: total.r + a.calls.receiver,
      j: total.j + a.calls.judge,
      inTok: total.inTok + a.inputTokens,
      out: total.out + a.outputTokens,
      outMax: total.outMax + a.maxOutputTokens,
      cost: total.cost + a.costUsd,
      costMax: total.costMax + a.maxCostUsd,
    });
  }
  lines.push(
    `| **total** | | | ${total.cells} | ${total.s} | ${total.r} | ${total.j} | ${fmt(total.inTok)} | ${fmt(total.out)} / ${fmt(total.outMax)} | ${usd(total.cost)} / ${usd(total.costMax)} |`,
  );
  lines.push(
    '',
    'Input tokens: the tokenizer (o200k) on each rendered request; a vendor tokenizer may count ±15% differently.',
  );
  lines.push(
    'Output tokens: "est" is what the sim stand-in wrote for each call, "max" is every call using its max_tokens. Cost is at list input price (prompt-cache discounts not applied) and does not subtract responses already in the response cache.',
  );
  lines.push(
    'Calls that depend on a model (contract retries, receiver tool rounds) are counted as the sim made them; a real model may make more or fewer.',
  );
  if (r.batch)
    lines.push(
      `--batch: the calls to ${batchableProviders.join(' and ')} are priced at the batch price (${BATCH_PRICE_FACTOR * 100}% of list, as both vendors document); results arrive within 24 h per dependency phase (docs/scale.md).`,
    );
  if (r.unpriced.length)
    lines.push(
      `No price for: ${r.unpriced.join(', ')} (counted as $0; add them under \`prices\` in eval.config.ts).`,
    );
  if (r.unsimulated.length)
    lines.push(
      `No stand-in behaviour for call purpose(s) ${r.unsimulated.join(', ')}: their output is estimated at max_tokens.`,
    );
  const failed = r.arms.reduce((n, a) => n + a.failedCells, 0);
  if (failed)
    lines.push(
      `${failed} cell(s) failed during the estimate; only the calls made before the failure are counted.`,
    );
  return lines.join('\n');
}
