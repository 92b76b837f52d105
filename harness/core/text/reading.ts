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

/**
 * How much of a claim's content a text touches: the share of its content words that occur in the
 * text, and whether every one of its identifiers does (true when it has none). For "did this agent
 * look at what the claim is about", not for whether the claim was made (that is `readClaim`).
 */
export function claimContentIn(text: string, a: Pick<Assertion, 'claim'>): { words: number; ids: boolean } {
  const shape = shapeOf(a.claim);
  const lower = normalise(text);
  const present = new Set(stemSeq(lower));
  const words = shape.stems.length
    ? shape.stems.filter((w) => present.has(w)).length / shape.stems.length
    : 0;
  return { words, ids: idsIn(` ${lower} `, shape.ids) === shape.ids.length };
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
  text: string;
  stems: Set<string>;
  /** The same stems in the order they occur. */
  seq: string[];
  /** Whether it carries a qualifier construction; read when first asked (most sentences never are). */
  q?: boolean;
}

/**
 * What the reader knows of a text: its blocks (a list item with its indented continuation lines, or
 * one line), paragraphs and list headings, from one cheap pass over the lines; a block's sentences
 * are split and stemmed only when a claim's words occur in it (found with indexOf over the whole
 * text, as the cue matcher finds its first cue), so a long transcript costs little.
 */
interface ReadIndex {
  index: TextIndex;
  lines: string[];
  /** Per line: its block (−1 for a blank line). */
  block: Int32Array;
  blockStart: number[];
  blockEnd: number[];
  /** Per line: whether the heading its list sits under carries a qualifier. */
  headed: Uint8Array;
  /** Per line: the paragraph (lines between blank lines) it belongs to. */
  paragraph: Int32Array;
  sentences: Map<number, Sentence[]>;
  /** Probe text → the blocks it occurs in. */
  probes: Map<string, Set<number>>;
  paragraphQualified: Map<number, boolean>;
  memo: Map<string, ClaimMatch>;
}

const readIndexes = new WeakMap<TextIndex, ReadIndex>();

function readIndexOf(index: TextIndex): ReadIndex {
  let r = readIndexes.get(index);
  if (!r) readIndexes.set(index, (r = build(index)));
  return r;
}

const LIST_ITEM = /^\s*(?:[-*•]|\d+[.)])\s/;

function build(index: TextIndex): ReadIndex {
  const lines = index.getLines();
  const n = lines.length;
  const r: ReadIndex = {
    index,
    lines,
    block: new Int32Array(n),
    blockStart: [],
    blockEnd: [],
    headed: new Uint8Array(n),
    paragraph: new Int32Array(n),
    sentences: new Map(),
    probes: new Map(),
    paragraphQualified: new Map(),
    memo: new Map(),
  };
  let para = 0;
  let heading = false;
  let prevBlank = true;
  let inItem = false;
  for (let i = 0; i < n; i++) {
    const line = lines[i]!;
    const blank = !/\S/.test(line);
    r.paragraph[i] = blank && !prevBlank ? ++para : para;
    prevBlank = blank;
    if (blank) {
      r.block[i] = -1;
      continue;
    }
    const indented = /^\s/.test(line);
    const item = LIST_ITEM.test(line);
    if (inItem && indented && !item) r.blockEnd[r.blockEnd.length - 1] = i;
    else {
      r.blockStart.push(i);
      r.blockEnd.push(i);
    }
    r.block[i] = r.blockStart.length - 1;
    inItem = item || (inItem && indented);
    if (!item && !(inItem && indented)) {
      const head = normalise(line);
      heading = head.trimEnd().endsWith(':') && (hasQualifier(head) || isCaveatLabel(head));
    }
    r.headed[i] = item && heading ? 1 : 0;
  }
  return r;
}

