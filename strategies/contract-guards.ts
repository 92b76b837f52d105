import type { Transcript } from '../harness/core/index.ts';
import { ranTrailItems } from '../harness/core/transcript/budget.ts';
import { formatArgs } from './render.ts';
import type { ResearchResult } from './contract-schema.ts';

/**
 * Parent-side guards on a validated `research_result` (ledgerline: "Two or three such guards accumulate
 * around any contract, and they belong in the parent's code where they can be tested, not in the
 * child's instructions where they are advisory"). Each guard may correct the record and always leaves
 * a flag, which the parent's rendering shows — a correction is never silent.
 *
 * - `empty-result` (the seed's guard): no findings and no unresolved question ⇒ the child almost
 *   certainly stopped early, so `effort.budget_exhausted = true`.
 * - `tool-calls-mismatch`: `effort.tool_calls` missing or different from the number of tool calls in
 *   the child's transcript that ran (a call refused past the budget is not one) ⇒ corrected to that count. Effort is how the parent tells a
 *   thorough child from one that stopped after one search; a self-report it can check, it checks.
 * - `no-provenance`: a `verified` finding with an empty provenance ⇒ downgraded to `inferred`: a claim
 *   nobody can trace to a file, column or url is not verified (ledgerline added provenance after a
 *   disputed claim could not be traced).
 * - `untraceable-provenance`: a finding whose every provenance entry appears nowhere in the child's tool
 *   calls or results ⇒ flagged (not changed): the source may be real but the transcript cannot show it.
 */
export type GuardName = 'empty-result' | 'tool-calls-mismatch' | 'no-provenance' | 'untraceable-provenance';

/** A parent-side guard that fired on a contract, with what it found. */
export interface GuardFlag {
  guard: GuardName;
  detail: string;
  /** The finding it concerns, by claim. */
  claim?: string;
}

/** A contract after applyGuards: the result as the parent may trust it, and the guards that fired. */
export interface Guarded {
  result: ResearchResult;
  flags: GuardFlag[];
}

/** Applies every guard to a copy of the record; `transcript` is the child's session (absent: the transcript guards are skipped). */
export function applyGuards(input: ResearchResult, transcript?: Transcript): Guarded {
  const result: ResearchResult = structuredClone(input);
  const flags: GuardFlag[] = [];
  if (transcript) checkToolCalls(result, transcript, flags);
  for (const f of result.findings) {
    if (f.provenance.length === 0 && f.confidence === 'verified') {
      f.confidence = 'inferred';
      flags.push({
        guard: 'no-provenance',
        claim: f.claim,
        detail: 'marked verified without any provenance; downgraded to inferred',
      });
    }
  }
  if (transcript) checkTraceable(result, transcript, flags);
  if (result.findings.length === 0 && result.unresolved.length === 0) {
    const was = result.effort.budget_exhausted;
    result.effort.budget_exhausted = true;
    flags.push({
      guard: 'empty-result',
      detail: `no findings and no unresolved question: treated as an early stop (budget_exhausted ${was === true ? 'was already true' : 'set to true'})`,
    });
  }
  return { result, flags };
}

function checkToolCalls(result: ResearchResult, transcript: Transcript, flags: GuardFlag[]): void {
  // Calls refused past the budget were never run: counting them would "correct" a true count upwards.
  const actual = ranTrailItems(transcript).length;
  const reported = result.effort.tool_calls;
  if (reported === actual) return;
  result.effort.tool_calls = actual;
  flags.push({
    guard: 'tool-calls-mismatch',
    detail: `the child reported ${reported === undefined ? 'no' : reported} tool calls; its transcript has ${actual} (corrected)`,
  });
}

function checkTraceable(result: ResearchResult, transcript: Transcript, flags: GuardFlag[]): void {
  const evidence = evidenceText(transcript);
  for (const f of result.findings) {
    if (f.provenance.length === 0) continue;
    if (f.provenance.some((p) => traceable(p, evidence))) continue;
    flags.push({
      guard: 'untraceable-provenance',
      claim: f.claim,
      detail: `none of its provenance (${f.provenance.join(', ')}) appears in the child's tool calls or results`,
    });
  }
}

/** The child's tool calls that ran and their results (what it actually read), lower-cased; its own prose and refused calls are not evidence. */
function evidenceText(t: Transcript): string {
  const parts: string[] = [];
  for (const item of ranTrailItems(t)) parts.push(formatArgs(item.call.input), item.result?.content ?? '');
  return parts.join('\n').toLowerCase();
}

/** A provenance entry is traceable when it, or its locator (the file before ":line", the table before ".column", the url), occurs in the evidence. */
export function traceable(provenance: string, evidence: string): boolean {
  const p = provenance.trim().toLowerCase();
  const candidates = [p, p.split(/[\s:#@]/)[0] ?? '', /^[\w-]+\.[\w-]+$/.test(p) ? p.split('.')[0]! : ''];
  return candidates.some((c) => c.length >= 3 && evidence.includes(c));
}
