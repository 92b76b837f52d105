import { defineStrategy } from './define.ts';
import { finishHandoff, toChat } from './compose.ts';
import { framings } from './framing.ts';
import { renderMessage } from './render.ts';
import { deepFreeze, effectiveSnapshot } from './spawn.ts';

/**
 * Child-context selection `all`: an immutable copy of the parent's effective dialogue at spawn time
 * (strategies/spawn.ts) — compaction summaries included, raw compacted turns never reconstructed,
 * already-realised material of the active turn included, the triggering spawn call and any sibling
 * call still without a result excluded. Copied messages keep their dialogue roles, so the parent's
 * own instructions reach the child as user turns — the risk the isolated default exists to avoid.
 */
export const spawnAll = defineStrategy({
  name: 'spawn-all',
  description:
    "Spawned child with an immutable copy of the parent's effective dialogue (compaction summaries, no spawn call).",
  seed: 'child-agent-context-selection: "all and positive decimal values copy an immutable selection of effective parent dialogue" / "excludes the triggering Agent call" / "never reconstructs raw turns replaced by compaction"',
  deterministic: true,
  // The seed's `all` mode: the copy keeps the parent's roles, its requests included (the isolated default's reason).
  declares: {
    'spawn-instructions':
      "copies the parent's dialogue with its roles, as the seed's `all` mode does: the parent's requests reach the child as user turns",
  },
  params: {},
  async prepare(ctx) {
    const snap = effectiveSnapshot(ctx.case.source, ctx.case.spawnCallId);
    const messages = deepFreeze(snap.messages.map(toChat));
    return finishHandoff(ctx, {
      system: framings.child,
      messages,
      payload: messages.map(renderMessage).join('\n\n'),
      payloadMessages: messages,
      retained: messages.length,
      dropped: snap.dropped,
      artifacts: {
        snapshot: { compactedAway: snap.compactedAway, later: snap.later, excludedCalls: snap.excludedCalls },
      },
    });
  },
});
