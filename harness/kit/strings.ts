import type { Case, Handoff, ModelResponse } from '../core/index.ts';
import type { Problem } from './invariants.ts';
import { excerpt, viewOf } from './invariants.ts';
import { formatCall } from '../../strategies/render.ts';
import { oneLine } from '../../strategies/brick.ts';

/**
 * The source's items as a rendered string shows them: every text, tool call (as `name(args)`) and
 * result long and distinctive enough to be found again. A strategy that renders the source into a
 * string (one user message, a brief) escapes the structural checks on messages; these follow the
 * items into the string: `gaps-marked` (nothing left out between two shown items unless a recorded
 * marker stands between them), `ordered` (the source's order) and `pairing` (a call shown as
 * `name(args)` with its result, a result with its call).
 */
interface Item {
  kind: 'text' | 'call' | 'result';
  /** Which source (multi-child cases have several) and the message it is in. */
  source: number;
  index: number;
  /** The message it orders by: its own, or for a result its call's. */
  order: number;
  /** Position in the source's canonical order (message, then text, calls, results). */
  rank: number;
  what: string;
  /** What finds it: its opening as recorded and one-lined (a cut item still shows its opening). */
  openings: string[];
  callId?: string;
}

const MIN_ITEM = 16;

const itemMemo = new WeakMap<Case, Item[]>();

/** The distinctive items of every source of the case (their openings occur once in all the case's text). */
function itemsOf(c: Case): Item[] {
  let items = itemMemo.get(c);
  if (items) return items;
  const all: Item[] = [];
  const corpus: string[] = [];
  (c.sources ?? [c.source]).forEach((t, source) => {
    const results = new Map<string, { content: string; index: number }>();
    t.messages.forEach((m, index) => {
      for (const r of m.toolResults ?? []) results.set(r.callId, { content: r.content, index });
    });
    let rank = 0;
    t.messages.forEach((m, index) => {
      const add = (
        kind: Item['kind'],
        what: string,
        text: string,
        at: number,
        whole: boolean,
        callId?: string,
      ) => {
        corpus.push(text);
        const body = text.trim();
        if (body.length < MIN_ITEM) return;
        const cut = whole ? body.length : Math.min(80, Math.max(MIN_ITEM, Math.floor(body.length / 2)));
        const openings = [...new Set([body.slice(0, cut), oneLine(body).slice(0, cut)])];
        all.push({ kind, source, index: at, order: index, rank: rank++, what, openings, callId });
      };
      if (m.text) add('text', `${m.role} text`, m.text, index, false);
      // A call and its result are one step: a result ranks and orders with its call, as a narration
      // pairs them and a replay follows the call with its result.
      for (const call of m.toolCalls ?? []) {
        const r = results.get(call.id);
        if (!r) continue;
        add('call', `call ${call.id}`, formatCall(call), index, false, call.id);
        add('result', `result of ${call.id}`, r.content, r.index, false, call.id);
      }
    });
  });
  for (const h of c.receiverHistory?.messages ?? []) corpus.push(h.text ?? '');
  const text = corpus.join('\n');
  items = all.filter((i) => i.openings.every((o) => once(text, o)));
  itemMemo.set(c, items);
  return items;
}

const once = (text: string, needle: string) => {
  const p = text.indexOf(needle);
  return p >= 0 && text.indexOf(needle, p + 1) < 0;
};

/** Where an item is in a text: its single position, -1 when absent, null when ambiguous. */
function positionIn(text: string, item: Item): number | null {
  let found = -1;
  for (const o of item.openings) {
    const p = text.indexOf(o);
    if (p < 0) continue;
    if (text.indexOf(o, p + 1) >= 0) return null;
    if (found >= 0 && found !== p) return null;
    found = p;
  }
  return found;
}

/** The text with what a model wrote blanked out (a summary may quote anything in any order). */
export function withoutModelText(text: string, made: readonly ModelResponse[]): string {
  let out = text;
  for (const r of made)
    for (const s of [r.text.trim(), ...r.toolCalls.flatMap((x) => stringsOf(x.input))])
      if (s.length >= MIN_ITEM)
        for (let p = out.indexOf(s); p >= 0; p = out.indexOf(s, p + s.length))
          out = out.slice(0, p) + ' '.repeat(s.length) + out.slice(p + s.length);
  return out;
}

function stringsOf(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v.flatMap(stringsOf);
  if (v && typeof v === 'object') return Object.values(v).flatMap(stringsOf);
  return [];
}

const label = (i: Item) => `source message ${i.index} (${i.what})`;

