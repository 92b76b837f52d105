import type { Case, Handoff, ModelResponse } from '../core/index.ts';
import type { Problem } from './invariants.ts';
import { excerpt, viewOf } from './invariants.ts';
import { formatCall } from '../../strategies/render.ts';
import { withoutModelText } from './strings.ts';

/**
 * `no-leak` and `spawn-instructions`: what a strategy may not hand over although `ctx.case` gives it
 * to every strategy. The case's reference (facts, evidence, contradictions, what was not searched,
 * the orchestration request) and its labels (each assertion's statement and claim) are the grader's
 * answer key: none of it may reach the receiver unless the source says it. And a spawned child gets
 * none of the parent's requests as an instruction. What a model wrote through `ctx.call` is left out
 * of both (it is the model's doing, not the strategy's code).
 */

/** Text compared case- and whitespace-insensitively. */
const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/\s*⏎\s*|\s+/g, ' ')
    .trim();

const MIN_LABEL = 12;

interface Label {
  id: string;
  what: 'reference fact' | 'label';
  text: string;
}

function labelsOf(c: Case): Label[] {
  const r = c.reference ?? { facts: [], caveats: [] };
  const out: Label[] = [
    ...(r.facts ?? []).map((f) => ({ id: f.id, what: 'reference fact' as const, text: f.text })),
    ...(r.evidence ?? []).map((e) => ({ id: e.id, what: 'reference fact' as const, text: e.text })),
    ...(r.notSearched ?? []).map((t, i) => ({
      id: `notSearched[${i}]`,
      what: 'reference fact' as const,
      text: t,
    })),
    ...(r.contradictions ?? []).map((x, i) => ({
      id: `contradictions[${i}]`,
      what: 'reference fact' as const,
      text: x.topic,
    })),
    ...(c.assertions ?? []).flatMap((a) => [
      { id: a.id, what: 'label' as const, text: a.statement },
      { id: a.id, what: 'label' as const, text: a.claim },
    ]),
  ];
  if (r.orchestration)
    out.push({ id: 'orchestration', what: 'reference fact', text: r.orchestration.request });
  return out.filter((l) => typeof l.text === 'string' && l.text.trim().length >= MIN_LABEL);
}

const saidMemo = new WeakMap<Case, string>();

/** Everything the source and the receiver's own history say, and the task: where a label may come from. */
function said(c: Case): string {
  let s = saidMemo.get(c);
  if (s !== undefined) return s;
  const parts: string[] = [c.task];
  for (const t of [...(c.sources ?? [c.source]), ...(c.receiverHistory ? [c.receiverHistory] : [])])
    for (const m of t.messages) {
      parts.push(m.text ?? '');
      for (const call of m.toolCalls ?? []) parts.push(formatCall(call), JSON.stringify(call.input ?? {}));
      for (const r of m.toolResults ?? []) parts.push(r.content);
    }
  s = norm(parts.join('\n'));
  saidMemo.set(c, s);
  return s;
}

/** no-leak: a reference fact or label text the receiver sees that the source never says. */
export function leaks(c: Case, h: Handoff, made: readonly ModelResponse[]): Problem[] {
  const labels = labelsOf(c);
  if (labels.length === 0) return [];
  const places = viewOf(h).map((p) => ({ ...p, seen: norm(withoutModelText(p.text, made)) }));
  const source = said(c);
  const out: Problem[] = [];
  const reported = new Set<string>();
  for (const l of labels) {
    const n = norm(l.text);
    if (source.includes(n) || reported.has(`${l.what}/${l.id}`)) continue;
    const place = places.find((p) => p.seen.includes(n));
    if (!place) continue;
    reported.add(`${l.what}/${l.id}`);
    out.push({
      invariant: 'no-leak',
      message: { in: 'handoff', index: place.at, excerpt: excerpt(place.seen, place.seen.indexOf(n)) },
      detail: `the case's ${l.what} ${l.id} ("${excerpt(l.text).slice(0, 80)}") reaches the receiver; the source never says it`,
    });
  }
  return out;
}

const MIN_REQUEST = 24;

/**
 * A speaker label just before a text marks it as a line of a quoted transcript (`[user]`,
 * `[user:parent]`, `User:`), not as the turn's own instruction.
 */
const quoted = /(^|\n|—|-|\]|\|)\s*(\[(user|human)[^\]\n]*\]|(user|human)\s*:)\s*$/i;

/**
 * spawn-instructions: the parent's requests (its user turns' text — a compaction summary restating
 * them included — and the labelled orchestration request) must not reach the child in the system prompt, nor as a user turn's own text.
 */
export function spawnInstructions(c: Case, h: Handoff, made: readonly ModelResponse[]): Problem[] {
  if (c.direction !== 'spawn') return [];
  const requests = c.source.messages
    .map((m, index) => ({ index, text: m.role === 'user' ? (m.text ?? '').trim() : '' }))
    .filter((r) => r.text.length >= MIN_REQUEST);
  // The labelled request counts on its own only where no user turn of the parent holds it (a turn
  // that does is checked whole: quoted as a transcript line, it is context).
  const o = c.reference?.orchestration?.request?.trim();
  if (o && o.length >= MIN_REQUEST && !requests.some((r) => r.text.includes(o)))
    requests.push({ index: -1, text: o });
  if (requests.length === 0) return [];
  const out: Problem[] = [];
  const check = (at: number | 'system', raw: string, where: string) => {
    const text = withoutModelText(raw, made);
    for (const r of requests) {
      const p = text.indexOf(r.text);
      if (p < 0 || quoted.test(text.slice(Math.max(0, p - 40), p))) continue;
      out.push({
        invariant: 'spawn-instructions',
        message: { in: 'handoff', index: at, excerpt: excerpt(raw, p) },
        detail: `the parent's request (${r.index >= 0 ? `source message ${r.index}` : 'the labelled orchestration request'}) reaches the child as an instruction (${where})`,
      });
      return;
    }
  };
  check('system', h.system, 'the system prompt');
  h.messages.forEach((m, i) => {
    if (m.role === 'user' && m.text) check(i, m.text, "a user turn's own text");
  });
  return out;
}
