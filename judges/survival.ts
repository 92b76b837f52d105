import type { Assertion, AssertionKind, SurvivalMark, SurvivalResult } from '../harness/core/index.ts';
import { assertionKinds } from '../harness/core/index.ts';
import { indexText, matchClaim, type TextIndex } from '../harness/core/text/cues.ts';

/**
 * Assumption survival, deterministic: for each labelled assertion, at the payload the receiver got
 * and in its final answer — kept (with its qualifier, where it has one), overstated (a hedge,
 * assumption or open question now stated as fact) or absent. The matcher is harness/text/cues.ts:
 * all of a claim's cues on one line (case-insensitive) make it present; one of its qualifier cues on
 * that line or the line before makes it qualified; one qualified occurrence anywhere is enough. A
 * confident claim is kept or absent, never overstated. Since issue 26 this is the first opinion:
 * the survival classifier decides (survival-decide.ts) and this reading is recorded beside it; it
 * decides only when judge.classify is 'off', and the row then says so (survival_decided_by 'cues').
 */
export function markOf(a: Assertion, text: TextIndex): SurvivalMark {
  const m = matchClaim(text, a);
  if (!m.present) return 'absent';
  if (a.kind === 'confident' || m.qualified) return 'kept';
  return 'overstated';
}

export function survival(
  assertions: readonly Assertion[],
  payload: string,
  answer: string,
): SurvivalResult[] {
  const p = indexText(payload);
  const ans = indexText(answer);
  return assertions.map((a) => ({
    assertionId: a.id,
    kind: a.kind,
    ...(a.location ? { location: a.location } : {}),
    payload: markOf(a, p),
    answer: markOf(a, ans),
  }));
}

export type SurvivalRates = Partial<Record<AssertionKind, number | null>>;

/**
 * Share kept per kind at one stage (null when the case has no assertion of that kind). A stage the
 * classifier could not read (null marks) has no rates at all: unscored, not zero.
 */
export function survivalRates(results: SurvivalResult[], stage: 'payload' | 'answer'): SurvivalRates {
  const out: SurvivalRates = {};
  if (results.some((r) => r[stage] === null)) return out;
  for (const kind of assertionKinds) {
    const of = results.filter((r) => r.kind === kind);
    out[kind] = of.length ? of.filter((r) => r[stage] === 'kept').length / of.length : null;
  }
  return out;
}

/**
 * Share kept per kind × location at one stage, keyed `<kind>:<location>`, for the combinations the
 * case labels (assertions without a location are left out: they are in the by-kind rates).
 */
export function survivalByLocation(
  results: SurvivalResult[],
  stage: 'payload' | 'answer',
): Record<string, number> {
  const tally = new Map<string, { kept: number; n: number }>();
  for (const r of results) {
    if (!r.location || r[stage] === null) continue;
    const key = `${r.kind}:${r.location}`;
    const t = tally.get(key) ?? { kept: 0, n: 0 };
    t.n++;
    if (r[stage] === 'kept') t.kept++;
    tally.set(key, t);
  }
  return Object.fromEntries([...tally].map(([k, t]) => [k, t.kept / t.n]));
}

export function overstatedCount(results: SurvivalResult[]): number {
  return results.filter((r) => r.answer === 'overstated').length;
}
