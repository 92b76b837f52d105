import type { RetentionPolicy, Transcript, Turn } from '../harness/core/index.ts';
import { viewOf } from '../harness/core/transcript/view.ts';
import { formatArgs } from './render.ts';

export type { RetentionPolicy };

/** ADR 0093's numbers: newest 2 turns expanded, 160 KB newest-first, 1500 characters per retained result. */
export const adr0093Retention: RetentionPolicy = {
  expandTurns: 2,
  retainBytes: 160 * 1024,
  retainedResultCap: 1500,
};

/**
 * What a retention plan does with a turn's tool trail: expanded (whole), retained (results within the byte
 * budget) or manifest (a line only).
 */
export type TrailFate = 'expanded' | 'retained' | 'manifest';

/**
 * A retention plan (planTrails): each tool turn's fate, the trail bytes it retains, and the turn of every
 * message.
 */
export interface TrailPlan {
  /** Fate of each turn that has tool activity, by turn index. */
  fates: Map<number, TrailFate>;
  /** Trail bytes the plan retains (expanded + retained). */
  bytes: number;
  /** Turn index of every message index (for renderers walking messages). */
  turnOf: Int32Array;
}

/**
 * The retention plan for tool trails (ADR 0093 A: "the same newest-2-expansion / 160KB-newest-first /
 * manifest-for-old policy ReplayTrails gives an agent its own trails"). One plan serves both sides:
 * an agent replaying its own trails and a receiver reading another agent's narrated trails, so the two
 * renderings retain exactly the same evidence (retention parity, symmetric cost).
 *
 * Walking the turns that have tool activity newest-first:
 * - the newest `expandTurns` are *expanded*: every call and its full result;
 * - older ones are *retained* while the running byte total (expanded turns included) stays within
 *   `retainBytes`; their results are capped at `retainedResultCap` characters, with a marker;
 * - from the first turn that does not fit, every older turn is reduced to a *manifest* line naming its
 *   calls (strictly newest-first: a small old turn never jumps a large newer one).
 */
export function planTrails(transcript: Transcript, policy: RetentionPolicy): TrailPlan {
  const view = viewOf(transcript);
  const fates = new Map<number, TrailFate>();
  let bytes = 0;
  let expanded = 0;
  let full = false;
  for (let i = view.turns.length - 1; i >= 0; i--) {
    const turn = view.turns[i]!;
    if (turn.trail.length === 0) continue;
    if (expanded < policy.expandTurns) {
      fates.set(turn.index, 'expanded');
      bytes += trailBytes(turn, Infinity);
      expanded++;
      continue;
    }
    const cost = full ? 0 : trailBytes(turn, policy.retainedResultCap);
    if (!full && bytes + cost <= policy.retainBytes) {
      fates.set(turn.index, 'retained');
      bytes += cost;
    } else {
      full = true;
      fates.set(turn.index, 'manifest');
    }
  }
  return { fates, bytes, turnOf: turnIndexOf(view.turns, transcript.messages.length) };
}

/** Bytes of a turn's trail as retained: call names, arguments and (capped) results. */
export function trailBytes(turn: Turn, resultCap: number): number {
  let n = 0;
  for (const item of turn.trail) {
    n += Buffer.byteLength(item.call.name) + Buffer.byteLength(formatArgs(item.call.input));
    const content = item.result?.content ?? '';
    n += Buffer.byteLength(content.length > resultCap ? content.slice(0, resultCap) : content);
  }
  return n;
}

function turnIndexOf(turns: readonly Turn[], length: number): Int32Array {
  const out = new Int32Array(length);
  for (const t of turns) out.fill(t.index, t.start, t.end);
  return out;
}

/** A one-line list of a turn's calls by tool ("read_file ×2, grep"), for manifest lines. */
export function callSummary(turn: Turn): string {
  const counts = new Map<string, number>();
  for (const item of turn.trail) counts.set(item.call.name, (counts.get(item.call.name) ?? 0) + 1);
  return [...counts].map(([name, n]) => (n > 1 ? `${name} ×${n}` : name)).join(', ');
}
