import type { Assertion } from '../types/case.ts';

/**
 * Recognising a labelled claim in a text, the way a careful reader would: the claim's cues must all
 * occur on one line; its qualifier (for hedges, assumptions, open questions) must occur on that line
 * or the line before. Case-insensitive. Both the survival judge and the sim provider use this, so the
 * sim "sees" exactly what the deterministic matcher would.
 */
export interface ClaimMatch {
  present: boolean;
  /** A qualifier cue accompanies at least one occurrence of the claim. */
  qualified: boolean;
  /** That qualifier heads its line as a label ("- ASSUMPTION: …", "Unresolved: …"), not mid-prose. */
  labelled: boolean;
  /** The line where the claim was found (first qualified occurrence, else first occurrence). */
  line: string;
  /**
   * Every line holding the claim as matched — its qualified occurrences when it is qualified, else
   * all of them — as indices of `TextIndex.getLines()` (the sim reads their positions).
   */
  lines: number[];
}

const NONE: ClaimMatch = { present: false, qualified: false, labelled: false, line: '', lines: [] };

/** Lower-cased lines of a text, computed once per text (texts recur across assertions). */
export class TextIndex {
  readonly lower: string;
  private lines?: string[];
  private starts?: Int32Array;
  constructor(readonly text: string) {
    this.lower = text.toLowerCase();
  }
  getLines(): string[] {
    this.lines ??= this.lower.split('\n');
    return this.lines;
  }
  /** Where each line starts in `lower` (lines as getLines() splits them). */
  lineStarts(): Int32Array {
    if (!this.starts) {
      const lines = this.getLines();
      this.starts = new Int32Array(lines.length);
      for (let i = 1; i < lines.length; i++) this.starts[i] = this.starts[i - 1]! + lines[i - 1]!.length + 1;
    }
    return this.starts;
  }
  /** The line holding position `pos` of `lower`. */
  lineOf(pos: number): number {
    const starts = this.lineStarts();
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
  has(phrase: string): boolean {
    return this.lower.includes(phrase.toLowerCase());
  }
}

/**
 * The index of a text, shared while the text is among the last few indexed: a cell's answer is read by
 * survival and by the checks, and the same payload comes back for every rep of an arm.
 */
export function indexText(text: string): TextIndex {
  let index = recentIndexes.get(text);
  if (index === undefined) {
    index = new TextIndex(text);
    if (recentIndexes.size >= RECENT_INDEXES) recentIndexes.delete(recentIndexes.keys().next().value!);
    recentIndexes.set(text, index);
  }
  return index;
}

const RECENT_INDEXES = 16;
const recentIndexes = new Map<string, TextIndex>();

/** Every cue (case-insensitively) on this already lower-cased line. */
export function allOnLine(line: string, cues: readonly string[]): boolean {
  return lowered(cues).every((c) => line.includes(c));
}

/** Cues lower-cased once per cue list (assertions are matched against many texts). */
const loweredCues = new WeakMap<readonly string[], string[]>();
function lowered(cues: readonly string[]): string[] {
  let lc = loweredCues.get(cues);
  if (!lc) loweredCues.set(cues, (lc = cues.map((c) => c.toLowerCase())));
  return lc;
}

/**
 * The lines (in order) holding every cue: only lines where the first cue occurs are read, found with
 * indexOf over the whole text rather than by testing every line of a long transcript (one pass over
 * the text, not one per cue).
 */
function* linesWithAll(index: TextIndex, cues: readonly string[]): Generator<number> {
  if (cues.length === 0) return;
  const lines = index.getLines();
  const starts = index.lineStarts();
  const text = index.lower;
  for (let pos = text.indexOf(cues[0]!); pos >= 0;) {
    const li = index.lineOf(pos);
    const line = lines[li]!;
    if (cues.every((c) => line.includes(c))) yield li;
    const next = li + 1 < starts.length ? starts[li + 1]! : text.length + 1;
    if (next > text.length) return;
    pos = text.indexOf(cues[0]!, next);
  }
}

export function matchClaim(index: TextIndex, a: Pick<Assertion, 'cues' | 'qualifierCues'>): ClaimMatch {
  const lines = index.getLines();
  const qualifiers = lowered(a.qualifierCues ?? []);
  let first: ClaimMatch | undefined;
  let best: ClaimMatch | undefined;
  const all: number[] = [];
  for (const i of linesWithAll(index, lowered(a.cues))) {
    all.push(i);
    const line = lines[i]!;
    const prev = i > 0 ? lines[i - 1]! : '';
    const qualified = qualifiers.some((q) => line.includes(q) || prev.includes(q));
    if (qualified) {
      if (best) best.lines.push(i);
      else best = { present: true, qualified, labelled: isLabelled(line), line, lines: [i] };
    }
    first ??= { present: true, qualified: false, labelled: false, line, lines: all };
  }
  return best ?? first ?? NONE;
}

/**
 * Words that, heading a line before a colon, mark it as an explicit caveat ("- ASSUMPTION: …",
 * "Unresolved (would settle it: …): …"). A caveat stated as a label is more salient than a hedge in
 * the middle of running prose; the sim keeps labelled qualifiers more reliably (documented in its rates).
 */
export const caveatLabels = [
  'assumption',
  'assumed',
  'unresolved',
  'unverified',
  'not verified',
  'open question',
  'caveat',
  'uncertain',
  'could not determine',
  'inferred',
  'reported',
];

function isLabelled(line: string): boolean {
  const head = line.replace(/^[\s\-*•\d.)\[]+/, '');
  const colon = head.indexOf(':');
  if (colon < 0 || colon > 48) return false;
  const label = head.slice(0, colon);
  return caveatLabels.some((l) => label.includes(l));
}

/** Any cue group fully present on one line. */
export function lineWithAll(index: TextIndex, cues: readonly string[]): string | undefined {
  for (const i of linesWithAll(index, lowered(cues))) return index.getLines()[i];
  return undefined;
}

/** Every line (as an index of getLines()) holding all of the cues. */
export function lineIndicesWithAll(index: TextIndex, cues: readonly string[]): number[] {
  return [...linesWithAll(index, lowered(cues))];
}
