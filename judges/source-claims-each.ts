import type { Case, MadeLocation, SourceClaim, Transcript } from '../harness/core/index.ts';
import type { ClassifyCall } from './survival-decide.ts';
import { readSourceClaims, type SourceReading } from './source-claims.ts';

/**
 * The "made by the source" stage read source by source (issue 29 item 4): each live source's
 * transcript is classified on its own, so each child is credited only with the claims its own
 * transcript makes — never another child's. The case's reading is their union: a claim's location is
 * the most visible place any source made it (final message, then mid-transcript, then a tool result
 * only), with that source's mark. One source is read exactly as readSourceClaims reads it (the same
 * requests); several cost one classification per source and section instead of one per section.
 */
export interface EachSourceReading {
  reading: SourceReading;
  /** Per source, in order: the ids of the labelled claims its transcript was read making. */
  credited: string[][];
}

const visibility: readonly MadeLocation[] = [
  'final_message',
  'mid_transcript',
  'tool_result_only',
  'not_made',
];
const rank = (l: MadeLocation) => visibility.indexOf(l);

/** Reads each source apart (one source: exactly readSourceClaims); the case's reading is their union. */
export async function readEachSource(
  call: ClassifyCall,
  c: Pick<Case, 'id' | 'assertions' | 'reference'>,
  sources: readonly Transcript[],
): Promise<EachSourceReading> {
  if (sources.length <= 1) {
    const reading = await readSourceClaims(call, c, sources);
    return { reading, credited: [madeIds(reading.claims)] };
  }
  const readings: SourceReading[] = [];
  for (const t of sources) readings.push(await readSourceClaims(call, c, [t]));
  const claims = c.assertions.map((a, i): SourceClaim => {
    const each = readings.map((r) => r.claims[i]!);
    const best = each.reduce((x, y) => (rank(y.location) < rank(x.location) ? y : x));
    const cues = each.map((x) => x.cues).reduce((x, y) => (rank(y) < rank(x) ? y : x));
    return { ...best, cues };
  });
  const differ = claims.filter((x) => x.location !== x.cues).length;
  return {
    reading: {
      claims,
      disagreement: claims.length ? differ / claims.length : null,
      unquoted: unionOf(readings),
    },
    credited: readings.map((r) => madeIds(r.claims)),
  };
}

/** Per section, every claim some source's reading found unquoted there (each id once, in case order). */
function unionOf(readings: readonly SourceReading[]): SourceReading['unquoted'] {
  const out: SourceReading['unquoted'] = {};
  for (const r of readings)
    for (const [s, ids] of Object.entries(r.unquoted) as [keyof SourceReading['unquoted'], string[]][])
      out[s] = [...new Set([...(out[s] ?? []), ...ids])];
  return out;
}

function madeIds(claims: readonly SourceClaim[]): string[] {
  return claims.filter((x) => x.location !== 'not_made').map((x) => x.assertionId);
}
