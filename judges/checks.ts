import type { Case, ChatMessage, CheckResult, Handoff } from '../harness/types.ts';
import { indexText, lineWithAll } from '../harness/text/cues.ts';
import { recapSignature } from '../harness/providers/sim/answer.ts';
import { renderMessage } from '../strategies/render.ts';

/** Phrases of a hand-off narrative; out of place in a session the agent owned from its first turn. */
export const handoffPhrases = ['handed off', 'hand-off', 'handoff from', 'the primary agent', 'as handed over', 'as received from'];

/** Deterministic checks on a cell: recap signature, hand-off language, markers, pairing, second assignment. */
export function runChecks(c: Case, handoff: Handoff, answer: string): CheckResult[] {
  const out: CheckResult[] = [];
  const ans = indexText(answer);
  out.push({ name: 'no_recap_signature', passed: !ans.has(recapSignature), detail: ans.has(recapSignature) ? `answer contains "${recapSignature}"` : 'no recap signature' });
  if (c.sessionShape === 'owned') {
    const found = handoffPhrases.filter((p) => ans.has(p));
    out.push({ name: 'no_handoff_language', passed: found.length === 0, detail: found.length ? `owned session, answer says: ${found.join(', ')}` : 'owns the session' });
  }
  out.push(markersCheck(handoff));
  out.push(pairingCheck(handoff.messages));
  if (c.reference.orchestration) {
    const acted = lineWithAll(ans, c.reference.orchestration.cues) !== undefined;
    out.push({ name: 'no_second_assignment', passed: !acted, detail: acted ? "child acted on the parent's orchestration request" : 'did its own task only' });
  }
  return out;
}

/** Every truncation the strategy recorded is actually present, as text, in what the receiver sees. */
function markersCheck(h: Handoff): CheckResult {
  const seen = [h.system, ...h.messages.map(renderMessage)].join('\n');
  const missing = h.stats.markers.filter((m) => !seen.includes(m.text));
  return { name: 'markers_present', passed: missing.length === 0, detail: missing.length ? `${missing.length} marker(s) recorded but not rendered` : `${h.stats.markers.length} marker(s), all rendered` };
}

/** Every tool call in the receiver's messages has its result, and no result lacks its call. */
export function pairingCheck(messages: ChatMessage[]): CheckResult {
  const calls = new Set<string>();
  const results = new Set<string>();
  for (const m of messages) {
    for (const c of m.toolCalls ?? []) calls.add(c.id);
    for (const r of m.toolResults ?? []) results.add(r.callId);
  }
  const unpaired = [...calls].filter((id) => !results.has(id)).length + [...results].filter((id) => !calls.has(id)).length;
  return { name: 'tool_pairing_intact', passed: unpaired === 0, detail: unpaired ? `${unpaired} call(s)/result(s) without their pair` : `${calls.size} call(s), all paired` };
}
