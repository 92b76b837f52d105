import type { Transcript, Turn } from '../../harness/core/index.ts';
import { viewOf } from '../../harness/core/transcript/view.ts';
import { formatArgs } from '../../strategies/render.ts';

/**
 * ADR 0093 A's retention rule, written out here from the ADR (seeds/adr-0093-escalation-context-parity.txt:
 * "the same newest-2-expansion / 160KB-newest-first / manifest-for-old policy ReplayTrails gives an
 * agent its own trails"; C: "per-result cap (raised 500 → 1500)") and not taken from
 * strategies/trails.ts, so a test built on it fails when the strategy's planner drifts from the ADR.
 *
 * Over the turns with tool activity, newest first: the newest 2 are expanded (every call and its full
 * result); older ones are retained (results cut to 1500 characters) while the running total of trail
 * bytes, expanded turns included, stays within 160 KB; from the first turn that does not fit on, every
 * older turn is a manifest line.
 */
export const ADR_0093 = { expandTurns: 2, retainBytes: 160 * 1024, retainedResultCap: 1500 } as const;

export type AdrFate = 'expanded' | 'retained' | 'manifest';

export function adrFates(t: Transcript, retainBytes: number = ADR_0093.retainBytes): Map<number, AdrFate> {
  const withTrail = viewOf(t).turns.filter((turn) => turn.trail.length > 0);
  const fates = new Map<number, AdrFate>();
  const newestFirst = [...withTrail].reverse();
  let used = 0;
  newestFirst.slice(0, ADR_0093.expandTurns).forEach((turn) => {
    fates.set(turn.index, 'expanded');
    used += bytesOf(turn, Number.POSITIVE_INFINITY);
  });
  const older = newestFirst.slice(ADR_0093.expandTurns);
  const firstMiss = older.findIndex((turn) => {
    used += bytesOf(turn, ADR_0093.retainedResultCap);
    return used > retainBytes;
  });
  older.forEach((turn, i) => fates.set(turn.index, firstMiss < 0 || i < firstMiss ? 'retained' : 'manifest'));
  return fates;
}

/** UTF-8 bytes of a turn's trail: each call's name and arguments and its result cut to `cap` characters. */
function bytesOf(turn: Turn, cap: number): number {
  let n = 0;
  for (const { call, result } of turn.trail) {
    const content = result?.content ?? '';
    n += Buffer.byteLength(call.name + formatArgs(call.input) + content.slice(0, cap));
  }
  return n;
}
