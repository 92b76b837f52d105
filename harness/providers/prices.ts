import type { Usage } from '../core/index.ts';
import type { Price } from '../config/types.ts';

/**
 * USD per million tokens, per model id. Published list prices at the time of writing; override or
 * extend them in eval.config.ts (`prices`). A model without a price costs 0 and the report says so.
 */
export const builtinPrices: Record<string, Price> = {
  'claude-haiku-4-5': { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 },
  'claude-sonnet-4-5': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  'claude-opus-4-1': { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 },
  'claude-opus-4-5': { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
  'gpt-4o': { input: 2.5, output: 10, cacheRead: 1.25 },
  'gpt-4o-mini': { input: 0.15, output: 0.6, cacheRead: 0.075 },
  'gpt-4.1': { input: 2, output: 8, cacheRead: 0.5 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6, cacheRead: 0.1 },
  'gpt-4.1-nano': { input: 0.1, output: 0.4, cacheRead: 0.025 },
  'gpt-5': { input: 1.25, output: 10, cacheRead: 0.125 },
  'gpt-5-mini': { input: 0.25, output: 2, cacheRead: 0.025 },
  'gpt-5-nano': { input: 0.05, output: 0.4, cacheRead: 0.005 },
  'o4-mini': { input: 1.1, output: 4.4, cacheRead: 0.275 },
};

export function priceOf(model: string, overrides: Record<string, Price> = {}): Price | undefined {
  return overrides[model] ?? builtinPrices[model];
}

/** Cost of one call. Input tokens exclude cache reads/writes, which are priced separately when known. */
export function costOf(model: string, usage: Usage, overrides: Record<string, Price> = {}): number {
  const p = priceOf(model, overrides);
  if (!p) return 0;
  const perToken = (usd: number | undefined, n: number) => ((usd ?? p.input) * n) / 1e6;
  return (
    perToken(p.input, usage.inputTokens) +
    perToken(p.output, usage.outputTokens) +
    perToken(p.cacheRead, usage.cacheReadTokens) +
    perToken(p.cacheWrite, usage.cacheWriteTokens)
  );
}

/**
 * What the vendors' batch APIs charge as a share of the list price: Anthropic Message Batches and the
 * OpenAI Batch API both bill every token at 50% of the standard price (vendor-documented).
 */
export const BATCH_PRICE_FACTOR = 0.5;