/** gaps-marked, ordered and in-string pairing over every rendered place of the handoff. */
export function stringItems(
  c: Case,
  h: Handoff,
  made: readonly ModelResponse[],
): { gaps: Problem[]; order: Problem[]; pairing: Problem[] } {
  const items = itemsOf(c);
  const places = viewOf(h);
  const whole = places.map((p) => p.text).join('\n');
  const markers = [...new Set(h.stats.markers.map((m) => m.text))].filter((m) => m.length > 0);
  const out = { gaps: [] as Problem[], order: [] as Problem[], pairing: [] as Problem[] };
  let inversions = 0;
  for (const place of places) {
    const text = withoutModelText(place.text, made);
    const found = items
      .map((item) => ({ item, at: positionIn(text, item) }))
      .filter((x): x is { item: Item; at: number } => x.at !== null && x.at >= 0);
    if (found.length < 2) continue;
    const at = (p: number) => ({ in: 'handoff' as const, index: place.at, excerpt: excerpt(place.text, p) });
    // Order: by position, the source's messages must not go back (items of one message may reorder).
    const byPos = [...found].sort((a, b) => a.at - b.at);
    for (let k = 1; k < byPos.length; k++) {
      const [a, b] = [byPos[k - 1]!, byPos[k]!];
      if (a.item.source !== b.item.source || a.item.order <= b.item.order) continue;
      inversions++;
      if (out.order.length === 0)
        out.order.push({
          invariant: 'ordered',
          message: at(a.at),
          detail: `${label(a.item)} is shown before ${label(b.item)} in one rendered string`,
        });
    }
    // Gaps: between two items shown here, an item of a kind shown here that is nowhere in the view.
    const kinds = new Set(found.map((x) => `${x.item.source}/${x.item.kind}`));
    const byRank = [...found].sort((a, b) => a.item.source - b.item.source || a.item.rank - b.item.rank);
    for (let k = 1; k < byRank.length; k++) {
      const [a, b] = [byRank[k - 1]!, byRank[k]!];
      if (a.item.source !== b.item.source) continue;
      const lo = Math.min(a.at, b.at);
      const hi = Math.max(a.at, b.at);
      if (markers.some((m) => between(place.text, m, lo, hi))) continue;
      const missing = items.find(
        (i) =>
          i.source === a.item.source &&
          i.rank > a.item.rank &&
          i.rank < b.item.rank &&
          kinds.has(`${i.source}/${i.kind}`) &&
          i.openings.every((o) => !whole.includes(o)),
      );
      if (missing)
        out.gaps.push({
          invariant: 'gaps-marked',
          message: at(lo),
          detail: `the source's ${missing.what} (source message ${missing.index}) is not shown between source message ${a.item.index} and source message ${b.item.index}, and no recorded marker says so`,
        });
    }
    out.pairing.push(...pairedHere(found, items, place.text, whole, markers, at));
  }
  if (out.order.length) out.order[0]!.detail += ` (${inversions} step(s) back in this handoff)`;
  return out;
}

function between(text: string, needle: string, lo: number, hi: number): boolean {
  const p = text.indexOf(needle, lo);
  return p >= 0 && p <= hi;
}

/**
 * Where a string shows calls as `name(args)` and results together, a call shown there has its result
 * in the view (or a marker after it), and a result its call.
 */
function pairedHere(
  found: { item: Item; at: number }[],
  items: readonly Item[],
  text: string,
  whole: string,
  markers: readonly string[],
  at: (p: number) => Problem['message'],
): Problem[] {
  // Only a string that renders calls and results together (a transcript as text); a structured
  // handoff has them in separate messages, where the structural check applies.
  if (!found.some((x) => x.item.kind === 'call') || !found.some((x) => x.item.kind === 'result')) return [];
  // A partner counts as missing only when the receiver sees it nowhere (found elsewhere, or only
  // ambiguously here, it is shown).
  const tracked = new Map(items.map((i) => [`${i.kind}/${i.source}/${i.callId}`, i]));
  const out: Problem[] = [];
  for (const x of found) {
    if (x.item.kind === 'text') continue;
    const other = x.item.kind === 'call' ? 'result' : 'call';
    const key = `${other}/${x.item.source}/${x.item.callId}`;
    const partner = tracked.get(key);
    if (!partner || partner.openings.some((o) => whole.includes(o))) continue;
    if (x.item.kind === 'call' && markers.some((m) => text.indexOf(m, x.at) >= 0)) continue;
    out.push({
      invariant: 'pairing',
      message: at(x.at),
      detail: `${x.item.kind === 'call' ? `call ${x.item.callId} without its result` : `result of ${x.item.callId} without its call`} in one rendered string (source message ${x.item.index})`,
    });
  }
  return out;
}
