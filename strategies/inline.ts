import type { ChatMessage, Message, StrategyContext } from '../harness/core/index.ts';
import { messagesTokens } from '../harness/core/tokens.ts';
import { defineStrategy } from './define.ts';
import { briefLength, finishHandoff, pendingCalls, receiverHistory, replayable, toChat } from './compose.ts';
import { framings } from './framing.ts';
import { renderMessage, renderTranscript } from './render.ts';
import { renderSession } from './narrate.ts';
import { trimHeadTail } from './head-tail.ts';
import { adr0093Retention, planTrails } from './trails.ts';
import { effectiveSnapshot } from './spawn.ts';

/**
 * No split — the control arm. The source agent's work is part of the receiver's own history, as if
 * the receiver had done it itself: a parent that ran the research inline, a primary that simply
 * continues (milk-auto), a parent doing its child's task with its own effective context.
 * `replay: 'full'` (default) passes every message as it was: nothing summarised, rendered or dropped
 * (a call that never got a result is narrated next to its message, since it cannot be replayed).
 * `replay: 'planned'` is how an agent replays its OWN trails in ADR 0093's runtime (ReplayTrails):
 * the same retention plan and head+tail trim parity-narration applies to another agent's trails,
 * with the calls kept first-person — the other side of the superset-parity comparison.
 */
export const inline = defineStrategy({
  name: 'inline',
  description: "No split: the work is the receiving agent's own history (control arm).",
  seed: 'ledgerline: "if the research had run inline"; adr-0093: milk-auto, the primary continuing its own session (ReplayTrails)',
  deterministic: true,
  declares: {
    'spawn-instructions':
      "replays the source's user turns as user turns: on a spawn the parent's requests reach the child as instructions (a replay, not a spawn strategy)",
  },
  properties: {
    superset: (p) => p.replay === 'full',
    retention: (p) => (p.replay === 'planned' ? adr0093Retention : undefined),
  },
  params: {
    replay: {
      type: 'enum',
      values: ['full', 'planned'],
      default: 'full',
      description:
        "'full': every message as it was; 'planned': own trails under ADR 0093's retention plan (newest 2 expanded, 160 KB newest-first, manifest) and head+tail trim",
    },
  },
  async prepare(ctx, params) {
    if (ctx.case.direction === 'spawn') return spawnInline(ctx);
    const history = withoutPendingSpawn(receiverHistory(ctx));
    const own =
      params.replay === 'planned'
        ? await plannedOwnWork(ctx, history)
        : { messages: ownWork(ctx.case.source.messages, history.length > 0) };
    const messages: ChatMessage[] = [...history, ...own.messages];
    return finishHandoff(ctx, {
      system: ctx.case.direction === 'return' ? framings.parent : framings.owner,
      messages,
      payload: renderTranscript({ messages: own.messages }),
      payloadMessages: own.messages,
      retained: 'retained' in own ? own.retained : own.messages.length,
      ...('manifest' in own ? { manifest: own.manifest, dropped: own.dropped, markers: own.markers } : {}),
    });
  },
});

/** The source's messages as the receiver's own; a brief that opened a child session is dropped when the receiver has its own history. */
function ownWork(messages: readonly Message[], hasHistory: boolean): ChatMessage[] {
  return replayable(messages.slice(briefLength(messages, hasHistory)));
}

async function plannedOwnWork(ctx: StrategyContext, history: ChatMessage[]) {
  const t = ctx.case.source;
  const plan = planTrails(t, adr0093Retention);
  const skip = briefLength(t.messages, history.length > 0);
  const segments = renderSession(t, { plan, policy: adr0093Retention, isOwn: () => true }).filter(
    (s) => s.start >= skip,
  );
  const trimmed = await trimHeadTail(segments, {
    budgetTokens: ctx.budgetTokens - messagesTokens(history),
    middle: 'drop',
    summaryTokens: 0,
  });
  return {
    messages: trimmed.messages,
    retained: trimmed.kept.reduce((n, s) => n + s.shown, 0),
    manifest: trimmed.kept.reduce((n, s) => n + s.listed, 0),
    dropped: trimmed.middle?.calls ?? 0,
    markers: [...trimmed.kept.flatMap((s) => s.markers), ...trimmed.markers],
  };
}

/** Spawn without a split: the parent does the task itself, with its own effective context. */
function spawnInline(ctx: StrategyContext) {
  const snap = effectiveSnapshot(ctx.case.source, ctx.case.spawnCallId);
  const messages = snap.messages.map(toChat);
  return finishHandoff(ctx, {
    system: framings.owner,
    messages,
    payload: messages.map(renderMessage).join('\n\n'),
    payloadMessages: messages,
    retained: messages.length,
    dropped: snap.dropped,
  });
}

/** Inline means the receiver never spawned anyone: a spawn call still waiting for its result is removed. */
function withoutPendingSpawn(history: ChatMessage[]): ChatMessage[] {
  if (pendingCalls(history).length === 0) return history;
  const { toolCalls: _dropped, ...rest } = history[history.length - 1]!;
  return rest.text ? [...history.slice(0, -1), rest] : history.slice(0, -1);
}
