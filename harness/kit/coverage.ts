import type { Case, Handoff, ModelResponse, RetentionPolicy, Transcript } from '../core/index.ts';
import type { Problem } from './invariants.ts';
import { excerpt, sourceResults, viewOf } from './invariants.ts';
import { viewOf as transcriptView } from '../core/transcript/view.ts';
import { formatCall } from '../../strategies/render.ts';
import { planTrails } from '../../strategies/trails.ts';
import { briefLength } from '../../strategies/compose.ts';
import { oneLine } from '../../strategies/brick.ts';

/**
 * What of the source the receiver sees. A source text counts as shown when it is there as it was, in
 * the brick's one-line form (`oneLine`: line breaks as ` ⏎ `), or — checked last, as it is the slowest —
 * with every whitespace run collapsed (a rendering that reflows a result still shows it).
 */
export function normalise(text: string): string {
  return text.replace(/\s*⏎\s*|\s+/g, ' ').trim();
}

interface Place {
  at: number | 'system';
  text: string;
}

interface ViewMemo {
  places: Place[];
  history?: string;
  all?: string;
  historyCollapsed?: string;
  allCollapsed?: string;
}

const viewMemo = new WeakMap<Handoff, ViewMemo>();
function memo(h: Handoff): ViewMemo {
  let m = viewMemo.get(h);
  if (!m) viewMemo.set(h, (m = { places: viewOf(h) }));
  return m;
}
const places = (h: Handoff): Place[] => memo(h).places;

/** Whether `text` is in what the receiver sees: as it is, one-lined, or whitespace-collapsed. */
function shows(h: Handoff, where: 'all' | 'history', text: string): boolean {
  const m = memo(h);
  const seen = where === 'all' ? (m.all ??= m.places.map((p) => p.text).join('\n')) : history(h);
  if (seen.includes(text) || seen.includes(oneLine(text))) return true;
  const n = normalise(text);
  if (n === '') return true;
  const key = where === 'all' ? 'allCollapsed' : 'historyCollapsed';
  return (m[key] ??= normalise(seen)).includes(n);
}

/** The history the receiver reads (the system prompt — an orientation brick, say — is not the history). */
function history(h: Handoff): string {
  const m = memo(h);
  return (m.history ??= m.places
    .filter((p) => p.at !== 'system')
    .map((p) => p.text)
    .join('\n'));
}

/**
 * A source tool result or assistant message shown only in part — its opening is there (as it is or
 * one-lined), followed by something else — must be followed in the same message by a recorded marker.
 * Openings inside a span that shows some source text or result whole (an agent quoting an output, one
 * result containing another) are not cuts.
 */
export function unmarkedCuts(c: Case, h: Handoff, made: readonly ModelResponse[]): Problem[] {
  const { results, verbatim } = sourceTexts(c);
  // What a model wrote (a summary, a contract's fields) may quote a result: a quotation, not a cut.
  const quoted = [
    ...verbatim,
    ...made.flatMap((r) => [r.text.trim(), ...r.toolCalls.flatMap((x) => strings(x.input))]),
  ];
  const markers = [...new Set(h.stats.markers.map((m) => m.text))];
  const out: Problem[] = [];
  for (const place of places(h)) {
    let covered: [number, number][] | undefined;
    for (const r of results) {
      const p = cutAt(place.text, r, () => (covered ??= spansOf(place.text, quoted)));
      if (p < 0 || markers.some((m) => place.text.indexOf(m, p) >= 0)) continue;
      const shown = Math.max(
        commonPrefix(place.text, p, r.forms[0]!),
        commonPrefix(place.text, p, r.forms[1]!),
      );
      out.push({
        invariant: 'cuts-marked',
        message: { in: 'handoff', index: place.at, excerpt: excerpt(place.text, p) },
        detail: `${r.what} is shown cut — ${shown} of ${r.forms[0]!.length} characters — and no recorded marker follows it`,
      });
    }
  }
  return out;
}

