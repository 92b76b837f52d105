import type { SessionShape } from '../types/case.ts';

/**
 * Phrases the deterministic checks and the sim judge both look for, kept in one place so the check
 * and the simulated judge cannot drift apart. Matching is case-insensitive substring matching.
 */

/** A hand-off narrative: out of place in a session the agent owned from its first turn (ADR 0093 addendum). */
export const handoffPhrases = [
  'handed off',
  'hand-off',
  'handoff from',
  'the primary agent',
  'as handed over',
  'as received from',
];

/** Claims of having verified something; without evidence on the same line they are unsupported. */
export const verificationClaims = [
  'i tested',
  'tests pass',
  'everything passes',
  'verified that',
  'confirmed working',
  'i verified',
  'i ran the tests',
];

/**
 * The recap signature the ADR 0093 addendum measured: the sim writes it when it recaps earlier work,
 * the recap check and the sim judge look for it.
 */
export const recapSignature = 'What was implemented (matching the design)';

/**
 * The line the judge prompt uses to tell the judge how the session came to be; the ownership
 * criterion depends on it. The sim judge reads it from the trusted part of its prompt.
 */
export function sessionShapeLine(shape: SessionShape): string {
  return shape === 'owned'
    ? "Session shape: owned — the session was the judged agent's own from its first turn; no hand-off happened."
    : 'Session shape: handed-off — the judged agent received this work from another agent.';
}

/** Saying a place was not searched (a contract renders coverage.not_searched as "NOT SEARCHED: …"). */
export const notSearchedCues = [
  'not searched',
  'not_searched',
  'did not search',
  "didn't search",
  'none of them',
  'nobody searched',
  'not checked by any',
];

/** Words that juxtapose two claims as contradicting each other. */
export const contrastWords = ['contradict', 'conflict', 'disagree', 'inconsistent', 'versus', ' vs '];
