import type { ResultRow } from '../harness/core/index.ts';

/**
 * Survival marks read generically from a row's `detail.survival` entries. The entry shape grows (an
 * LLM classifier's opinion, a cue matcher's first opinion, a "made by the source" stage, measured
 * locations), so nothing here names a stage: a stage is any key whose value is a mark, and a nested
 * object of marks (`llm: {payload, answer}`) is an opinion whose stages read `llm.payload`.
 */
export const MARKS = ['kept', 'overstated', 'absent'] as const;
export type Mark = (typeof MARKS)[number];

export const isMark = (v: unknown): v is Mark =>
  typeof v === 'string' && (MARKS as readonly string[]).includes(v);

/** Keys of an entry that are identity or metadata, never a stage. */
const NOT_STAGES = new Set(['assertionId', 'kind', 'location', 'status']);

export interface ClaimMarks {
  assertionId: string;
  kind: string;
  /** The labelled location, or a measured one, or 'unlabelled'. */
  location: string;
  /** The deciding mark per stage, in the entry's key order (payload before answer in every shape so far). */
  stages: Record<string, Mark>;
  /** Other opinions per stage (`llm.payload`, `cues.answer`, …), null where that opinion could not classify. */
  opinions: Record<string, Mark | null>;
  /** Text the classifier quoted for a stage, when the row records one (`evidence`, `quote`, `span`, `text`). */
  quotes: Record<string, string[]>;
}

/** Every labelled claim's marks in a row; [] for an error row or a row without detail. */
export function claimMarks(row: ResultRow): ClaimMarks[] {
  const list = (row.detail as { survival?: unknown } | undefined)?.survival;
  if (!Array.isArray(list)) return [];
  const out: ClaimMarks[] = [];
  for (const e of list as Record<string, unknown>[]) {
    if (!e || typeof e !== 'object' || typeof e.assertionId !== 'string') continue;
    const stages: Record<string, Mark> = {};
    const opinions: Record<string, Mark | null> = {};
    const quotes: Record<string, string[]> = {};
    for (const [k, v] of Object.entries(e)) {
      if (NOT_STAGES.has(k)) continue;
      if (isMark(v)) stages[k] = v;
      else if (v && typeof v === 'object' && !Array.isArray(v))
        readNested(k, v as Record<string, unknown>, opinions, quotes);
    }
    out.push({
      assertionId: e.assertionId,
      kind: typeof e.kind === 'string' ? e.kind : 'unknown',
      location: locationOf(e.location),
      stages,
      opinions,
      quotes,
    });
  }
  return out;
}

function readNested(
  key: string,
  v: Record<string, unknown>,
  opinions: Record<string, Mark | null>,
  quotes: Record<string, string[]>,
): void {
  for (const [stage, x] of Object.entries(v)) {
    if (isMark(x) || x === null) opinions[`${key}.${stage}`] = x as Mark | null;
    else if (typeof x === 'string' && x.trim()) (quotes[stage] ??= []).push(x);
    else if (Array.isArray(x))
      for (const s of x) if (typeof s === 'string' && s.trim()) (quotes[stage] ??= []).push(s);
  }
  // `{ evidence: { payload: '...', answer: '...' } }` and `{ payload: { mark, quote } }` shapes alike.
  if (['evidence', 'quote', 'quotes', 'span', 'spans', 'text', 'matched'].includes(key)) return;
  for (const [stage, x] of Object.entries(v))
    if (x && typeof x === 'object' && !Array.isArray(x)) {
      const o = x as Record<string, unknown>;
      for (const q of ['quote', 'evidence', 'span', 'text', 'matched'])
        if (typeof o[q] === 'string' && (o[q] as string).trim()) (quotes[stage] ??= []).push(o[q] as string);
      if (isMark(o.mark)) opinions[`${key}.${stage}`] = o.mark;
    }
}

function locationOf(v: unknown): string {
  if (typeof v === 'string' && v) return v;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    for (const k of ['measured', 'labelled', 'labeled', 'value'])
      if (typeof o[k] === 'string' && o[k]) return o[k] as string;
  }
  return 'unlabelled';
}

/** The stages seen across rows, in first-seen order (payload, answer — and whatever a newer shape adds). */
export function stagesOf(rows: readonly ResultRow[]): string[] {
  const seen = new Set<string>();
  for (const r of rows) for (const c of claimMarks(r)) for (const s of Object.keys(c.stages)) seen.add(s);
  return [...seen];
}
