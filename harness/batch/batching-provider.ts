import { hash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { ModelRequest, ModelResponse, Provider } from '../core/index.ts';
import type { Price, ResolvedConfig } from '../config/types.ts';
import { requestKeyJson } from '../cache/sqlite-cache.ts';
import { ConfigError, ProviderError } from '../core/errors.ts';
import { BATCH_PRICE_FACTOR, costOf } from '../providers/prices.ts';
import { BatchScheduler, type SchedulerOptions } from './scheduler.ts';
import type { BatchBackend, BatchSettings } from './types.ts';

/** The providers a batch run can batch (the sim answers in-process: it has nothing to batch). */
export const batchableProviders = ['anthropic', 'openai'] as const;

export function isBatchable(name: string): name is (typeof batchableProviders)[number] {
  return (batchableProviders as readonly string[]).includes(name);
}

/**
 * A request's custom_id: its response-cache key (sha256 of the canonical request, the provider and its
 * cache scope; 64 hex characters, within Anthropic's 64-character custom_id). The same call in a
 * resumed run has the same key, so it maps to the request already submitted.
 */
export function customIdOf(provider: string, req: ModelRequest, scope: string): string {
  return hash('sha256', requestKeyJson(provider, req, scope), 'hex');
}

/**
 * The same Provider interface, served through a vendor's batch API: each call is queued instead of
 * sent, and resolves once its batch has ended. The cache scope is the interactive provider's, so a
 * batch answer and an interactive one to the same request share a response-cache entry.
 */
export function createBatchingProvider(
  inner: Provider,
  backend: BatchBackend,
  o: Omit<SchedulerOptions, 'backend'> & { prices: Record<string, Price> },
): Provider & { scheduler: BatchScheduler } {
  const scheduler = new BatchScheduler({ ...o, backend });
  const scopeOf = (model: string) =>
    typeof inner.cacheScope === 'function' ? inner.cacheScope(model) : (inner.cacheScope ?? '');
  return {
    id: inner.id,
    cacheScope: inner.cacheScope,
    scheduler,
    async generate(req: ModelRequest): Promise<ModelResponse> {
      const started = performance.now();
      const customId = customIdOf(inner.id, req, scopeOf(req.model));
      const out = await scheduler.outcome(customId, () => backend.toBody(req));
      if (!out.ok)
        throw new ProviderError(inner.id, `${inner.id} ${req.model}: ${out.reason}`, out.status, undefined, {
          code: `batch_${out.kind}`,
        });
      const parts = backend.fromReply(out.reply, req);
      return {
        ...parts,
        requestId: out.requestId ?? parts.requestId,
        latencyMs: Math.round(performance.now() - started),
        cached: false,
        retries: 0,
        costUsd: costOf(req.model, parts.usage, o.prices) * BATCH_PRICE_FACTOR,
      };
    },
    async close() {
      await scheduler.close();
      await backend.close();
    },
  };
}

/** The batch backend of a provider, through its official SDK (loaded only when used). */
export async function createBatchBackend(name: string, config: ResolvedConfig): Promise<BatchBackend> {
  if (name === 'anthropic') return (await import('./anthropic-batch.ts')).createAnthropicBatchBackend(config);
  return (await import('./openai-batch.ts')).createOpenAIBatchBackend(config);
}

/** `providers.<name>.batch` from the config, each field checked. */
export function batchSettingsOf(config: ResolvedConfig, name: string): BatchSettings {
  const raw = (config.providers[name] as { batch?: Record<string, unknown> } | undefined)?.batch ?? {};
  const num = (k: keyof BatchSettings) => {
    const v = raw[k];
    if (v === undefined) return undefined;
    if (typeof v !== 'number' || !(v > 0))
      throw new ConfigError(
        config.configFile ?? 'config',
        `providers.${name}.batch.${k}`,
        'must be a positive number',
      );
    return v;
  };
  return {
    pollMs: num('pollMs'),
    quietMs: num('quietMs'),
    maxRequests: num('maxRequests'),
    maxBytes: num('maxBytes'),
  };
}
