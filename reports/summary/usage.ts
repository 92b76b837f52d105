import { quantileSorted } from 'simple-statistics';
import type { ResultRow } from '../../harness/core/index.ts';
import type { LatencySummary, TokenSummary } from './types.ts';

export function meanOf(xs: readonly number[]): number | null {
  if (xs.length === 0) return null;
  let s = 0;
  for (const x of xs) s += x;
  return s / xs.length;
}

/** (a − b) / b in %, null when either is missing or b is 0. */
export function pctChange(a: number | null, b: number | null): number | null {
  return a === null || b === null || b === 0 ? null : ((a - b) / b) * 100;
}

const field = (ok: readonly ResultRow[], f: (r: ResultRow) => number) => meanOf(ok.map(f));

/** Token means of one arm; the Δ-vs-baseline fields are filled by withBaseline. */
export function tokenSummary(ok: readonly ResultRow[]): TokenSummary {
  const before = field(ok, (r) => r.receiver_window_tokens_before);
  const after = field(ok, (r) => r.receiver_window_tokens_after);
  return {
    handoff: field(ok, (r) => r.handoff_tokens),
    windowBefore: before,
    windowAfter: after,
    windowGrowthPct: pctChange(after, before),
    windowAfterVsBaselinePct: null,
    handoffVsBaselinePct: null,
    sourceOutput: field(ok, (r) => r.source_output_tokens),
    input: field(ok, (r) => r.input_tokens),
    output: field(ok, (r) => r.output_tokens),
  };
}

export function latencySummary(ok: readonly ResultRow[]): LatencySummary {
  if (ok.length === 0) return { p50: null, p95: null, mean: null, p50DeltaVsBaselineMs: null };
  const sorted = ok.map((r) => r.latency_ms).sort((a, b) => a - b);
  return {
    p50: quantileSorted(sorted, 0.5),
    p95: quantileSorted(sorted, 0.95),
    mean: meanOf(sorted),
    p50DeltaVsBaselineMs: null,
  };
}

/** Fills the Δ-vs-baseline fields of an arm from the baseline arm's summaries (null when absent). */
export function withBaseline(
  t: TokenSummary,
  l: LatencySummary,
  base: { tokens: TokenSummary; latency: LatencySummary } | null,
): { tokens: TokenSummary; latency: LatencySummary } {
  if (!base) return { tokens: t, latency: l };
  return {
    tokens: {
      ...t,
      windowAfterVsBaselinePct: pctChange(t.windowAfter, base.tokens.windowAfter),
      handoffVsBaselinePct: pctChange(t.handoff, base.tokens.handoff),
    },
    latency: {
      ...l,
      p50DeltaVsBaselineMs: l.p50 === null || base.latency.p50 === null ? null : l.p50 - base.latency.p50,
    },
  };
}

export function costSummary(rows: readonly ResultRow[]): {
  usd: number;
  perCellUsd: number | null;
  judgeUsd: number;
} {
  let usd = 0;
  let judgeUsd = 0;
  for (const r of rows) {
    usd += r.cost_usd;
    judgeUsd += r.judge_cost_usd;
  }
  return { usd, perCellUsd: rows.length ? usd / rows.length : null, judgeUsd };
}

/** Every cell's calls, error cells included: a replayed error would hide in them as well. */
export function callSummary(rows: readonly ResultRow[]): { model: number; cached: number } {
  let model = 0;
  let cached = 0;
  for (const r of rows) {
    model += r.model_calls;
    cached += r.cached_calls;
  }
  return { model, cached };
}
