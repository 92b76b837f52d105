import { normalise } from './qualifiers.ts';

/**
 * What a labelled claim is made of, for the reader (reading.ts): its content words (stemmed), its
 * identifiers, the orders its clauses may come in and its leading clause — and the counting rules a
 * window of text is held to. Split from the reader so that each file reads in one go.
 */
export interface Shape {
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

export function shapeOf(claim: string): Shape {
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

export const need = (n: number) => (n <= 4 ? n : Math.ceil(0.75 * n));

/** How many of the claim's words the window has in an order the claim allows (its best clause order). */
export function inOrder(seq: readonly string[], orders: readonly Map<string, number>[]): number {
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

export function idsIn(text: string, ids: readonly string[]): number {
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
export function stemSeq(text: string): string[] {
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
