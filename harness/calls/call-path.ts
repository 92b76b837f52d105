import pLimit, { type LimitFunction } from 'p-limit';
import { configDefaults } from '../config/defaults.ts';
import type {
  CallRecord,
  ModelRequest,
  ModelRequestInput,
  ModelResponse,
  ModelRole,
  Provider,
} from '../core/index.ts';
import type { ResolvedConfig } from '../config/types.ts';
import { ConfigError, describeError } from '../core/errors.ts';
import type { ResponseCache } from '../cache/types.ts';
import { costOf } from '../providers/prices.ts';
import { maskAnswer, maskSecrets } from '../core/redact.ts';
import { retriesOf } from '../providers/wire-client.ts';
import { unusableKind } from './unusable.ts';

/**
 * The one path every model call takes: cache lookup → concurrency limit per provider → the provider
 * (whose SDK owns retries) → usage and latency accounting → cache store (usable answers only). Strategies and judges only
 * ever see `call(role, request)`.
 */
export interface CallPath {
  /** Resolves role → provider + model id for an arm's aliases. */
  modelFor(
    role: ModelRole,
    aliases: { source: string; receiver: string },
  ): { provider: string; model: string };
  forCell(cell: CellCallContext): (role: ModelRole, input: ModelRequestInput) => Promise<ModelResponse>;
}

export interface CellCallContext {
  cellId: string;
  caseId: string;
  rep: number;
  aliases: { source: string; receiver: string };
  signal?: AbortSignal;
  /** Every call made for the cell, in order (for the row's totals). */
  made: { role: ModelRole; purpose: string; response: ModelResponse }[];
}

export interface CallPathOptions {
  config: ResolvedConfig;
  providers: Record<string, Provider>;
  cache: ResponseCache | null;
  runId: string;
  onCall: (record: CallRecord) => void;
  /** Providers whose calls are not limited here (batched calls wait in a batch, not on a socket). */
  unbounded?: ReadonlySet<string>;
}

export function createCallPath(opts: CallPathOptions): CallPath {
  const { config } = opts;
  const limits = new Map<string, LimitFunction>();
  const limitFor = (provider: string) => {
    let l = limits.get(provider);
    if (!l)
      limits.set(
        provider,
        (l = pLimit(
          opts.unbounded?.has(provider)
            ? Number.POSITIVE_INFINITY
            : (config.providers[provider]?.concurrency ??
                (provider === 'sim'
                  ? configDefaults.providers.simConcurrency
                  : configDefaults.providers.concurrency)),
        )),
      );
    return l;
  };
  const modelFor: CallPath['modelFor'] = (role, aliases) => resolveModel(config, role, aliases);
  const inflight = new Map<string, Promise<ModelResponse>>();
  return {
    modelFor,
    forCell(cell) {
      const counters = new Map<string, number>();
      return async (role, input) => {
        const { provider, model } = modelFor(role, cell.aliases);
        const n = counters.get(input.purpose) ?? 0;
        counters.set(input.purpose, n + 1);
        const request: ModelRequest = { ...input, model, seed: requestSeed(config, cell, input.purpose, n) };
        const response = await callOnce(request, provider, role, cell, opts, limitFor(provider), inflight);
        cell.made.push({ role, purpose: input.purpose, response });
        return response;
      };
    },
  };
}

/** Role → provider and model id, for an arm's model aliases (the judge has its own alias). */
export function resolveModel(
  config: ResolvedConfig,
  role: ModelRole,
  aliases: { source: string; receiver: string },
): { provider: string; model: string; alias: string } {
  const provider = config.provider[role];
  const alias = role === 'judge' ? config.judge.model : aliases[role];
  const model = config.models[alias]?.[provider];
  if (!model)
    throw new ConfigError(
      config.configFile ?? 'config',
      `models.${alias}.${provider}`,
      `no model id for alias "${alias}" under provider "${provider}"`,
    );
  return { provider, model, alias };
}

