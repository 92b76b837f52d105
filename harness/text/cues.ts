import type { Assertion } from '../types.ts';

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
}

const NONE: ClaimMatch = { present: false, qualified: false, labelled: false, line: '' };

/** Lower-cased lines of a text, computed once per text (texts recur across assertions). */
export class TextIndex {
  readonly lower: string;
  private lines?: string[];
  constructor(readonly text: string) {
    this.lower = text.toLowerCase();
  }
  getLines(): string[] {
    this.lines ??= this.lower.split('\n');
    return this.lines;
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

export function allOnLine(line: string, cues: readonly string[]): boolean {
  return cues.every((c) => line.includes(c.toLowerCase()));
}

export function matchClaim(index: TextIndex, a: Pick<Assertion, 'cues' | 'qualifierCues'>): ClaimMatch {
  const cues = a.cues;
  if (cues.length === 0 || !cues.every((c) => index.lower.includes(c.toLowerCase()))) return NONE;
  const lines = index.getLines();
  const qualifiers = (a.qualifierCues ?? []).map((q) => q.toLowerCase());
  let first: ClaimMatch | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!allOnLine(line, cues)) continue;
    const prev = i > 0 ? lines[i - 1]! : '';
    const qualified = qualifiers.some((q) => line.includes(q) || prev.includes(q));
    const match = { present: true, qualified, labelled: qualified && isLabelled(line), line };
    if (qualified) return match;
    first ??= match;
  }
  return first ?? NONE;
}

/**
 * Words that, heading a line before a colon, mark it as an explicit caveat ("- ASSUMPTION: …",
 * "Unresolved (would settle it: …): …"). A caveat stated as a label is more salient than a hedge in
 * the middle of running prose; the sim keeps labelled qualifiers more reliably (documented in its rates).
 */
export const caveatLabels = ['assumption', 'assumed', 'unresolved', 'unverified', 'not verified', 'open question', 'caveat', 'uncertain', 'could not determine', 'inferred', 'reported'];

function isLabelled(line: string): boolean {
  const head = line.replace(/^[\s\-*•\d.)\[]+/, '');
  const colon = head.indexOf(':');
  if (colon < 0 || colon > 48) return false;
  const label = head.slice(0, colon);
  return caveatLabels.some((l) => label.includes(l));
}

/** Any cue group fully present on one line. */
export function lineWithAll(index: TextIndex, cues: readonly string[]): string | undefined {
  if (cues.length === 0 || !cues.every((c) => index.lower.includes(c.toLowerCase()))) return undefined;
  return index.getLines().find((l) => allOnLine(l, cues));
}
