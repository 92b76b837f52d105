import type { Assertion } from '../types/case.ts';
import type { ClaimMatch, TextIndex } from './cues.ts';
import { hasQualifier, isCaveatLabel, normalise } from './qualifiers.ts';

/**
 * Reading a labelled claim in a text by what it says, not by the case's cue strings: the sim's
 * perception (harness/providers/sim/) uses this so that a claim worded any reasonable way is seen,
 * and a test that passes only for the case's own phrasing fails.
 *
 * - The claim is recognised by its content: the content words of its bare proposition (`claim`),
 *   lower-cased and crudely stemmed ("guarantees" = "guarantee", "owner" = "owns"), stopwords,
 *   modals and negations dropped; and its exact identifiers and numbers ("2023-10", "m_0007",
 *   "adapters/invoicing.ts", "14-day"). A window of one sentence — or, for a claim that itself runs
 *   over several sentences, up to one more than it has — inside one block (a list item or a
 *   paragraph) must hold at least 75% of the content words (all of them when there are four or
 *   fewer), that many of them in the claim's order — its clauses may come in any order ("Y because
 *   X" for "X, so Y"), the words of a clause may not (so "rounds half-up, like the invoice service"
 *   is not read as "the invoice service rounds half-up") — and at least 75% of the identifiers (all
 *   when there are one or two) — or the claim's whole leading clause, in order with its identifiers,
 *   and at least half of all its content words (a restatement that drops a trailing clause:
 *   "the api_version column is authoritative" of "… and not overridden per request"). A citation in brackets ("(adapters/payouts.ts:141)") is not part of
 *   the claim: a restatement without it is the same claim.
 * - Its qualifier is read with a general lexicon of hedges, assumptions and open questions
 *   (qualifiers.ts, written independently of any case's `qualifierCues`): in a sentence of the
 *   window; in the sentence just before it when that is a short lead-in (ending in a colon, or of at
 *   most four content words: "One thing I could not settle."); in the sentence just after it when
 *   that one refers back ("This is not verified.", "Nobody has confirmed it."); or in the heading a
 *   list item sits under ("Open questions:").
 *
 * What it cannot read, by construction: a claim referred to only by a pronoun or a description
 * ("that adapter issue" for the sandbox adapter's pin), a claim paraphrased with synonyms for most of
 * its content words ("the test mirror" for "the sandbox"), a number written out in words, a qualifier
 * two or more sentences away, a claim whose content words are mostly reordered (a passive rewrite:
 * "2023-10 is pinned by the sandbox adapter"), and polarity — "X is not the case" reads as the claim X (negations are
 * dropped with the stopwords). Same result shape as the cue matcher's `ClaimMatch`.
 */
export function readClaim(index: TextIndex, a: Pick<Assertion, 'claim'>, o: ReadOptions = {}): ClaimMatch {
  const r = readIndexOf(index);
  const key = `${o.paragraph ? 'p' : 's'}\u0000${a.claim}`;
  let m = r.memo.get(key);
  if (m === undefined) {
    m = read(r, shapeOf(a.claim), o);
    if (r.memo.size > 4096) r.memo.clear();
    r.memo.set(key, m);
  }
  return m.present ? { ...m, lines: [...m.lines] } : m;
}

export interface ReadOptions {
  /**
   * A wider reading of the qualifier: anywhere in the paragraph (lines between blank lines) that
   * holds the claim. The sim's survival classifier reads this way (classify.ts).
   */
  paragraph?: boolean;
}

const NONE: ClaimMatch = { present: false, qualified: false, labelled: false, line: '', lines: [] };

interface Sentence {
  line: number;
  block: number;
  text: string;
  stems: Set<string>;
  /** The same stems in the order they occur. */
  seq: string[];
  /** Whether it carries a qualifier construction; read when first asked (most sentences never are). */
  q?: boolean;
}

interface ReadIndex {
  lines: string[];
  sentences: Sentence[];
  postings: Map<string, number[]>;
  /** Per line: whether the heading its list sits under carries a qualifier. */
  headed: boolean[];
  /** Per line: the paragraph (lines between blank lines) it belongs to. */
  paragraph: number[];
  paragraphQualified: Map<number, boolean>;
  memo: Map<string, ClaimMatch>;
}

const readIndexes = new WeakMap<TextIndex, ReadIndex>();

function readIndexOf(index: TextIndex): ReadIndex {
  let r = readIndexes.get(index);
  if (!r) readIndexes.set(index, (r = build(index.getLines())));
  return r;
}

const LIST_ITEM = /^\s*(?:[-*•]|\d+[.)])\s/;

