import type { ModelResponse } from '../../harness/core/index.ts';
import type { ResponseCache } from '../../harness/cache/types.ts';

/**
 * A response cache in memory, for tests that must see every lookup and store: its entries (`m`) and
 * the cache scope of each key asked for. `stores: false` keeps nothing (only in-flight sharing remains).
 */
export function memoryCache(o: { stores?: boolean } = {}) {
  const m = new Map<string, ModelResponse>();
  const scopes: (string | undefined)[] = [];
  const cache: ResponseCache = {
    keyOf: (p, r, scope) => {
      scopes.push(scope);
      return `${p}|${scope}|${JSON.stringify(r)}`;
    },
    get: (k) => m.get(k),
    set: (k, v) => {
      if (o.stores !== false) m.set(k, v);
    },
    close: () => {},
  };
  return { cache, m, scopes };
}