/** A block's sentences, split and stemmed on first use. */
function sentencesOf(r: ReadIndex, block: number): Sentence[] {
  let out = r.sentences.get(block);
  if (!out) {
    out = [];
    for (let i = r.blockStart[block]!; i <= r.blockEnd[block]!; i++)
      for (const text of normalise(r.lines[i]!).split(/(?<=[.?!;])\s+(?=\S)/)) {
        const seq = stemSeq(text);
        out.push({ line: i, text, stems: new Set(seq), seq });
      }
    r.sentences.set(block, out);
  }
  return out;
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
  const maxWindow = Math.min(4, shape.segments + 1);
  const found: Window[] = [];
  for (const block of candidateBlocks(r, shape)) {
    const sents = sentencesOf(r, block);
    const hits = sents.map((x) => new Set(shape.stems.filter((w) => x.stems.has(w))));
    let covered = -1;
    for (let start = 0; start < sents.length; start++) {
      if (start <= covered || (hits[start]!.size === 0 && shape.stems.length > 0)) continue;
      for (let last = start; last < Math.min(sents.length, start + maxWindow); last++) {
        if (!holds(sents, shape, hits, start, last)) continue;
        // The claim's own sentences: drop leading ones it does not need (a "[tool result]" line above it).
        let first = start;
        while (first < last && holds(sents, shape, hits, first + 1, last)) first++;
        found.push({ block, first, last });
        covered = last;
        break;
      }
    }
  }
  if (found.length === 0) return NONE;
  const qualified = found.filter((w) => qualifiedWindow(r, w, o));
  const use = qualified.length ? qualified : found;
  const lines = [...new Set(use.map((w) => sentencesOf(r, w.block)[w.first]!.line))];
  const line = normalise(r.lines[lines[0]!]!);
  return {
    present: true,
    qualified: qualified.length > 0,
    labelled: qualified.length > 0 && isCaveatLabel(line),
    line: r.lines[lines[0]!]!,
    lines,
  };
}

interface Window {
  block: number;
  first: number;
  last: number;
}

/**
 * The blocks that can hold the claim, in text order: those where enough of its content words occur
 * (as substrings — a stem is a prefix of its word, so this over-counts, never under-counts) for the
 * full reading or the leading-clause one; by identifiers when it has no content words. A block with
 * enough of n words has one of any n − needed + 1 of them: only the longest that many (and the
 * longest word of the leading clause) are looked for in the whole text, once per text and word; the
 * others only in the blocks found.
 */
function candidateBlocks(r: ReadIndex, shape: Shape): number[] {
  const n = shape.stems.length;
  const seeds = new Set<number>();
  if (n === 0) {
    for (const id of shape.ids) for (const b of blocksWith(r, id)) seeds.add(b);
    return [...seeds].sort((a, b) => a - b);
  }
  const probes = shape.stems.map(probeOf).sort((a, b) => b.length - a.length);
  const long = probes.filter((p) => p.length >= 3);
  const short = n - long.length;
  const spare = n - need(n) + 1;
  const lead = (shape.lead?.stems ?? []).map(probeOf).filter((p) => p.length >= 3);
  if (spare > long.length || (shape.lead && lead.length === 0)) return r.blockStart.map((_, b) => b);
  for (const p of long.slice(0, spare)) for (const b of blocksWith(r, p)) seeds.add(b);
  if (shape.lead) for (const b of blocksWith(r, lead.sort((a, b) => b.length - a.length)[0]!)) seeds.add(b);
  const out: number[] = [];
  for (const b of seeds) {
    const has = (p: string) => {
      for (let l = r.blockStart[b]!; l <= r.blockEnd[b]!; l++)
        if (r.index.getLines()[l]!.includes(p)) return true;
      return false;
    };
    const c = short + long.filter(has).length;
    if (c >= need(n) || (shape.lead && 2 * c >= n && lead.every(has))) out.push(b);
  }
  return out.sort((a, b) => a - b);
}

/** The text a stem is looked for by: its word's prefix ("notifi" of "notify" is looked for as "notif"). */
const probeOf = (stem: string) => (stem.endsWith('i') ? stem.slice(0, -1) : stem);