function build(rawLines: string[]): ReadIndex {
  const lines = rawLines.map(normalise);
  const sentences: Sentence[] = [];
  const postings = new Map<string, number[]>();
  const headed: boolean[] = [];
  const paragraph: number[] = [];
  let block = 0;
  let para = 0;
  let heading = false;
  let prevBlank = true;
  let inItem = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const blank = line.trim() === '';
    const item = LIST_ITEM.test(line);
    if (blank) {
      if (!prevBlank) para++;
    } else if (!(inItem && /^\s/.test(line))) block++;
    if (!blank) inItem = item || (inItem && /^\s/.test(line));
    if (!blank && !item)
      heading = line.trimEnd().endsWith(':') && (hasQualifier(line) || isCaveatLabel(line));
    headed.push(item && heading);
    paragraph.push(para);
    prevBlank = blank;
    if (blank) continue;
    for (const text of line.split(/(?<=[.?!;])\s+(?=\S)/)) {
      const seq = stemSeq(text);
      const stems = new Set(seq);
      const id = sentences.length;
      sentences.push({ line: i, block, text, stems, seq });
      for (const s of stems) {
        let list = postings.get(s);
        if (!list) postings.set(s, (list = []));
        list.push(id);
      }
    }
  }
  return { lines, sentences, postings, headed, paragraph, paragraphQualified: new Map(), memo: new Map() };
}

interface Shape {
  stems: string[];
  /** Rankings of the stems that count as "in the claim's order": its clauses in any order, words in order within each. */
  orders: Map<string, number>[];
  /**
   * The claim's leading clause, when it has more than one and the first holds two content words or
   * more ("the api_version column is authoritative" of "… and not overridden per request").
   */
  lead?: { stems: string[]; ids: string[]; order: Map<string, number> };
  ids: string[];
  /** Sentences the claim itself runs over. */
  segments: number;
}

const shapes = new Map<string, Shape>();

function shapeOf(claim: string): Shape {
  let s = shapes.get(claim);
  if (!s) {
    // A citation in brackets ("(adapters/invoicing.ts:143)", "(merchant_config.api_version)") says where
    // the claim came from, not what it says: a restatement without it is the same claim.
    const text = normalise(claim).replace(CITATION, ' ');
    const ids = [...new Set(text.match(IDENTIFIER) ?? [])].filter((t) => /[\d_]|[a-z][./][a-z]/.test(t));
    // Words are read outside the identifiers: an identifier's parts are not content words of their own.
    const words = ids.reduce((t, id) => t.split(id).join(' '), text);
    const clauses = words
      .split(CLAUSE)
      .map((c) => [...new Set(stemSeq(c))])
      .filter((c) => c.length > 0);
    const leadText = text.split(LEAD_END)[0]!;
    const leadIds = ids.filter((id) => leadText.includes(id));
    const leadStems = [...new Set(stemSeq(leadIds.reduce((t, id) => t.split(id).join(' '), leadText)))];
    s = {
      stems: [...new Set(stemSeq(words))],
      orders: clauseOrders(clauses),
      ...(leadText.trim() !== text.trim() && leadStems.length >= 2
        ? { lead: { stems: leadStems, ids: leadIds, order: new Map(leadStems.map((x, i) => [x, i])) } }
        : {}),
      ids,
      segments: text.split(/(?<=[.?!;])\s+(?=\S)/).length,
    };
    if (shapes.size > 4096) shapes.clear();
    shapes.set(claim, s);
  }
  return s;
}

/** Where a claim's clauses meet: they may come in another order ("X, so Y" said as "Y because X"). */
const CLAUSE = /[,;:()]|\b(?:so|because|since|and|but|which|when|while|if|as)\b/;
/** The end of a claim's leading clause, in its text with identifiers in it (so not the "." of "go.mod"). */
const LEAD_END = /[,;:](?=\s|$)|[()]|\b(?:so|because|since|and|but|which|when|while|if|as)\b/;

/** Every order of the clauses (the first four; the rest keep their place), words in order within each. */
function clauseOrders(clauses: string[][]): Map<string, number>[] {
  const head = clauses.slice(0, 4);
  const tail = clauses.slice(4);
  const out: Map<string, number>[] = [];
  for (const p of permutations(head.map((_, i) => i))) {
    const rank = new Map<string, number>();
    for (const c of [...p.map((i) => head[i]!), ...tail])
      for (const w of c) if (!rank.has(w)) rank.set(w, rank.size);
    out.push(rank);
  }
  return out;
}

function permutations(xs: number[]): number[][] {
  if (xs.length <= 1) return [xs];
  return xs.flatMap((x, i) => permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((p) => [x, ...p]));
}

