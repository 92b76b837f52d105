import { defineStrategy } from './define.ts';
import { finishHandoff, toChat } from './compose.ts';
import { framings } from './framing.ts';
import { renderMessage } from './render.ts';
import { deepFreeze, effectiveSnapshot, lastTurns } from './spawn.ts';

/**
 * Child-context selection by a positive number n: the last n turns of the parent's effective dialogue
 * (the same immutable snapshot as `spawn-all`, cut at a segment boundary), with the effective
 * compaction summary in front when the cut leaves it out (ADR 0056).
 */
export const spawnRecent = defineStrategy({
  name: 'spawn-recent',
  description: "Spawned child with the last n turns of the parent's effective dialogue.",
  seed: 'child-agent-context-selection: "positive decimal values copy an immutable selection of effective parent dialogue"; ADR 0056 "full or recent-turn copies include effective anchored summaries"',
  deterministic: true,
  declares: {
    'spawn-instructions':
      "copies the parent's last turns with their roles, as the seed's decimal mode does: a request among them reaches the child as a user turn",
  },
  params: {
    n: { type: 'number', default: 2, description: 'turns of the parent dialogue to copy, newest last' },
  },
  async prepare(ctx, params) {
    const snap = effectiveSnapshot(ctx.case.source, ctx.case.spawnCallId);
    const picked = lastTurns(snap.messages, Math.floor(params.n));
    const messages = deepFreeze(picked.map(toChat));
    return finishHandoff(ctx, {
      system: framings.child,
      messages,
      payload: messages.map(renderMessage).join('\n\n'),
      payloadMessages: messages,
      retained: messages.length,
      dropped: ctx.case.source.messages.length - messages.length,
      artifacts: {
        snapshot: {
          compactedAway: snap.compactedAway,
          later: snap.later,
          excludedCalls: snap.excludedCalls,
          olderMessagesLeftOut: snap.messages.length - picked.length,
        },
      },
    });
  },
});
