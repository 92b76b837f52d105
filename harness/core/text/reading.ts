import type { Assertion } from '../types/case.ts';
import type { ClaimMatch, TextIndex } from './cues.ts';
import { hasQualifier, isCaveatLabel, normalise } from './qualifiers.ts';
import { idsIn, inOrder, need, shapeOf, stemSeq, type Shape } from './claim-shape.ts';

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
