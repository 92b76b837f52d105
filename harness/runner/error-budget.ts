import type { ResultRow } from '../core/index.ts';

export interface ErrorBudget {
  cells: number;
  errors: number;
  /** errors / cells (0 for no cells). */
  rate: number;
  limit: number;
  /** The run exits 3: error rows are a larger share of its cells than `limit`. */
  over: boolean;
  /** The most frequent reasons, most frequent first: error_code and the message without request ids. */
  top: { code: string; reason: string; count: number }[];
}

/**
 * How a finished run's error rows compare with the threshold (config `maxErrorRate`). Reads the rows
 * as the reports do (one per cell, the latest), so a retried cell counts once. Reasons are grouped by
 * error_code and message with the request id left out, so the same failure in many cells is one line.
 */
export function errorBudget(rows: readonly ResultRow[], limit: number, topN = 3): ErrorBudget {
  const errors = rows.filter((r) => r.status === 'error');
  const groups = new Map<string, { code: string; reason: string; count: number }>();
  for (const r of errors) {
    const code = r.error_code ?? 'unknown';
    const reason = (r.error ?? '').replace(/; request \S+/g, '').slice(0, 200);
    const key = `${code}\n${reason}`;
    const g = groups.get(key);
    if (g) g.count++;
    else groups.set(key, { code, reason, count: 1 });
  }
  const top = [...groups.values()]
    .sort((a, b) => b.count - a.count || (a.reason < b.reason ? -1 : 1))
    .slice(0, topN);
  const rate = rows.length ? errors.length / rows.length : 0;
  return { cells: rows.length, errors: errors.length, rate, limit, over: rate > limit, top };
}
