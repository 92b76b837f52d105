import type { ModelResponse } from '../../harness/core/index.ts';

/** A plain model response with the given text, for the cache tests (small usage, no tool calls, free). */
export const plainResponse = (text: string): ModelResponse => ({
  text,
  toolCalls: [],
  stopReason: 'end_turn',
  usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
  latencyMs: 1,
  model: 'm',
  cached: false,
  retries: 0,
  costUsd: 0,
});
