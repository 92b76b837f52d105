import { stringify } from 'csv-stringify/sync';
import type { ResultRow } from '../harness/types.ts';
import { assertionKinds } from '../harness/types.ts';
import { canonicalRows, isSimulated } from './summarize.ts';

/**
 * results.csv: one row per cell, flat columns (documented in docs/results.md). A simulated run says
 * so in a `simulated` column on every row rather than in a comment line, which CSV readers choke on.
 */
export function csvColumns(rows: readonly ResultRow[]): string[] {
  const criteria = [...new Set(rows.flatMap((r) => Object.keys(r.scores)))].sort();
  return [
    'run_id', 'cell_id', 'suite', 'case_id', 'arm', 'strategy', 'rep', 'baseline_arm', 'status', 'error', 'error_code', 'simulated',
    'provider', 'source_model', 'receiver_model', 'judge_model', 'seed', 'harness_version', 'params',
    'handoff_tokens', 'handoff_chars', 'receiver_window_tokens_before', 'receiver_window_tokens_after', 'source_output_tokens',
    'input_tokens', 'output_tokens', 'cache_read_tokens', 'latency_ms', 'cost_usd', 'judge_cost_usd', 'cached_calls', 'model_calls',
    ...criteria.map((c) => `score_${c}`),
    ...assertionKinds.flatMap((k) => [`survival_${k}_payload`, `survival_${k}_answer`]),
    'overstated_count', 'markers_count', 'tool_calls_visible', 'judge_errors', 'survival_agreement', 'checks_failed',
  ];
}

export function flattenRow(r: ResultRow): Record<string, unknown> {
  const { detail: _detail, scores: _scores, survival: _survival, checks: _checks, ...scalars } = r;
  const flat: Record<string, unknown> = { ...scalars, params: JSON.stringify(r.params), simulated: isSimulated(r) };
  for (const [c, v] of Object.entries(r.scores)) flat[`score_${c}`] = v;
  for (const k of assertionKinds) {
    flat[`survival_${k}_payload`] = r.survival.payload[k] ?? null;
    flat[`survival_${k}_answer`] = r.survival.answer[k] ?? null;
  }
  flat.checks_failed = r.checks.filter((c) => !c.passed).map((c) => c.name).join(';');
  return flat;
}

export function renderCsv(input: readonly ResultRow[]): string {
  const { rows } = canonicalRows(input);
  return stringify(rows.map(flattenRow), { header: true, columns: csvColumns(rows), cast: { boolean: (b) => String(b) } });
}
