import type { ModelRequest, ModelResponse } from '../types.ts';

/** A response cache. Keys cover exactly the request fields that change the output (rep included, via the seed). */
export interface ResponseCache {
  keyOf(provider: string, request: ModelRequest): string;
  get(key: string): ModelResponse | undefined;
  /** Only successful responses are stored; errors are never cached. */
  set(key: string, response: ModelResponse): void;
  close(): void;
}
