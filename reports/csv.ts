import { stringify } from 'csv-stringify/sync';
import type { ResultRow } from '../harness/types.ts';
import { assertionKinds } from '../harness/types.ts';

/** The flat CSV columns (documented in docs/results.md), one row per cell. */
export function csvColumns(rows: ResultRow[]): string[] {
  const criteria = [...new Set(rows.flatMap((r) => Object.keys(r.scores)))].sort();
  return [
    'run_id', 'suite', 'case_id', 'arm', 'strategy', 'rep', 'status', 'error', 'error_code',
    'source_model', 'receiver_model', 'judge_model', 'seed', 'harness_version', 'params',
    'handoff_tokens', 'handoff_chars', 'receiver_window_tokens_before', 'receiver_window_tokens_after', 'source_output_tokens',
    'input_tokens', 'output_tokens', 'cache_read_tokens', 'latency_ms', 'cost_usd', 'judge_cost_usd',
    ...criteria.map((c) => `score_${c}`),
    ...assertionKinds.flatMap((k) => [`survival_${k}_payload`, `survival_${k}_answer`]),
    'overstated_count', 'markers_count', 'tool_calls_visible', 'judge_errors', 'checks_failed',
  ];
}

export function flattenRow(r: ResultRow): Record<string, unknown> {
  const flat: Record<string, unknown> = { ...r, params: JSON.stringify(r.params) };
  for (const [c, v] of Object.entries(r.scores)) flat[`score_${c}`] = v;
  for (const k of assertionKinds) {
    flat[`survival_${k}_payload`] = r.survival.payload[k] ?? null;
    flat[`survival_${k}_answer`] = r.survival.answer[k] ?? null;
  }
  flat.checks_failed = r.checks.filter((c) => !c.passed).map((c) => c.name).join(';');
  return flat;
}

export function renderCsv(rows: ResultRow[]): string {
  const columns = csvColumns(rows);
  return stringify(rows.map(flattenRow), { header: true, columns, cast: { boolean: (b) => String(b) } });
}
