import type { Confidence, Finding, ResearchResult, Unresolved } from './contract-schema.ts';

/**
 * Several children's contracts merged mechanically (ledgerline, last section: "findings concatenated
 * and deduplicated on claim, unresolved unioned, coverage.not_searched intersected to show what none
 * of the four looked at"). Records compose where narratives do not.
 *
 * The merge is order-independent — the same set of contracts gives the same record whatever order
 * the children returned in — so every list comes out in a canonical order (by normalised text), and
 * where duplicates disagree the choice does not depend on order:
 * - a claim found by several children keeps the union of their provenance and the strongest
 *   confidence (verified > inferred > reported);
 * - an open question asked by several keeps every distinct "would settle it", joined;
 * - `not_searched` is intersected over the children that gave a list (a child that gave none says
 *   nothing about what it skipped); `searched` is unioned;
 * - effort adds the tool calls; the budget counts as exhausted if any child's was.
 */
export interface MergedResearchResult extends ResearchResult {
  /** Every child's transcript_ref (sorted); the merged record has no single one. */
  transcript_refs: string[];
  /** How many contracts were merged. */
  sources: number;
}

const rank: Record<Confidence, number> = { verified: 3, inferred: 2, reported: 1 };

/**
 * Several children's research_results as one: findings merged by claim, assumptions and searched places
 * united, unresolved questions merged, not_searched kept only where no child searched, effort summed.
 */
export function mergeContracts(contracts: readonly ResearchResult[]): MergedResearchResult {
  const findings = new Map<string, Finding>();
  for (const c of contracts)
    for (const f of c.findings) findings.set(keyOf(f.claim), mergeFinding(findings.get(keyOf(f.claim)), f));
  const unresolved = new Map<string, { question: unknown; settle: Set<string> }>();
  for (const c of contracts) for (const u of c.unresolved) addUnresolved(unresolved, u);
  const lists = contracts.map((c) => c.coverage.not_searched).filter((l): l is string[] => Array.isArray(l));
  return {
    findings: sortedValues(findings),
    assumptions: union(contracts.flatMap((c) => c.assumptions)),
    unresolved: [...unresolved.entries()]
      .sort(([a], [b]) => cmp(a, b))
      .map(([, u]) => ({ question: u.question, would_settle_it: [...u.settle].sort(cmp).join(' / ') })),
    coverage: {
      searched: union(contracts.flatMap((c) => c.coverage.searched ?? [])),
      not_searched: intersect(lists),
    },
    effort: {
      tool_calls: contracts.reduce((n, c) => n + (c.effort.tool_calls ?? 0), 0),
      budget_exhausted: contracts.some((c) => c.effort.budget_exhausted === true),
    },
    transcript_refs: union(contracts.flatMap((c) => (c.transcript_ref ? [c.transcript_ref] : []))),
    sources: contracts.length,
  };
}

/** Claims and questions are the same when they read the same, ignoring case, spacing and a final full stop. */
export function keyOf(text: unknown): string {
  return String(text)
    .trim()
    .replace(/\s+/g, ' ')
    .replace(/[.;]+$/, '')
    .toLowerCase();
}

function mergeFinding(prev: Finding | undefined, f: Finding): Finding {
  if (!prev) return { claim: f.claim, provenance: union(f.provenance), confidence: f.confidence };
  return {
    claim: cmp(f.claim, prev.claim) < 0 ? f.claim : prev.claim,
    provenance: union([...prev.provenance, ...f.provenance]),
    confidence: rank[f.confidence] > rank[prev.confidence] ? f.confidence : prev.confidence,
  };
}

function addUnresolved(into: Map<string, { question: unknown; settle: Set<string> }>, u: Unresolved): void {
  const key = keyOf(u.question);
  const entry = into.get(key) ?? { question: u.question, settle: new Set<string>() };
  if (spelledBefore(u.question, entry.question)) entry.question = u.question;
  entry.settle.add(String(u.would_settle_it));
  into.set(key, entry);
}

/** Distinct texts (by key), each represented by its smallest spelling, in key order. */
function union(texts: readonly string[]): string[] {
  const by = new Map<string, string>();
  for (const t of texts) {
    const k = keyOf(t);
    const prev = by.get(k);
    if (prev === undefined || cmp(t, prev) < 0) by.set(k, t);
  }
  return [...by.entries()].sort(([a], [b]) => cmp(a, b)).map(([, t]) => t);
}

function intersect(lists: readonly string[][]): string[] {
  if (lists.length === 0) return [];
  const keys = lists.map((l) => new Set(l.map(keyOf)));
  return union(lists.flat().filter((t) => keys.every((k) => k.has(keyOf(t)))));
}

function sortedValues(map: Map<string, Finding>): Finding[] {
  return [...map.entries()].sort(([a], [b]) => cmp(a, b)).map(([, f]) => f);
}

/**
 * The smaller spelling of a question wins whatever the children's order; a question need not be a string
 * (the schema leaves it open), so two that print alike (42 and "42") are told apart by their JSON.
 */
function spelledBefore(a: unknown, b: unknown): boolean {
  return (cmp(String(a), String(b)) || cmp(JSON.stringify(a) ?? '', JSON.stringify(b) ?? '')) < 0;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
