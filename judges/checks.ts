import type { Case, ChatMessage, CheckResult, Handoff, TruncationMarker } from '../harness/core/index.ts';
import { sessionShapeOf } from '../harness/core/transcript/session-shape.ts';
import { allOnLine, indexText, lineWithAll, type TextIndex } from '../harness/core/text/cues.ts';
import { renderMessages } from '../strategies/render.ts';
import {
  contrastWords,
  handoffPhrases,
  notSearchedCues,
  recapSignature,
} from '../harness/core/text/signals.ts';
import { defineCheck, type Check, type CheckContext, type CheckVerdict } from './define-check.ts';

export { handoffPhrases } from '../harness/core/text/signals.ts';

/**
 * Deterministic checks on a cell — no model involved, so they are exact and free:
 * - no_recap_signature: the answer does not contain the recap signature ADR 0093's addendum measured;
 * - no_handoff_language (owned sessions only): no hand-off narrative where no hand-off happened;
 * - markers_present: every truncation marker the strategy recorded is rendered where the receiver
 *   sees it, and a count in a marker matches what was dropped;
 * - tool_pairing_intact: every tool call the receiver sees has its result after it, and vice versa;
 * - no_second_assignment (spawn cases with an orchestration request): the child did its own task only;
 * - contradictions_surfaced (cases with labelled contradictions between children): every one is named
 *   in the answer — both claims on one line with a word of contrast;
 * - not_searched_named (cases listing what no child searched): every such place is named as unsearched.
 * The registry, in the order a row lists them; the config's `checks` run after these. Those that read
 * the answer by literal phrases say `cueBased: true` (every one but the two that read the handoff's
 * structure): their results are marked cue-based in the reports. None of them decides survival — the
 * survival classifier does (survival-decide.ts).
 */
export const builtinChecks: readonly Check[] = [
  defineCheck({
    name: 'no_recap_signature',
    cueBased: true,
    description: 'the answer does not contain the recap signature',
    run: ({ answerIndex }) => {
      const recap = answerIndex.has(recapSignature);
      return { passed: !recap, detail: recap ? `answer contains "${recapSignature}"` : 'no recap signature' };
    },
  }),
  defineCheck({
    name: 'no_handoff_language',
    cueBased: true,
    description: 'owned sessions: no hand-off narrative where no hand-off happened',
    applies: (ctx) => sessionShapeOf(ctx.case) === 'owned',
    run: ({ answer }) => verdictOf(handoffLanguageCheck(answer)),
  }),
  defineCheck({
    name: 'markers_present',
    description: 'every recorded truncation marker is rendered, and its count matches what was dropped',
    run: ({ handoff }) => verdictOf(memoByHandoff(markersMemo, handoff, markersCheck)),
  }),
  defineCheck({
    name: 'tool_pairing_intact',
    description: 'every tool call the receiver sees has its result after it, and vice versa',
    run: ({ handoff }) => verdictOf(memoByHandoff(pairingMemo, handoff, (h) => pairingCheck(h.messages))),
  }),
  defineCheck({
    name: 'no_second_assignment',
    cueBased: true,
    description: "spawn cases: the child did not act on the parent's orchestration request",
    applies: (ctx) => Boolean(ctx.case.reference.orchestration),
    run: ({ case: c, answerIndex }) => {
      const acted = lineWithAll(answerIndex, c.reference.orchestration!.cues) !== undefined;
      return {
        passed: !acted,
        detail: acted ? "child acted on the parent's orchestration request" : 'did its own task only',
      };
    },
  }),
  defineCheck({
    name: 'contradictions_surfaced',
    cueBased: true,
    description: 'every labelled contradiction between children is named in the answer',
    applies: (ctx) => Boolean(ctx.case.reference.contradictions?.length),
    run: ({ case: c, answerIndex }) => verdictOf(contradictionsCheck(c, answerIndex)),
  }),
  defineCheck({
    name: 'not_searched_named',
    cueBased: true,
    description: 'every place no child searched is named as unsearched',
    applies: (ctx) => Boolean(ctx.case.reference.notSearched?.length),
    run: ({ case: c, answerIndex }) => verdictOf(notSearchedCheck(c, answerIndex)),
  }),
];

/**
 * Runs the given checks (the built-in ones unless told otherwise) in order; a check that does not
 * apply to the cell leaves no entry.
 */
export function runChecks(
  c: Case,
  handoff: Handoff,
  answer: string,
  checks: readonly Check[] = builtinChecks,
): CheckResult[] {
  const ctx: CheckContext = { case: c, handoff, answer, answerIndex: indexText(answer) };
  const out: CheckResult[] = [];
  for (const check of checks) {
    if (check.applies && !check.applies(ctx)) continue;
    const v = check.run(ctx);
    out.push({
      name: check.name,
      passed: v.passed,
      detail: v.detail ?? '',
      ...(check.cueBased ? { cueBased: true } : {}),
    });
  }
  return out;
}

function verdictOf(r: CheckResult): CheckVerdict {
  return { passed: r.passed, detail: r.detail };
}

/** The checks that read the handoff alone run once per handoff (one is shared by the reps of a deterministic arm). */
const markersMemo = new WeakMap<Handoff, CheckResult>();
const pairingMemo = new WeakMap<Handoff, CheckResult>();

function memoByHandoff(
  memo: WeakMap<Handoff, CheckResult>,
  h: Handoff,
  check: (h: Handoff) => CheckResult,
): CheckResult {
  let r = memo.get(h);
  if (!r) {
    r = check(h);
    memo.set(h, r);
  }
  return r;
}