/** The per-call seed: run seed, case, rep, purpose and the call's index among the cell's calls of that purpose. */
export function requestSeed(
  config: Pick<ResolvedConfig, 'seed'>,
  cell: Pick<CellCallContext, 'caseId' | 'rep'>,
  purpose: string,
  n: number,
): string {
  return `${config.seed}/${cell.caseId}/${cell.rep}/${purpose}#${n}`;
}

async function callOnce(
  request: ModelRequest,
  provider: string,
  role: ModelRole,
  cell: CellCallContext,
  opts: CallPathOptions,
  limit: LimitFunction,
  inflight: Map<string, Promise<ModelResponse>>,
): Promise<ModelResponse> {
  const p = opts.providers[provider];
  if (!p)
    throw new ConfigError(
      opts.config.configFile ?? 'config',
      'provider',
      `provider "${provider}" is not available`,
    );
  // Hashed once per call (canonical JSON of the whole request is the costliest harness step per call).
  const scope = typeof p.cacheScope === 'function' ? p.cacheScope(request.model) : p.cacheScope;
  const key = opts.cache?.keyOf(provider, request, scope);
  const hit = key ? opts.cache!.get(key) : undefined;
  if (hit && unusableKind(hit) === null) {
    // A hit keeps the original call's usage and latency (what the arm costs) and made no retries; its
    // cost is priced from that usage by today's price table, which may not be the one it was stored under.
    const costUsd = costOf(request.model, hit.usage, opts.config.prices);
    const response = { ...maskAnswer(hit), cached: true, retries: 0, costUsd };
    opts.onCall(callRecord(opts.runId, cell, role, provider, request, response));
    return response;
  }
  // The same request already in flight (two arms whose sources were told the same, in live mode) is
  // one call: both get its response, as the cache would give it to a later run — so a re-run sees
  // exactly what this run saw.
  const flying = key ? inflight.get(key) : undefined;
  const shared = flying ? await flying.catch(() => undefined) : undefined;
  // Shared like a cache hit, so only what the cache would keep: an unusable answer is asked again.
  if (shared && unusableKind(shared) === null) {
    const response = { ...shared, cached: true, retries: 0 };
    opts.onCall(callRecord(opts.runId, cell, role, provider, request, response));
    return response;
  }
  // A configured key the server echoed (a debugging proxy, a prompt-injected answer) is masked before
  // the answer is used, so no stored copy holds it: results.jsonl, the reports, the cache.
  const pending = limit(() => p.generate(request, { signal: cell.signal })).then((raw) => ({
    ...maskAnswer(raw),
    costUsd: raw.costUsd || costOf(request.model, raw.usage, opts.config.prices),
  }));
  if (key) inflight.set(key, pending);
  let response: ModelResponse;
  try {
    response = await pending;
  } catch (err) {
    opts.onCall(callRecord(opts.runId, cell, role, provider, request, null, err));
    throw err;
  } finally {
    if (key) inflight.delete(key);
  }
  // Never stored: an error (thrown above), an empty answer, a refusal or a content-filter stop — the
  // next run asks again instead of replaying an answer nobody can score.
  if (key && unusableKind(response) === null) opts.cache!.set(key, response);
  opts.onCall(callRecord(opts.runId, cell, role, provider, request, response));
  return response;
}

function callRecord(
  runId: string,
  cell: CellCallContext,
  role: ModelRole,
  provider: string,
  request: ModelRequest,
  response: ModelResponse | null,
  error?: unknown,
): CallRecord {
  return {
    runId,
    cellId: cell.cellId,
    role,
    purpose: request.purpose,
    provider,
    model: request.model,
    inputTokens: response?.usage.inputTokens ?? 0,
    outputTokens: response?.usage.outputTokens ?? 0,
    cacheReadTokens: response?.usage.cacheReadTokens ?? 0,
    cacheWriteTokens: response?.usage.cacheWriteTokens ?? 0,
    latencyMs: response?.latencyMs ?? 0,
    cached: response?.cached ?? false,
    retries: response?.retries ?? retriesOf(error),
    costUsd: response?.costUsd ?? 0,
    ...(response ? { stopReason: response.stopReason } : {}),
    ...(error ? { error: maskSecrets(describeError(error).message) } : {}),
  };
}
