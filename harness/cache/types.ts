import type { ModelRequest, ModelResponse } from '../core/index.ts';

/** A response cache. Keys cover exactly the request fields that change the output (rep included, via the seed). */
export interface ResponseCache {
  /**
   * The key of a request: sha256 of canonical JSON of the output-changing fields. `scope` is what else
   * changes the output for that provider (Provider.cacheScope, e.g. a base URL).
   */
  keyOf(provider: string, request: ModelRequest, scope?: string): string;
  get(key: string): ModelResponse | undefined;
  /** Only successful responses are stored; errors are never cached. Writes may be batched until flush/close. */
  set(key: string, response: ModelResponse): void;
  /** Writes pending entries now. */
  flush?(): void;
  close(): void;
}
