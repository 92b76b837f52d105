import { performance } from 'node:perf_hooks';
import type { ModelRequest, ModelResponse, Provider } from '../core/index.ts';
import type { ResolvedConfig } from '../config/types.ts';
import {
  ANTHROPIC_WIRE_VERSION,
  fromAnthropicReply,
  toAnthropicBody,
  type AnthropicReply,
  anthropicReplyProblem,
} from './wire-anthropic.ts';
import {
  callOptions,
  isUserAbort,
  resolveClientSettings,
  sdkOptions,
  toProviderError,
  anthropicKeys,
} from './wire-client.ts';
import type { AttemptTag } from './transport.ts';

interface MessagesClient {
  messages: {
    create(
      body: unknown,
      options?: unknown,
    ): { withResponse(): Promise<{ data: AnthropicReply; request_id?: string | null }> };
  };
}

/**
 * The Anthropic Messages API through @anthropic-ai/sdk (loaded only when this provider is used).
 * Retries, backoff and retry-after are the SDK's (maxRetries/timeout from config.providers.anthropic);
 * prompt caching puts cache_control on the shared prefix (ModelRequest.cachePrefix).
 */
export async function createAnthropicProvider(
  config: ResolvedConfig,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Provider> {
  const settings = resolveClientSettings(anthropicKeys, config, env);
  const sdk = await import('@anthropic-ai/sdk');
  const Anthropic = sdk.default;
  const { options, transport } = sdkOptions(settings);
  const baseURL = settings.baseURL ?? 'https://api.anthropic.com';
  const client = new Anthropic(
    options as ConstructorParameters<typeof Anthropic>[0],
  ) as unknown as MessagesClient;
  return {
    id: 'anthropic',
    cacheScope: `anthropic wire/${ANTHROPIC_WIRE_VERSION} ${baseURL}`,
    async generate(req: ModelRequest, opts = {}): Promise<ModelResponse> {
      const body = toAnthropicBody(req);
      const tag: AttemptTag = { attempts: 0, check: anthropicReplyProblem, model: req.model };
      const started = performance.now();
      try {
        const { data, request_id } = await client.messages
          .create(body, callOptions(opts.signal, tag))
          .withResponse();
        const out = fromAnthropicReply(data, req);
        return {
          ...out,
          latencyMs: Math.round(performance.now() - started),
          requestId: request_id ?? tag.lastRequestId,
          cached: false,
          retries: Math.max(0, tag.attempts - 1),
          costUsd: 0,
        };
      } catch (err) {
        if (isUserAbort(err, sdk)) throw err;
        throw toProviderError('anthropic', req.model, err, tag, baseURL, sdk);
      }
    },
    async close() {
      transport?.close();
    },
  };
}
