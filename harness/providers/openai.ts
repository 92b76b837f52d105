import { performance } from 'node:perf_hooks';
import type { ModelRequest, ModelResponse, Provider, Usage } from '../core/index.ts';
import type { ResolvedConfig } from '../config/types.ts';
import { countTokens, requestTokens } from '../core/tokens.ts';
import {
  OPENAI_WIRE_VERSION,
  fromOpenAIReply,
  toOpenAIBody,
  type OpenAIReply,
  type OpenAIWireOptions,
  openaiReplyProblem,
} from './wire-openai.ts';
import {
  callOptions,
  isUserAbort,
  resolveClientSettings,
  sdkOptions,
  toProviderError,
  openaiKeys,
} from './wire-client.ts';
import type { AttemptTag } from './transport.ts';

interface ChatClient {
  /** The parsed reply carries the x-request-id header as `_request_id` (the SDK's documented field). */
  chat: {
    completions: {
      create(body: unknown, options?: unknown): Promise<OpenAIReply & { _request_id?: string | null }>;
    };
  };
}

/**
 * OpenAI Chat Completions through the `openai` SDK (loaded only when used), and any OpenAI-compatible
 * server through a base URL (vLLM, Ollama, llama.cpp server, LM Studio): OPENAI_BASE_URL or
 * config.providers.openai.baseURL. Such servers usually need no key; OpenAI's own API does.
 */
export async function createOpenAIProvider(
  config: ResolvedConfig,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Provider> {
  const settings = resolveClientSettings(openaiKeys, config, env);
  const sdk = await import('openai');
  const OpenAI = sdk.default;
  const { options, transport } = sdkOptions(settings);
  const baseURL = settings.baseURL ?? 'https://api.openai.com/v1';
  const client = new OpenAI(options as ConstructorParameters<typeof OpenAI>[0]) as unknown as ChatClient;
  const wire = openaiWireFor(settings.baseURL);
  return {
    id: 'openai',
    // What the base URL decides is in the scope explicitly: the token field and the seed change the request.
    cacheScope: `openai wire/${OPENAI_WIRE_VERSION} ${baseURL} ${wire.tokenField}${wire.sendSeed ? ' seed' : ''}`,
    async generate(req: ModelRequest, opts = {}): Promise<ModelResponse> {
      const body = toOpenAIBody(req, wire);
      const tag: AttemptTag = { attempts: 0, check: openaiReplyProblem, model: req.model };
      const started = performance.now();
      try {
        const data = await client.chat.completions.create(body, callOptions(opts.signal, tag));
        const out = fromOpenAIReply(data, req);
        return {
          text: out.text,
          toolCalls: out.toolCalls,
          stopReason: out.stopReason,
          usage: out.usage ?? estimatedUsage(req, out),
          model: out.model,
          latencyMs: Math.round(performance.now() - started),
          requestId: data._request_id ?? tag.lastRequestId,
          cached: false,
          retries: Math.max(0, tag.attempts - 1),
          costUsd: 0,
        };
      } catch (err) {
        if (isUserAbort(err, sdk)) throw err;
        throw toProviderError('openai', req.model, err, tag, baseURL, sdk);
      }
    },
    async close() {
      transport?.close();
    },
  };
}

/** OpenAI's own API takes max_completion_tokens; compatible servers the older max_tokens. */
export function openaiWireFor(baseURL: string | undefined): OpenAIWireOptions {
  const official = !baseURL || /api\.openai\.com/.test(baseURL);
  return { tokenField: official ? 'max_completion_tokens' : 'max_tokens', sendSeed: true };
}

/** Some compatible servers send no usage: count with the tokenizer rather than report zero. */
export function estimatedUsage(
  req: ModelRequest,
  out: { text: string; toolCalls: { input: unknown }[] },
): Usage {
  const outputTokens =
    countTokens(out.text) + out.toolCalls.reduce((n, c) => n + countTokens(JSON.stringify(c.input ?? {})), 0);
  return { inputTokens: requestTokens(req), outputTokens, cacheReadTokens: 0, cacheWriteTokens: 0 };
}