export function contradictionsCheck(c: Case, ans: TextIndex): CheckResult {
  const byId = new Map(c.assertions.map((a) => [a.id, a]));
  const all = c.reference.contradictions ?? [];
  const surfaced = all.filter((x) => {
    const cues = x.between.flatMap((id) => byId.get(id)?.cues ?? []);
    return ans.getLines().some((l) => allOnLine(l, cues) && contrastWords.some((w) => l.includes(w)));
  });
  return {
    name: 'contradictions_surfaced',
    passed: surfaced.length === all.length,
    detail: `${surfaced.length}/${all.length} contradiction(s) surfaced`,
  };
}

export function notSearchedCheck(c: Case, ans: TextIndex): CheckResult {
  const items = c.reference.notSearched ?? [];
  const named = items.filter((item) =>
    ans.getLines().some((l) => l.includes(item.toLowerCase()) && notSearchedCues.some((w) => l.includes(w))),
  );
  return {
    name: 'not_searched_named',
    passed: named.length === items.length,
    detail: `${named.length}/${items.length} unsearched place(s) named`,
  };
}

export function handoffLanguageCheck(answer: string): CheckResult {
  const ans = indexText(answer);
  const found = handoffPhrases.filter((p) => ans.has(p));
  return {
    name: 'no_handoff_language',
    passed: found.length === 0,
    detail: found.length ? `owned session, answer says: ${found.join(', ')}` : 'owns the session',
  };
}

/**
 * Markers, two ways: rendered (each recorded marker text occurs in the receiver's view at least as
 * often as it was recorded) and honest (a marker that states a number states the number dropped).
 * Items dropped with no marker at all are noted in the detail but do not fail the check: from the
 * stats alone a silent truncation (legacy brick) cannot be told from a deliberate omission (a summary
 * standing in for the turns, an isolated spawn); `markers_count` on the row shows the former.
 */
export function markersCheck(h: Handoff): CheckResult {
  const seen = [h.system, ...renderMessages(h.messages)].join('\n');
  const problems: string[] = [];
  const recorded = new Map<string, number>();
  for (const m of h.stats.markers) recorded.set(m.text, (recorded.get(m.text) ?? 0) + 1);
  for (const [text, n] of recorded) {
    const rendered = occurrences(seen, text);
    if (rendered < n) problems.push(`"${text}" recorded ${n}×, rendered ${rendered}×`);
  }
  for (const m of h.stats.markers) {
    const wrong = countMismatch(m);
    if (wrong) problems.push(wrong);
  }
  const n = h.stats.markers.length;
  const ok = n
    ? `${n} marker(s), all rendered, counts match`
    : h.stats.dropped > 0
      ? `no markers; ${h.stats.dropped} item(s) not passed on (truncated silently, or omitted by design)`
      : 'nothing truncated';
  return {
    name: 'markers_present',
    passed: problems.length === 0,
    detail: problems.length ? problems.join('; ') : ok,
  };
}

/** A marker with numbers in it must state the amount dropped; one without numbers cannot be checked. */
export function countMismatch(m: TruncationMarker): string | undefined {
  const numbers = (m.text.match(/\d[\d,]*/g) ?? []).map((x) => Number(x.replace(/,/g, '')));
  if (numbers.length === 0 || numbers.includes(m.dropped)) return undefined;
  return `"${m.text}" says ${numbers.join('/')} but ${m.dropped} ${m.kind === 'result' ? 'characters were' : 'were'} dropped`;
}

function occurrences(haystack: string, needle: string): number {
  if (!needle) return 0;
  let n = 0;
  for (let i = haystack.indexOf(needle); i >= 0; i = haystack.indexOf(needle, i + needle.length)) n++;
  return n;
}

/** Every tool call in the receiver's messages has its result in a later message, and no result lacks its call. */
export function pairingCheck(messages: readonly ChatMessage[]): CheckResult {
  const problems = pairingProblems(messages).map((p) => p.detail);
  const calls = new Set(messages.flatMap((m) => (m.toolCalls ?? []).map((c) => c.id))).size;
  return {
    name: 'tool_pairing_intact',
    passed: problems.length === 0,
    detail: problems.length
      ? problems.slice(0, 5).join('; ') + (problems.length > 5 ? `; … ${problems.length - 5} more` : '')
      : `${calls} call(s), all paired`,
  };
}

/** Each pairing problem with the index of the message it is in (the call's, for a call left without its result). */
export function pairingProblems(messages: readonly ChatMessage[]): { message: number; detail: string }[] {
  const callAt = new Map<string, number>();
  const problems: { message: number; detail: string }[] = [];
  const resultFor = new Set<string>();
  messages.forEach((m, i) => {
    for (const c of m.toolCalls ?? []) {
      if (callAt.has(c.id)) problems.push({ message: i, detail: `call ${c.id} appears twice` });
      callAt.set(c.id, i);
    }
    for (const r of m.toolResults ?? []) {
      const at = callAt.get(r.callId);
      if (at === undefined)
        problems.push({ message: i, detail: `result ${r.callId} without its call before it` });
      else if (at >= i)
        problems.push({ message: i, detail: `result ${r.callId} in the same message as its call` });
      if (resultFor.has(r.callId)) problems.push({ message: i, detail: `call ${r.callId} has two results` });
      resultFor.add(r.callId);
    }
  });
  for (const [id, at] of callAt)
    if (!resultFor.has(id)) problems.push({ message: at, detail: `call ${id} without its result` });
  return problems;
}
