import type { ResultRow } from '../core/index.ts';

export interface ErrorBudget {
  cells: number;
  /** Error rows, plus ok rows whose answer was cut at max_tokens where the arm does not allow it. */
  errors: number;
  /** Of `errors`, the ok rows counted for a cut answer. */
  truncated: number;
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
  // An answer cut at max_tokens is scored on what it says before the cut: counted like an error unless
  // its arm allows truncation (issue 28 #10), shown as its own reason.
  const cut = (r: ResultRow) =>
    r.status !== 'error' && !!r.truncated?.length && r.truncation_allowed !== true;
  const errors = rows.filter((r) => r.status === 'error' || cut(r));
  const groups = new Map<string, { code: string; reason: string; count: number }>();
  for (const r of errors) {
    const code = cut(r) ? 'max_tokens' : (r.error_code ?? 'unknown');
    const reason = cut(r)
      ? `answer cut at max_tokens (${r.truncated!.join(', ')}); scored, but the arm does not allow truncation (allowTruncation)`
      : (r.error ?? '').replace(/; request \S+/g, '').slice(0, 200);
    const key = `${code}\n${reason}`;
    const g = groups.get(key);
    if (g) g.count++;
    else groups.set(key, { code, reason, count: 1 });
  }
  const top = [...groups.values()]
    .sort((a, b) => b.count - a.count || (a.reason < b.reason ? -1 : 1))
    .slice(0, topN);
  const rate = rows.length ? errors.length / rows.length : 0;
  const truncated = errors.filter(cut).length;
  return { cells: rows.length, errors: errors.length, truncated, rate, limit, over: rate > limit, top };
}
