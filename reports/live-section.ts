import type { ArmSummary, LiveSimNote, LiveSummary, SuiteSummary } from './summary/types.ts';
import * as f from './format.ts';

/**
 * The live-mode table of a suite (docs/live.md), as headers and cells both formatters render: the
 * Markdown report (brief too — `run` prints it) and the HTML one. Computes nothing; the numbers are
 * summarize()'s (reports/summary/live.ts).
 */
export function liveHeaders(suite: SuiteSummary, full: boolean): string[] {
  const spawn = liveArms(suite).some((a) => a.live!.orchestration);
  return [
    'arm',
    'source tool calls: median [min–max]',
    ...(full ? ['distribution (calls×cells)'] : []),
    'budget exhausted',
    'source output tokens (median)',
    'e2e latency p50',
    'Δ vs inline',
    'span fetches (cells)',
    ...(spawn ? ['orchestration by tool (cells)'] : []),
    ...(full ? ['assertions made / labelled', 'source loop p50'] : []),
  ];
}

export function liveRows(suite: SuiteSummary, full: boolean, label: (a: ArmSummary) => string): string[][] {
  const spawn = liveArms(suite).some((a) => a.live!.orchestration);
  return liveArms(suite).map((a) => {
    const l = a.live!;
    // A spawned child's cells re-run no source: its columns are dashes there.
    const ran = (text: () => string) => (l.sourceCells > 0 ? text() : f.dash);
    const b = l.budgetExhausted;
    return [
      label(a),
      ran(() => `${f.num(l.toolCalls.median, 1)} [${l.toolCalls.min}–${l.toolCalls.max}]`),
      ...(full ? [ran(() => distribution(l))] : []),
      ran(() => `${b.cells}/${b.n} (${f.pct(b.rate)}) of ${l.budgets.join('/')}`),
      ran(() => f.int(l.sourceOutputTokens.median)),
      f.seconds(l.latency.p50),
      l.latency.inlineArm === a.arm ? f.dash : f.seconds(l.latency.deltaVsInlineMs, true),
      `${l.spanFetch.cells}/${l.spanFetch.n} (${f.pct(l.spanFetch.rate)})`,
      ...(spawn ? [l.orchestration ? `${l.orchestration.cells}/${l.orchestration.n}` : f.dash] : []),
      ...(full
        ? [
            ran(() => `${l.assertions.made}/${l.assertions.labelled}`),
            ran(() => f.seconds(l.latency.sourceLoopP50)),
          ]
        : []),
    ];
  });
}

export function liveArms(suite: SuiteSummary): ArmSummary[] {
  return suite.arms.filter((a) => a.live);
}

function distribution(l: LiveSummary): string {
  return Object.entries(l.toolCalls.distribution)
    .sort((a, b) => Number(a[0]) - Number(b[0]))
    .map(([calls, n]) => `${calls}×${n}`)
    .join(' ');
}

/**
 * The notes under the live table, for both formats (plain text; code in backticks): whose session an
 * own agent's columns were read from (`--source`), and how the live inline arm ran — its Δ vs inline
 * depends on it (docs/live.md#inline-inside-the-parents-window).
 */
export function liveNotes(suite: SuiteSummary, label: (a: ArmSummary) => string): string[] {
  return [...ownSourceNote(suite), ...inlineNote(suite, label)];
}

function ownSourceNote(suite: SuiteSummary): string[] {
  const ran = liveArms(suite).filter((a) => a.live!.sourceCells > 0);
  const name = ran[0]?.live!.ownSource;
  if (!name || !ran.every((a) => a.live!.ownSource === name)) return [];
  return [
    `Source: your own agent \`${name}\` (\`--source\`), run once per cell over the case's world: tool calls, budget exhausted and latency are read from its session; source output tokens are the strategy's own source-role calls, not the agent's (its usage is not seen).`,
  ];
}

function inlineNote(suite: SuiteSummary, label: (a: ArmSummary) => string): string[] {
  const inline = liveArms(suite).find((a) => a.strategy === 'inline' && a.live!.sourceCells > 0);
  // An own agent (--source) gets its brief, never the parent's window: the mode does not apply.
  if (!inline || inline.live!.ownSource) return [];
  return [
    inline.live!.inlinePrefix
      ? `Live inline (${label(inline)}): its research ran inside the parent's window (\`--live-inline prefix\`), so its latency and tokens include the parent's prefill on every research turn.`
      : `Live inline (${label(inline)}): its research ran like every arm's and is replayed as the parent's history; it did not pay the parent's prefill per research turn (\`--live-inline prefix\` to include it).`,
  ];
}

/** The sentences a live sim report carries: which numbers are set (from a seed, or chosen), what emerges. */
export function liveSimLines(note: LiveSimNote): string[] {
  return [
    'Live mode on the sim: the source agent is the sim\u2019s seeded tool policy acting over each case\u2019s world (docs/live.md).',
    ...note.rates.map(
      (r) => `${r.name} = ${r.default} — ${r.set === 'seed' ? 'set from the seed' : 'chosen'}: ${r.source}`,
    ),
    `Emerges: ${note.emerges}. Rates overridden in the run's config.json (sim.sizes.*.live) replace these defaults.`,
  ];
}