function blocksWith(r: ReadIndex, probe: string): Set<number> {
  let blocks = r.probes.get(probe);
  if (!blocks) {
    blocks = new Set();
    const text = r.index.lower;
    const starts = r.index.lineStarts();
    for (let pos = text.indexOf(probe); pos >= 0;) {
      const line = r.index.lineOf(pos);
      if (r.block[line]! >= 0) blocks.add(r.block[line]!);
      const next = line + 1 < starts.length ? starts[line + 1]! : text.length;
      pos = next >= text.length ? -1 : text.indexOf(probe, next);
    }
    if (r.probes.size > 4096) r.probes.clear();
    r.probes.set(probe, blocks);
  }
  return blocks;
}

/**
 * Whether sentences first..last hold the claim: enough of its words, in its order, and its identifiers;
 * or its whole leading clause (words in order, identifiers) with at least half of all its words — a
 * restatement that keeps the main proposition and drops a qualifying clause ("4 more merchants are
 * affected indirectly through the fallback in adapters/payouts.ts", without the mechanism).
 */
function holds(sents: Sentence[], shape: Shape, hits: Set<string>[], first: number, last: number): boolean {
  const union = new Set<string>();
  for (let i = first; i <= last; i++) for (const x of hits[i]!) union.add(x);
  const lead = shape.lead;
  const full = union.size >= need(shape.stems.length);
  const partial =
    lead !== undefined && 2 * union.size >= shape.stems.length && lead.stems.every((x) => union.has(x));
  if (!full && !partial) return false;
  const seq: string[] = [];
  let text = '';
  for (let i = first; i <= last; i++) {
    for (const x of sents[i]!.seq) if (union.has(x)) seq.push(x);
    text += ` ${sents[i]!.text}`;
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

function qualifiedWindow(r: ReadIndex, w: Window, o: ReadOptions): boolean {
  const sents = sentencesOf(r, w.block);
  for (let i = w.first; i <= w.last; i++) if (qualifiedAt(sents[i]!)) return true;
  const prev = w.first > 0 ? sents[w.first - 1] : proseNeighbour(r, sents[w.first]!.line, -1);
  if (prev && (prev.text.trimEnd().endsWith(':') || prev.stems.size <= 4) && qualifiedAt(prev)) return true;
  const next = w.last + 1 < sents.length ? sents[w.last + 1] : proseNeighbour(r, sents[w.last]!.line, 1);
  if (next && REFERS_BACK.test(next.text.trimStart()) && qualifiedAt(next)) return true;
  const line = sents[w.first]!.line;
  if (r.headed[line]) return true;
  return o.paragraph === true && paragraphQualified(r, r.paragraph[line]!);
}

function qualifiedAt(x: Sentence): boolean {
  x.q ??= hasQualifier(x.text);
  return x.q;
}

/**
 * The sentence read together with a block's first (dir −1) or last (dir +1) sentence across a line
 * break: the neighbouring line's, when both lines are prose of one paragraph (not list items).
 */
function proseNeighbour(r: ReadIndex, line: number, dir: -1 | 1): Sentence | undefined {
  const other = line + dir;
  if (other < 0 || other >= r.lines.length || r.block[other]! < 0) return undefined;
  if (r.paragraph[other] !== r.paragraph[line]) return undefined;
  if (LIST_ITEM.test(r.lines[other]!) || LIST_ITEM.test(r.lines[line]!)) return undefined;
  const sents = sentencesOf(r, r.block[other]!);
  return dir < 0 ? sents[sents.length - 1] : sents[0];
}

function paragraphQualified(r: ReadIndex, para: number): boolean {
  let q = r.paragraphQualified.get(para);
  if (q === undefined) {
    q = false;
    for (let b = 0; b < r.blockStart.length && !q; b++)
      if (r.paragraph[r.blockStart[b]!] === para) q = sentencesOf(r, b).some(qualifiedAt);
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