const CITATION =
  /\((?:see |per |from |source: )?[\w@/.-]+\.[\w-]+(?::\d+(?:-\d+)?)?(?:[,;] ?[\w@/.-]+\.[\w-]+(?::\d+(?:-\d+)?)?)*\)/g;

/** A token that may be an identifier: letters, digits and `_ . / @ : -` inside, alphanumeric at both ends. */
const IDENTIFIER = /[a-z0-9_@][a-z0-9_./@:-]*[a-z0-9_]|[a-z0-9]/g;

function read(r: ReadIndex, shape: Shape, o: ReadOptions): ClaimMatch {
  if (shape.stems.length === 0 && shape.ids.length === 0) return NONE;
  const hits = new Map<number, Set<string>>();
  for (const stem of shape.stems)
    for (const id of r.postings.get(stem) ?? []) {
      let h = hits.get(id);
      if (!h) hits.set(id, (h = new Set()));
      h.add(stem);
    }
  if (shape.stems.length === 0) for (let i = 0; i < r.sentences.length; i++) hits.set(i, new Set());
  const maxWindow = Math.min(4, shape.segments + 1);
  const found: { first: number; last: number }[] = [];
  let covered = -1;
  for (const start of [...hits.keys()].sort((x, y) => x - y)) {
    if (start <= covered) continue;
    for (let last = start; last < start + maxWindow; last++) {
      const s = r.sentences[last];
      if (!s || s.block !== r.sentences[start]!.block) break;
      if (!holds(r, shape, hits, start, last)) continue;
      // The claim's own sentences: drop leading ones it does not need (a "[tool result]" line above it).
      let first = start;
      while (first < last && holds(r, shape, hits, first + 1, last)) first++;
      found.push({ first, last });
      covered = last;
      break;
    }
  }
  if (found.length === 0) return NONE;
  const qualified = found.filter((w) => qualifiedWindow(r, w.first, w.last, o));
  const use = qualified.length ? qualified : found;
  const lines = [...new Set(use.map((w) => r.sentences[w.first]!.line))];
  const line = r.lines[lines[0]!]!;
  return {
    present: true,
    qualified: qualified.length > 0,
    labelled: qualified.length > 0 && isCaveatLabel(line),
    line,
    lines,
  };
}

/**
 * Whether sentences first..last hold the claim: enough of its words, in its order, and its identifiers;
 * or its whole leading clause (words in order, identifiers) with at least half of all its words — a
 * restatement that keeps the main proposition and drops a qualifying clause ("4 more merchants are
 * affected indirectly through the fallback in adapters/payouts.ts", without the mechanism).
 */
function holds(
  r: ReadIndex,
  shape: Shape,
  hits: Map<number, Set<string>>,
  first: number,
  last: number,
): boolean {
  const union = new Set<string>();
  for (let i = first; i <= last; i++) for (const x of hits.get(i) ?? []) union.add(x);
  const lead = shape.lead;
  const full = union.size >= need(shape.stems.length);
  const partial =
    lead !== undefined && 2 * union.size >= shape.stems.length && lead.stems.every((x) => union.has(x));
  if (!full && !partial) return false;
  const seq: string[] = [];
  let text = '';
  for (let i = first; i <= last; i++) {
    for (const x of r.sentences[i]!.seq) if (union.has(x)) seq.push(x);
    text += ` ${r.sentences[i]!.text}`;
  }
  const n = shape.ids.length;
  if (
    full &&
    inOrder(seq, shape.orders) >= need(shape.stems.length) &&
    idsIn(text, shape.ids) >= (n <= 2 ? n : Math.ceil(0.75 * n))
  )
    return true;
  return (
    partial && inOrder(seq, [lead.order]) >= lead.stems.length && idsIn(text, lead.ids) === lead.ids.length
  );
}

const need = (n: number) => (n <= 4 ? n : Math.ceil(0.75 * n));

/** How many of the claim's words the window has in an order the claim allows (its best clause order). */
function inOrder(seq: readonly string[], orders: readonly Map<string, number>[]): number {
  let best = 0;
  for (const rank of orders) best = Math.max(best, longestRising(seq.map((x) => rank.get(x) ?? -1)));
  return best;
}

