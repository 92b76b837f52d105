import { quantileSorted } from 'simple-statistics';
import type { ResultRow } from '../../harness/core/index.ts';
import { liveRateSources, defaultLiveRates } from '../../harness/providers/sim/live-rates.ts';
import { meanOf } from './usage.ts';
import type { LiveSimNote, LiveSummary } from './live-sweep-types.ts';

/** The live part of an arm, or null when it has no live cell. */
export function liveSummary(
  ok: readonly ResultRow[],
  inline: { arm: string; rows: readonly ResultRow[] } | null,
): LiveSummary | null {
  const live = ok.filter((r) => r.source_mode === 'live');
  if (live.length === 0) return null;
  // A spawned child's cells re-run no source (the parent is recorded): no source effort there.
  const spawned = (r: ResultRow) =>
    r.orchestration_tool_calls !== null && r.orchestration_tool_calls !== undefined;
  const src = live.filter((r) => !spawned(r));
  const spawn = live.filter(spawned);
  const sorted = (rows: readonly ResultRow[], f: (r: ResultRow) => number) =>
    rows.map(f).sort((a, b) => a - b);
  const calls = sorted(src, (r) => r.source_tool_calls ?? 0);
  const distribution: Record<string, number> = {};
  for (const c of calls) distribution[c] = (distribution[c] ?? 0) + 1;
  const p50 = median(sorted(live, (r) => r.latency_ms));
  const inlineLive = inline?.rows.filter((r) => r.source_mode === 'live') ?? [];
  const inlineP50 = median(sorted(inlineLive, (r) => r.latency_ms));
  const share = (n: number, of: number) => ({ cells: n, n: of, rate: of ? n / of : null });
  return {
    cells: live.length,
    sourceCells: src.length,
    budgets: [...new Set(src.map((r) => r.source_tool_budget ?? 0))].sort((a, b) => a - b),
    toolCalls: {
      median: median(calls),
      mean: meanOf(calls),
      min: calls[0] ?? null,
      max: calls[calls.length - 1] ?? null,
      distribution,
    },
    budgetExhausted: share(src.filter((r) => r.budget_exhausted === true).length, src.length),
    sourceOutputTokens: {
      median: median(sorted(src, (r) => r.source_output_tokens)),
      mean: meanOf(src.map((r) => r.source_output_tokens)),
    },
    latency: {
      p50,
      sourceLoopP50: median(sorted(src, (r) => r.source_loop_latency_ms ?? 0)),
      deltaVsInlineMs: p50 !== null && inlineP50 !== null ? p50 - inlineP50 : null,
      inlineArm: inlineLive.length ? inline!.arm : null,
    },
    spanFetch: {
      ...share(live.filter((r) => (r.receiver_span_fetches ?? 0) > 0).length, live.length),
      calls: live.reduce((n, r) => n + (r.receiver_span_fetches ?? 0), 0),
    },
    orchestration: spawn.length
      ? share(spawn.filter((r) => (r.orchestration_tool_calls ?? 0) > 0).length, spawn.length)
      : null,
    assertions: {
      made: src.reduce((n, r) => n + (r.source_assertions ?? 0), 0),
      labelled: src.reduce((n, r) => n + (r.source_assertions_labelled ?? 0), 0),
    },
    ...(src.some(inParentWindow) ? { inlinePrefix: true } : {}),
    ...(src.length && src.every(ownSource) ? { ownSource: ownSourceName(src) } : {}),
  };
}

/** `--live-inline prefix`: the cell's research ran inside the parent's window (docs/live.md). */
function inParentWindow(r: ResultRow): boolean {
  return (r.detail?.artifacts as { liveInline?: string } | undefined)?.liveInline === 'prefix';
}

function median(xs: number[]): number | null {
  return xs.length ? quantileSorted(xs, 0.5) : null;
}

function ownSourceName(rows: readonly ResultRow[]): string {
  const names = rows.flatMap((r) =>
    (r.detail!.artifacts as { live: { ownSource: string }[] }).live.map((l) => l.ownSource),
  );
  return [...new Set(names)].join(', ');
}

function ownSource(r: ResultRow): boolean {
  const live = (r.detail?.artifacts as { live?: { ownSource?: string }[] } | undefined)?.live;
  return Array.isArray(live) && live.length > 0 && live.every((l) => typeof l.ownSource === 'string');
}

export function liveSimNote(rows: readonly ResultRow[], simulated: boolean): LiveSimNote | null {
  // A live row whose source was the user's own agent (--source) was not acted by the sim's tool policy.
  if (!simulated || !rows.some((r) => r.source_mode === 'live' && !ownSource(r))) return null;
  return {
    rates: Object.entries(liveRateSources).map(([name, s]) => ({
      name,
      default: defaultLiveRates[name as keyof typeof defaultLiveRates],
      ...s,
    })),
    emerges:
      "everything else in the live tables: how many calls the sim's tool policy makes over each world, which places it reaches, whether its budget runs out, what its report can state, the latency of its loop (the sim's token-based latency model)",
  };
}