/** Where a result is shown cut in `text` (-1: nowhere; shown whole, or inside a verbatim span). */
function cutAt(text: string, r: SourceResult, covered: () => [number, number][]): number {
  for (const opening of r.openings)
    for (let p = text.indexOf(opening); p >= 0; p = text.indexOf(opening, p + 1)) {
      if (r.forms.some((f) => text.startsWith(f, p)) || inside(covered(), p)) continue;
      return p;
    }
  return -1;
}

const MIN_CUT = 48;

/** Every string of a JSON value long enough to quote something. */
function strings(v: unknown): string[] {
  if (typeof v === 'string') return v.length >= 20 ? [v] : [];
  if (Array.isArray(v)) return v.flatMap(strings);
  if (v && typeof v === 'object') return Object.values(v).flatMap(strings);
  return [];
}

interface SourceResult {
  /** What it is, for the failure line: `the result of name (id)`, `the source's message 7 (assistant)`. */
  what: string;
  /** As recorded (trailing whitespace dropped) and one-lined. */
  forms: string[];
  openings: string[];
}

interface SourceTexts {
  results: SourceResult[];
  /** Every source text, call and result, in both forms: where an opening is a quotation, not a cut. */
  verbatim: string[];
}

const sourceMemo = new WeakMap<Case, SourceTexts>();

/** The source's results long enough to be cut, once per case, and every text the source shows whole. */
function sourceTexts(c: Case): SourceTexts {
  let t = sourceMemo.get(c);
  if (t) return t;
  const results: SourceResult[] = [];
  const add = (what: string, content: string) => {
    const forms = [content.trimEnd(), oneLine(content)];
    if (forms[0]!.length < MIN_CUT) return;
    const openings = [...new Set(forms.map((f) => f.slice(0, Math.min(80, Math.floor(f.length / 2)))))];
    results.push({ what, forms, openings });
  };
  for (const item of sourceResults(c))
    add(`the result of ${item.call.name} (${item.call.id})`, item.result!.content);
  // An agent's own words cut short are a cut too (a last message trimmed to N characters, say).
  for (const s of c.sources ?? [c.source])
    s.messages.forEach((m, i) => {
      if (m.role === 'assistant' && m.text) add(`the source's message ${i} (assistant)`, m.text);
    });
  // A call's arguments may hold a result's opening (code that prints what its result then says): a
  // call shown whole is a quotation too, not a cut.
  const whole = (text: string) => (text.length >= MIN_CUT ? [text.trimEnd(), oneLine(text)] : []);
  const texts = (c.sources ?? [c.source]).flatMap((s) =>
    s.messages.flatMap((m) => [
      ...(m.text ? whole(m.text) : []),
      ...(m.toolCalls ?? []).flatMap((call) => whole(formatCall(call))),
    ]),
  );
  t = { results, verbatim: [...new Set([...results.flatMap((r) => r.forms), ...texts])] };
  sourceMemo.set(c, t);
  return t;
}

function spansOf(text: string, needles: readonly string[]): [number, number][] {
  const spans: [number, number][] = [];
  for (const n of needles)
    if (n)
      for (let p = text.indexOf(n); p >= 0; p = text.indexOf(n, p + n.length)) spans.push([p, p + n.length]);
  return spans;
}

const inside = (spans: readonly [number, number][], p: number) => spans.some(([a, b]) => p >= a && p < b);

function commonPrefix(text: string, from: number, whole: string): number {
  let n = 0;
  while (n < whole.length && text[from + n] === whole[n]) n++;
  return n;
}

/** The source's messages a return leaves out because the parent's history already holds them (its brief). */
function handedOver(c: Case): Transcript {
  const skip = briefLength(c.source.messages, c.receiverHistory !== undefined);
  return skip ? { ...c.source, messages: c.source.messages.slice(skip) } : c.source;
}

interface Atom {
  text: string;
  index: number;
  what: string;
}