/** The longest strictly rising run (not necessarily contiguous) of claim-word ranks: words in the claim's order. */
function longestRising(xs: readonly number[]): number {
  const tails: number[] = [];
  for (const x of xs) {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (tails[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    tails[lo] = x;
  }
  return tails.length;
}

function idsIn(text: string, ids: readonly string[]): number {
  let n = 0;
  for (const id of ids) {
    for (let at = text.indexOf(id); at >= 0; at = text.indexOf(id, at + 1)) {
      const before = text[at - 1] ?? ' ';
      const after = text[at + id.length] ?? ' ';
      if (!/[a-z0-9_]/.test(before) && !/[a-z0-9_]/.test(after)) {
        n++;
        break;
      }
    }
  }
  return n;
}

/** Words in a following sentence that refer back to the one before ("This is not verified."). */
const REFERS_BACK =
  /^(?:this|that|it|these|those|which|neither|none of|but|though|although|however|so far|still|yet|nobody|no one|not|nothing)\b/;

function qualifiedWindow(r: ReadIndex, first: number, last: number, o: ReadOptions): boolean {
  const s = r.sentences;
  for (let i = first; i <= last; i++) if (qualifiedAt(r, i)) return true;
  const prev = s[first - 1];
  if (
    prev &&
    adjacent(r, first - 1, first) &&
    (prev.text.trimEnd().endsWith(':') || prev.stems.size <= 4) &&
    qualifiedAt(r, first - 1)
  )
    return true;
  const next = s[last + 1];
  if (
    next &&
    adjacent(r, last, last + 1) &&
    REFERS_BACK.test(next.text.trimStart()) &&
    qualifiedAt(r, last + 1)
  )
    return true;
  if (r.headed[s[first]!.line]) return true;
  return o.paragraph === true && paragraphQualified(r, r.paragraph[s[first]!.line]!);
}

function qualifiedAt(r: ReadIndex, i: number): boolean {
  const x = r.sentences[i]!;
  x.q ??= hasQualifier(x.text);
  return x.q;
}

/** Two sentences read together: in one block, or on neighbouring prose lines of one paragraph (not list items). */
function adjacent(r: ReadIndex, i: number, j: number): boolean {
  const a = r.sentences[i]!;
  const b = r.sentences[j]!;
  if (a.block === b.block) return true;
  return (
    b.line === a.line + 1 &&
    r.paragraph[a.line] === r.paragraph[b.line] &&
    !LIST_ITEM.test(r.lines[a.line]!) &&
    !LIST_ITEM.test(r.lines[b.line]!)
  );
}

function paragraphQualified(r: ReadIndex, para: number): boolean {
  let q = r.paragraphQualified.get(para);
  if (q === undefined) {
    q = r.sentences.some((x, i) => r.paragraph[x.line] === para && qualifiedAt(r, i));
    r.paragraphQualified.set(para, q);
  }
  return q;
}

const stopwords = new Set(
  (
    'the and for are but not nor was were been being has have had having does did doing done its it this that these those ' +
    'there their them they then than with from into onto over under about above below after before again also just only ' +
    'very too such same other some any all every each both either neither none nothing never not no yes can could should ' +
    'would may might must will shall what which who whom whose when where why how whether while because though although ' +
    'here our ours your yours you his her him she he we us i me my mine own more most much many few less least via per ' +
    'one is be am an as at by if in of on or so to up out off do a'
  ).split(' '),
);

/**
 * Content words, stemmed: split at anything but a letter or digit (so identifiers give their parts
 * too), stopwords and pure numbers dropped (numbers are matched exactly as identifiers), words
 * shorter than three letters dropped, then a crude suffix strip ("notified" = "notify",
 * "retires" = "retire").
 */
function stemSeq(text: string): string[] {
  const out: string[] = [];
  for (const w of text.split(/[^a-z0-9]+/)) {
    if (w.length < 3 || /^\d+$/.test(w) || stopwords.has(w)) continue;
    let st = stemCache.get(w);
    if (st === undefined) {
      if (stemCache.size > 50_000) stemCache.clear();
      stemCache.set(w, (st = stem(w)));
    }
    out.push(st);
  }
  return out;
}

const stemCache = new Map<string, string>();

export function stem(w: string): string {
  let s = w;
  let stripped = false;
  for (const suffix of ['ingly', 'edly', 'ings', 'ing', 'ies', 'ied', 'ers', 'ed', 'es', 'er', 'ly', 's']) {
    if (s.endsWith(suffix) && s.length - suffix.length >= 2 && !(suffix === 's' && s.endsWith('ss'))) {
      s = suffix === 'ies' || suffix === 'ied' ? `${s.slice(0, -3)}i` : s.slice(0, -suffix.length);
      stripped = true;
      break;
    }
  }
  if (s.endsWith('y') && s.length > 2) s = `${s.slice(0, -1)}i`;
  // "guarantee" and "guarantees" both give "guarante": a final e goes only when no ending was taken off.
  if (!stripped && s.endsWith('e') && s.length > 2) s = s.slice(0, -1);
  return s;
}
