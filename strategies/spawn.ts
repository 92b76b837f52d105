import type { Draft, Message, Transcript } from '../harness/core/index.ts';
import { computeView } from '../harness/core/transcript/view.ts';

/**
 * The effective parent dialogue at the moment of a spawn (seed: child-agent-context-selection):
 * - only what was realised before the triggering spawn call: messages up to and including the one
 *   that makes it; nothing later (the snapshot "never waits for sibling work or later parent material");
 * - from the latest compaction summary on: the summary is kept as it is, and the raw turns it replaced
 *   are never reconstructed (ADR 0056);
 * - the triggering spawn call is excluded, and so is every call whose result was not realised yet
 *   (a sibling spawned in parallel) — along with any result whose call is not in the snapshot;
 * - copied messages keep their dialogue roles, and the copy is deep and frozen: later changes to the
 *   parent's transcript cannot reach it (ADR 0040's immutable snapshots).
 */
export interface SpawnSnapshot {
  messages: readonly Message[];
  /** Raw messages before the latest compaction summary (replaced by it; never copied). */
  compactedAway: number;
  /** Messages after the spawning message (not yet realised at spawn time). */
  later: number;
  /** Calls removed: the trigger and every call without a realised result. */
  excludedCalls: string[];
  /** Source messages not in the snapshot (compacted away, later, or emptied by the exclusions). */
  dropped: number;
}

/**
 * What a spawned child may see of its parent: the parent's effective dialogue up to the spawn call
 * (compaction summaries in place of what they replaced, the spawn call itself excluded), frozen.
 */
export function effectiveSnapshot(source: Transcript, spawnCallId: string | undefined): SpawnSnapshot {
  const all = source.messages;
  const at =
    spawnCallId === undefined ? -1 : all.findIndex((m) => m.toolCalls?.some((c) => c.id === spawnCallId));
  const end = at >= 0 ? at + 1 : all.length;
  let start = 0;
  for (let i = end - 1; i >= 0; i--) {
    if (all[i]!.compacted) {
      start = i;
      break;
    }
  }
  const window = all.slice(start, end);
  const realised = new Set<string>();
  for (const m of window) for (const r of m.toolResults ?? []) realised.add(r.callId);
  const excluded: string[] = [];
  const kept = new Set<string>();
  const trimmed: Message[] = [];
  for (const m of window) {
    const calls = (m.toolCalls ?? []).filter((c) => {
      const keep = c.id !== spawnCallId && realised.has(c.id);
      if (keep) kept.add(c.id);
      else excluded.push(c.id);
      return keep;
    });
    const results = (m.toolResults ?? []).filter((r) => kept.has(r.callId));
    const copy: Draft<Message> = { ...m, toolCalls: calls, toolResults: results };
    if (!calls.length) delete copy.toolCalls;
    if (!results.length) delete copy.toolResults;
    if ((copy.text ?? '').trim() !== '' || copy.toolCalls || copy.toolResults || copy.compacted)
      trimmed.push(copy);
  }
  const messages = deepFreeze(structuredClone(trimmed));
  return {
    messages,
    compactedAway: start,
    later: all.length - end,
    excludedCalls: excluded,
    dropped: all.length - messages.length,
  };
}

/**
 * The last `n` turns of a snapshot (a turn opens at a user message with text), widened to a segment
 * boundary so no call loses its result. The effective compaction summary is kept in front when the
 * selection does not already start with it (ADR 0056: recent-turn copies include effective summaries).
 */
export function lastTurns(messages: readonly Message[], n: number): Message[] {
  const view = computeView(messages);
  if (n <= 0) return summaryOf(messages);
  const turns = view.turns;
  let from = turns.length > n ? turns[turns.length - n]!.start : 0;
  for (const seg of view.segments) if (seg.start <= from && from < seg.end) from = seg.start;
  const picked = messages.slice(from);
  const summary = summaryOf(messages);
  return from > 0 && summary.length ? [...summary, ...picked] : [...picked];
}

function summaryOf(messages: readonly Message[]): Message[] {
  return messages[0]?.compacted ? [messages[0]] : [];
}

/** Freezes a value and everything it holds (a snapshot a strategy must not change). */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
