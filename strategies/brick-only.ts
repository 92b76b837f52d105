import type { ChatMessage } from '../harness/core/index.ts';
import { messagesTokens, countTokens } from '../harness/core/tokens.ts';
import { defineStrategy } from './define.ts';
import { attachReturn, finishHandoff, receiverHistory } from './compose.ts';
import { allMarkers, buildBrick, fencedBrick } from './brick.ts';
import { framings } from './framing.ts';

/**
 * ADR 0029's escalation view: the source's tool evidence is not in the history; a bounded brick
 * (per-turn lines, newest turns first within 12000 chars) orients the receiver. With `history:
 * 'text'` (default, as ADR 0029's buildAgentHistoryFull) the user and assistant text of the session
 * stays, trimmed drop-oldest within the budget left after the brick; `history: 'none'` passes the
 * brick and nothing else. The defaults reproduce ADR 0029 (a turn's final text only, silent cuts);
 * each of ADR 0093 C's changes is its own param so it can be ablated alone (strategies/brick.ts):
 * `trailActivity`, `resultMarker` (with `resultCap` 500 → 1500), `turnsMarker`, `turnHeadTail`,
 * `clearedMarker`; `markers: true` turns on every explicit-cut switch at once (and marks the oldest
 * text messages dropped to fit the budget). The brick is orientation in the system prompt and — as
 * ADR 0029 did — its size is subtracted from the message budget.
 */
export const brickOnly = defineStrategy({
  name: 'brick-only',
  description: "ADR 0029's bounded summary brick (and the session's text, without tool evidence).",
  seed: 'adr-0093 Context 1–5: "silent 500-char result cap, oldest turns dropped first at context_budget_chars"',
  deterministic: true,
  // The legacy brick cuts silently: that is what `markers: false` reproduces (ADR 0093 Context 1).
  properties: { marksCuts: (p) => p.markers },
  declares: {
    // ADR 0029's brick: a turn's final text only, the rest of the turn left out with no marker.
    'gaps-marked': (p) =>
      p.trailActivity
        ? undefined
        : "renders a turn's final text only and leaves out its other text and tool activity without a marker, as ADR 0029's brick does",
    'spawn-instructions':
      "keeps the session's user turns as user turns: on a spawn the parent's requests reach the child as instructions (not a spawn strategy)",
  },
  params: {
    resultCap: { type: 'number', default: 500, description: 'characters kept of each tool result' },
    contextBudgetChars: {
      type: 'number',
      default: 12000,
      description: 'characters of brick, newest turns first',
    },
    markers: {
      type: 'boolean',
      default: false,
      description:
        'every explicit-cut switch below at once (ADR 0093 C: result, turns and cleared markers, head+tail), and a marker for dropped text messages',
    },
    trailActivity: {
      type: 'boolean',
      default: false,
      description:
        'ADR 0093 C: a turn renders its tool calls and results, not only its final text (ADR 0029)',
    },
    resultMarker: {
      type: 'boolean',
      default: false,
      description:
        'ADR 0093 C: a capped result ends with "… (truncated — full result in the session history)"',
    },
    turnsMarker: {
      type: 'boolean',
      default: false,
      description: 'ADR 0093 C: dropped turns are announced by "(earlier activity omitted — N turns)"',
    },
    turnHeadTail: {
      type: 'boolean',
      default: false,
      description:
        'ADR 0093 C: the newest turn that does not fit keeps a head+tail of itself instead of being dropped',
    },
    clearedMarker: {
      type: 'boolean',
      default: false,
      description: 'ADR 0093 C: a result cleared at capture time says so',
    },
    framing: {
      type: 'enum',
      values: ['handoff', 'continuity'],
      default: 'handoff',
      description: 'reviewer hand-off framing (legacy) or continuity framing',
    },
    history: {
      type: 'enum',
      values: ['text', 'none'],
      default: 'text',
      description: "keep the session's user/assistant text (ADR 0029) or pass the brick alone",
    },
  },
  async prepare(ctx, params) {
    const group = allMarkers(params.markers);
    const brick = buildBrick(ctx.case.source, {
      resultCap: params.resultCap,
      budgetChars: params.contextBudgetChars,
      trailActivity: params.trailActivity,
      resultMarker: params.resultMarker || group.resultMarker,
      turnsMarker: params.turnsMarker || group.turnsMarker,
      turnHeadTail: params.turnHeadTail || group.turnHeadTail,
      clearedMarker: params.clearedMarker || group.clearedMarker,
    });
    const framing = params.framing === 'continuity' ? framings.continuity : framings.handoff;
    const orientation = `${framing}\n\n[brick] ${fencedBrick(brick)}`;
    const markers = [...brick.markers];
    let messages: ChatMessage[];
    let droppedText = 0;
    if (ctx.case.receiverHistory) {
      messages = attachReturn(receiverHistory(ctx), brick.text, 'Summary brick from the other agent:');
    } else {
      const text = params.history === 'text' ? textHistory(ctx.case.source.messages) : [];
      // ADR 0093 Context 3: the legacy path subtracts the orientation from the same message budget.
      const budget = ctx.budgetTokens - countTokens(orientation) - (params.markers ? TEXT_MARKER_RESERVE : 0);
      while (text.length > 0 && messagesTokens(text) > budget) {
        text.shift();
        droppedText++;
      }
      if (droppedText > 0 && params.markers) {
        const marker = textMarker(droppedText);
        markers.push({ text: marker, kind: 'messages', dropped: droppedText });
        text.unshift({ role: 'system', text: marker });
      }
      messages = text;
    }
    return finishHandoff(ctx, {
      system: ctx.case.receiverHistory ? framings.parent : orientation,
      messages,
      payload: brick.text,
      markers,
      retained: brick.turnsKept,
      dropped: brick.turnsDropped + droppedText,
      artifacts: { brick: brick.text, ...(droppedText ? { droppedTextMessages: droppedText } : {}) },
    });
  },
});

export const textMarker = (n: number) => `(earlier conversation omitted — ${n} message${n === 1 ? '' : 's'})`;
const TEXT_MARKER_RESERVE = 24;

/** The session's user and assistant text, without tool calls or results (what ADR 0029 kept). */
function textHistory(messages: readonly ChatMessage[]): ChatMessage[] {
  return messages.filter((m) => m.text && m.text.trim() !== '').map((m) => ({ role: m.role, text: m.text }));
}
