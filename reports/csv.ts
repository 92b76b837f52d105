import { stringify } from 'csv-stringify/sync';
import type { ResultRow } from '../harness/core/index.ts';
import { assertionKinds, claimLocations } from '../harness/core/index.ts';
import { canonicalRows, isSimulated } from './summarize.ts';

/**
 * results.csv: one row per cell, flat columns (documented in docs/results.md). A simulated run says
 * so in a `simulated` column on every row rather than in a comment line, which CSV readers choke on.
 */
export function csvColumns(rows: readonly ResultRow[]): string[] {
  const criteria = [...new Set(rows.flatMap((r) => Object.keys(r.scores)))].sort();
  return [
    'run_id',
    'cell_id',
    'suite',
    'case_id',
    'arm',
    'strategy',
    'rep',
    'baseline_arm',
    'primary_criterion',
    'status',
    'error',
    'error_code',
    'stop_reason',
    'simulated',
    'provider',
    'source_model',
    'receiver_model',
    'judge_model',
    'seed',
    'harness_version',
    'params',
    'handoff_tokens',
    'handoff_chars',
    'receiver_window_tokens_before',
    'receiver_window_tokens_after',
    'source_output_tokens',
    'input_tokens',
    'output_tokens',
    'cache_read_tokens',
    'latency_ms',
    'cost_usd',
    'judge_cost_usd',
    'cached_calls',
    'model_calls',
    ...criteria.map((c) => `score_${c}`),
    ...assertionKinds.flatMap((k) => [`survival_${k}_payload`, `survival_${k}_answer`]),
    ...locationColumns(rows),
    'overstated_count',
    'markers_count',
    'tool_calls_visible',
    'judge_errors',
    'unscored_criteria',
    'survival_agreement',
    'checks_failed',
    ...(rows.some((r) => r.source_mode === 'live') ? liveColumns : []),
    ...(rows.some((r) => r.world_dir) ? ['world_dir'] : []),
    ...(rows.some((r) => r.truncated?.length) ? ['truncated', 'truncation_allowed'] : []),
  ];
}

/** Live-mode columns (docs/live.md), present when any row is a live cell; empty on recorded rows. */
const liveColumns = [
  'source_mode',
  'source_tool_calls',
  'source_tool_budget',
  'source_tool_errors',
  'source_tool_refused',
  'budget_exhausted',
  'source_loop_turns',
  'source_loop_latency_ms',
  'source_assertions',
  'source_assertions_labelled',
  'receiver_tool_calls',
  'receiver_span_fetches',
  'orchestration_tool_calls',
] as const;

/** survival_<kind>_<location>_payload / _answer for every combination some row of the run has, in kind × location order. */
function locationColumns(rows: readonly ResultRow[]): string[] {
  const present = new Set<string>();
  for (const r of rows) for (const key of Object.keys(r.survival_location?.answer ?? {})) present.add(key);
  return assertionKinds.flatMap((k) =>
    claimLocations
      .filter((l) => present.has(`${k}:${l}`))
      .flatMap((l) => [`survival_${k}_${l}_payload`, `survival_${k}_${l}_answer`]),
  );
}

const locationColumn =
  /^survival_(confident|hedged|assumption|unresolved)_(final_message|mid_transcript|tool_result_only|primary_tool_evidence)_(payload|answer)$/;

/** How each column's value is read from a row, decided once per column rather than per row and field. */
function columnGetter(column: string): (r: ResultRow) => unknown {
  if (column === 'params') return (r) => JSON.stringify(r.params);
  if (column === 'simulated') return (r) => isSimulated(r);
  if (column === 'unscored_criteria') return (r) => Object.keys(r.unscored ?? {}).join(';');
  if (column === 'truncated') return (r) => (r.truncated ?? []).join(';');
  if (column === 'checks_failed')
    return (r) =>
      r.checks
        .filter((c) => !c.passed)
        .map((c) => c.name)
        .join(';');
  if (column.startsWith('score_')) {
    const criterion = column.slice('score_'.length);
    return (r) => (Object.hasOwn(r.scores, criterion) ? r.scores[criterion] : undefined);
  }
  const loc = locationColumn.exec(column);
  if (loc) {
    const key = `${loc[1]}:${loc[2]}`;
    const stage = loc[3] as 'payload' | 'answer';
    return (r) => r.survival_location?.[stage][key] ?? null;
  }
  for (const k of assertionKinds) {
    if (column === `survival_${k}_payload`) return (r) => r.survival.payload[k] ?? null;
    if (column === `survival_${k}_answer`) return (r) => r.survival.answer[k] ?? null;
  }
  return (r) => (r as unknown as Record<string, unknown>)[column];
}

export function renderCsv(input: readonly ResultRow[]): string {
  const { rows } = canonicalRows(input);
  const columns = csvColumns(rows);
  const getters = columns.map(columnGetter);
  // In batches: the records of a few hundred rows at a time are alive, not every field of the run
  // (csv-stringify ends each batch with a record delimiter, so the batches join into the same text).
  const parts: string[] = [];
  for (let i = 0; i === 0 || i < rows.length; i += CSV_BATCH) {
    const records = rows.slice(i, i + CSV_BATCH).map((r) => getters.map((get) => field(get(r))));
    parts.push(stringify(records, { header: i === 0, columns }));
  }
  return parts.join('');
}

const CSV_BATCH = 250;

/**
 * A value as csv-stringify's own casts would write it (booleans as true/false rather than its 1/''),
 * done here in one pass: its per-field cast machinery was a third of the CSV's time. csv-stringify
 * still does the quoting and escaping.
 */
function field(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return v;
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}
