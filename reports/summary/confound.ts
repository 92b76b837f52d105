import type { ResultRow } from '../../harness/core/index.ts';
import { clusteredMean } from '../stats/clustered.ts';

/**
 * Whether an arm changed the live source's own work (issue 29 item 5; docs/live.md "Confounds"):
 * the source's tool calls under this arm minus under the baseline arm, paired on case × rep over ok
 * live cells whose source ran its own loop (a spawned child's parent is recorded: no pair). The mean
 * difference has a t interval clustered by case (reps of a case share its world). **Declared** when
 * the interval excludes 0 — or, with a single case (no interval), when every pair moved the same
 * way. Arms whose sources are told the same share one source (docs/live.md), so their pairs differ
 * by exactly 0 and nothing is declared; an arm whose source is told something else (the contract's
 * notice) and works more because of it is declared, beside every comparison of that arm.
 * Tokens: the rows carry no loop-only token count (`source_output_tokens` also counts the strategy's
 * own source-role calls), so the declaration is in calls; the loop's latency difference is given too.
 */
export interface SourceConfound {
  baselineArm: string;
  /** Case × rep pairs of live source cells. */
  pairs: number;
  cases: number;
  /** Mean source tool calls over the pairs: this arm, the baseline arm. */
  callsArm: number;
  callsBaseline: number;
  /** Mean paired difference (arm − baseline) in source tool calls, with its 95% interval (clustered by case). */
  calls: number;
  ci: [number, number] | null;
  /** Mean paired difference of the source loop's latency, in ms. */
  loopLatencyMs: number;
  declared: boolean;
  /** The declaration beside a comparison ("the source did more work under this arm: +0.72 calls"). */
  short: string;
  /** The sentence the reports set beside the arm's comparisons (also when not declared, for report.json). */
  statement: string;
}

const sourceCell = (r: ResultRow) =>
  r.status === 'ok' &&
  r.source_mode === 'live' &&
  (r.orchestration_tool_calls === null || r.orchestration_tool_calls === undefined);

/** The arm's source work vs the baseline arm's (the rule above); null without a live source pair. */
export function sourceConfound(
  arm: readonly ResultRow[],
  baseline: readonly ResultRow[],
  baselineArm: string,
): SourceConfound | null {
  const key = (r: ResultRow) => `${r.case_id}\u0000${r.rep}`;
  const base = new Map(baseline.filter(sourceCell).map((r) => [key(r), r]));
  const pairs = arm
    .filter(sourceCell)
    .flatMap((r) => (base.has(key(r)) ? [[r, base.get(key(r))!] as const] : []));
  if (pairs.length === 0) return null;
  const diffs = pairs.map(([a, b]) => ({
    cluster: a.case_id,
    value: (a.source_tool_calls ?? 0) - (b.source_tool_calls ?? 0),
  }));
  const est = clusteredMean(diffs)!;
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  const declared = est.ci
    ? est.ci[0] > 0 || est.ci[1] < 0
    : diffs.every((d) => d.value > 0) || diffs.every((d) => d.value < 0);
  const calls = est.mean;
  const ci = est.ci;
  const signed = (x: number) => `${x > 0 ? '+' : x < 0 ? '−' : ''}${Math.abs(x).toFixed(2)}`;
  const interval = ci ? `, 95% CI [${signed(ci[0])}, ${signed(ci[1])}]` : '';
  const short = `the source did ${calls > 0 ? 'more' : 'less'} work under this arm: ${signed(calls)} calls`;
  const statement = declared
    ? `${short} per cell vs ${baselineArm} (${pairs.length} pairs${interval}); its differences from ${baselineArm} include that research, not only the return`
    : `the source's work did not differ from ${baselineArm}'s beyond noise: ${signed(calls)} calls per cell (${pairs.length} pairs${interval})`;
  return {
    baselineArm,
    pairs: pairs.length,
    cases: est.clusters,
    callsArm: mean(pairs.map(([a]) => a.source_tool_calls ?? 0)),
    callsBaseline: mean(pairs.map(([, b]) => b.source_tool_calls ?? 0)),
    calls,
    ci,
    loopLatencyMs: mean(
      pairs.map(([a, b]) => (a.source_loop_latency_ms ?? 0) - (b.source_loop_latency_ms ?? 0)),
    ),
    declared,
    short,
    statement,
  };
}
