import type { ModelResponse } from '../core/index.ts';

/**
 * A stored cache entry as a response, or undefined when it is not one. The cache file is outside the
 * harness's control (an older version, another tool, a damaged page that still decodes), so an entry
 * is checked for every field a caller reads before it is served; anything else is a miss.
 */
export function storedResponse(value: string): ModelResponse | undefined {
  let v: unknown;
  try {
    v = JSON.parse(value);
  } catch {
    return undefined;
  }
  return isResponse(v) ? v : undefined;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isCount = (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v >= 0;

function isResponse(v: unknown): v is ModelResponse {
  if (!isObject(v)) return false;
  if (typeof v.text !== 'string' || typeof v.stopReason !== 'string' || typeof v.model !== 'string')
    return false;
  if (!isCount(v.latencyMs) || !isCount(v.retries) || !isCount(v.costUsd)) return false;
  if (typeof v.cached !== 'boolean') return false;
  if (v.requestId !== undefined && typeof v.requestId !== 'string') return false;
  const u = v.usage;
  if (!isObject(u) || ![u.inputTokens, u.outputTokens, u.cacheReadTokens, u.cacheWriteTokens].every(isCount))
    return false;
  return (
    Array.isArray(v.toolCalls) &&
    v.toolCalls.every((c) => isObject(c) && typeof c.id === 'string' && typeof c.name === 'string')
  );
}