/** `superset`: every text, call (name and arguments) and result of the source is in what the receiver sees. */
export function superset(c: Case, h: Handoff): Problem[] {
  const t = handedOver(c);
  const atoms: Atom[] = [];
  t.messages.forEach((m, i) => {
    if (m.text?.trim()) atoms.push({ text: m.text, index: i, what: 'text' });
    for (const call of m.toolCalls ?? [])
      atoms.push({ text: formatCall(call), index: i, what: `call ${call.id}` });
    for (const r of m.toolResults ?? [])
      atoms.push({ text: r.content, index: i, what: `result of ${r.callId}` });
  });
  return missing(h, atoms, 'superset', 'all', t);
}

/**
 * `retention`: under the declared plan, every text, the calls (name and arguments) and results of
 * expanded turns, the capped results of retained turns, one manifest line per manifest turn — and no
 * result of a manifest turn (checked where its opening occurs nowhere else in the source).
 */
export function retention(c: Case, h: Handoff, policy: RetentionPolicy): Problem[] {
  const t = handedOver(c);
  const plan = planTrails(t, policy);
  const atoms: Atom[] = [];
  const hidden: Atom[] = [];
  t.messages.forEach((m, i) => {
    if (m.text?.trim()) atoms.push({ text: m.text, index: i, what: 'text' });
  });
  for (const turn of transcriptView(t).turns) {
    const fate = plan.fates.get(turn.index);
    for (const x of turn.trail) {
      const index = x.messageIndex;
      if (fate === 'manifest') {
        if (x.result)
          hidden.push({ text: x.result.content.slice(0, 40), index, what: `result of ${x.call.id}` });
        continue;
      }
      atoms.push({ text: formatCall(x.call).slice(0, 80), index, what: `call ${x.call.id}` });
      const cap = fate === 'expanded' ? Infinity : policy.retainedResultCap;
      if (x.result)
        atoms.push({ text: x.result.content.slice(0, cap), index, what: `${fate} result of ${x.call.id}` });
    }
  }
  const out = [...missing(h, atoms, 'retention', 'history', t), ...shownAnyway(c, h, hidden, t)];
  const manifests = [...plan.fates.values()].filter((f) => f === 'manifest').length;
  const lines = history(h).match(/\[manifest: turn \d+/g)?.length ?? 0;
  if (lines !== manifests)
    out.push({
      invariant: 'retention',
      detail: `the plan puts ${manifests} turn(s) in the manifest; the history has ${lines} manifest line(s)`,
    });
  return out;
}

function missing(
  h: Handoff,
  atoms: readonly Atom[],
  invariant: 'superset' | 'retention',
  where: 'all' | 'history',
  t: Transcript,
): Problem[] {
  // Renderings keep the source's order: look for each atom after the last one found, and from the
  // start only when it is not there (one pass over the view instead of one per atom).
  const m = memo(h);
  const seen = where === 'all' ? (m.all ??= m.places.map((p) => p.text).join('\n')) : history(h);
  let cursor = 0;
  const out: Problem[] = [];
  for (const a of atoms) {
    const at = seen.indexOf(a.text, cursor);
    if (at >= 0) {
      cursor = at + a.text.length;
      continue;
    }
    if (shows(h, where, a.text)) continue;
    out.push({
      invariant,
      message: { in: 'source' as const, index: a.index, excerpt: excerpt(a.text) },
      detail: `the receiver does not see the source's ${a.what} (source message ${a.index} of ${t.messages.length})`,
    });
  }
  return out;
}

function shownAnyway(c: Case, h: Handoff, hidden: readonly Atom[], t: Transcript): Problem[] {
  const source = (c.sources ?? [c.source])
    .flatMap((s) => s.messages.flatMap((m) => [m.text ?? '', ...(m.toolResults ?? []).map((r) => r.content)]))
    .join('\n');
  const seen = history(h);
  const out: Problem[] = [];
  for (const x of hidden) {
    const first = source.indexOf(x.text);
    if (x.text.trim().length < 24 || source.indexOf(x.text, first + 1) >= 0 || !seen.includes(x.text))
      continue;
    out.push({
      invariant: 'retention',
      message: { in: 'source', index: x.index, excerpt: excerpt(x.text) },
      detail: `the ${x.what} belongs to a manifest turn under the plan, but the receiver sees it (source message ${x.index} of ${t.messages.length})`,
    });
  }
  return out;
}
