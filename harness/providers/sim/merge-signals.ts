import type { Assertion, Reference } from '../../core/index.ts';
import type { TextIndex } from '../../core/text/cues.ts';
import { readClaim } from '../../core/text/reading.ts';
import type { SimRates } from './rates.ts';
import { notSearchedCues } from '../../core/text/signals.ts';

/**
 * Multi-child answers (ledgerline's last section): whether the receiver surfaces a contradiction
 * between two children, and names what none of them searched. Both depend only on the context:
 * - a contradiction can be surfaced only when both claims are visible; it is surfaced with
 *   `surfaceContradictionNear` when the two claims sit within `contradictionNearChars` of each other
 *   (side by side in a merged record) and `surfaceContradictionFar` when they are further apart (in
 *   different transcripts of a long concatenation);
 * - an unsearched place can be named only when the context says it was not searched (an item on a
 *   line with a not-searched cue, as a contract's coverage.not_searched renders it) — an absence is
 *   invisible in transcripts.
 */
export const contradictionNearChars = 6000;

type Draw = (...key: string[]) => number;

export function contradictionLines(
  ref: Reference,
  assertions: readonly Assertion[],
  all: TextIndex,
  rates: SimRates,
  d: Draw,
): string[] {
  const byId = new Map(assertions.map((a) => [a.id, a]));
  const out: string[] = [];
  for (const [i, x] of (ref.contradictions ?? []).entries()) {
    const [a, b] = x.between.map((id) => byId.get(id));
    if (!a || !b) continue;
    const ma = readClaim(all, a);
    const mb = readClaim(all, b);
    if (!ma.present || !mb.present) continue;
    const starts = all.lineStarts();
    const distance = Math.abs(starts[ma.lines[0]!]! - starts[mb.lines[0]!]!);
    const p =
      distance <= contradictionNearChars ? rates.surfaceContradictionNear : rates.surfaceContradictionFar;
    if (d('contradiction', String(i)) < p)
      out.push(
        `- Contradiction between the children: ${strip(a.claim)} — versus — ${strip(b.claim)} (${x.topic}); this has to be settled before acting.`,
      );
  }
  return out;
}

export function notSearchedLines(ref: Reference, all: TextIndex, rates: SimRates, d: Draw): string[] {
  const out: string[] = [];
  const lines = all.getLines();
  for (const item of ref.notSearched ?? []) {
    const needle = item.toLowerCase();
    const stated = lines.some((l) => l.includes(needle) && notSearchedCues.some((c) => l.includes(c)));
    if (stated && d('not-searched', item) < rates.citeNotSearched)
      out.push(`- Not searched by any of the children: ${item}.`);
  }
  return out;
}

function strip(text: string): string {
  return text.trim().replace(/[.\s]+$/, '');
}
