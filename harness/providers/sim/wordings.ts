import type { Assertion, AssertionKind } from '../../core/index.ts';
import { draw } from './rng.ts';

/**
 * The sim's own ways of saying a labelled claim (issue 26): wherever it writes one — the live
 * source's report, a summary, a receiver's answer, a contract's text fields, a spawn background — it
 * draws a wording from this bank, seeded by (request seed, assertion id), with the claim's bare
 * proposition (`claim`) embedded. So the texts downstream of the sim are not the case's recorded
 * statements, and whatever reads them (the sim's own reader, the survival classifier, the judge)
 * has to recognise a claim and its qualifier by reading, not by the case's cue strings.
 *
 * The wordings were written for this purpose, not taken from any case; a test checks that none
 * contains a cue or qualifier-cue string of any shipped assertion. It is a *set* behaviour: on by
 * default, switched off with `sim: { paraphrase: false }` (then the sim writes each assertion's
 * recorded `statement`, as before), with no rate tuned — every wording of a kind is equally likely.
 */
export const wordings: Readonly<Record<AssertionKind, readonly string[]>> = {
  confident: [
    '{C}.',
    'Found: {c}.',
    'What I can state with a source: {c}.',
    'Established from what I read: {c}.',
    'This one is solid: {c}.',
  ],
  hedged: [
    "I can't tell whether {c}; nothing I could read settles it.",
    'There was no way for me to check from here whether {c}.',
    'Whether {c} is something I was not able to establish.',
    'It may or may not be true that {c} — I had no means of checking.',
    "I don't know if {c}. This stays to be checked.",
    'Possibly {c}, but I have seen nothing that proves it.',
  ],
  assumption: [
    "I've taken it as given that {c}; nothing I read confirms it.",
    'Working premise, not checked: {c}.',
    'I proceeded on the basis that {c}, without checking it.',
    'Taking it as read that {c}.',
    'My working hypothesis is that {c}; I have not tested it.',
    "I'm going on the premise that {c}.",
  ],
  unresolved: [
    'Still open: whether {c}. Someone who owns it has to answer that.',
    'Nobody has decided yet whether {c}.',
    'Whether {c} is a question I am leaving for whoever owns it.',
    'Pending a decision: whether {c}.',
    'I have no answer yet to whether {c}; the owner needs to weigh in.',
    'Is it the case that {c}? That needs an answer from its owner before anyone acts on it.',
  ],
};

/** Whether the sim paraphrases (the `sim: { paraphrase }` setting; default on). */
export interface SimVoice {
  paraphrase: boolean;
}

export const defaultSimVoice: SimVoice = { paraphrase: true };

/**
 * A labelled claim as the sim says it, qualifier included: a wording of the claim's kind, drawn by
 * (seed, assertion id) — or, with paraphrase off, the recorded statement.
 */
export function sayClaim(a: Assertion, seed: string, voice: SimVoice): string {
  if (!voice.paraphrase) return a.statement;
  return fill(pick(wordings[a.kind], seed, a.id), a.claim);
}

/**
 * A claim stated as plain fact — a confident claim, or a caveat whose qualifier was lost: the bare
 * proposition in a confident wording, or with paraphrase off the bare `claim` as recorded.
 */
export function sayAsFact(a: Assertion, seed: string, voice: SimVoice): string {
  if (!voice.paraphrase) return a.kind === 'confident' ? a.statement : a.claim;
  return fill(pick(wordings.confident, seed, a.id), a.claim);
}

function pick(bank: readonly string[], seed: string, id: string): string {
  return bank[Math.floor(draw(seed, 'wording', id) * bank.length)]!;
}

/** The template with the claim in it: trailing full stop dropped, first letter per the slot. */
function fill(template: string, claim: string): string {
  const c = claim.trim().replace(/[.\s]+$/, '');
  const lower = /^[A-Z][a-z]/.test(c) && !/^[A-Z][a-z]+[A-Z]/.test(c) ? lowerFirst(c) : c;
  return template.replace('{C}', c.charAt(0).toUpperCase() + c.slice(1)).replace('{c}', lower);
}

/** "The sandbox …" → "the sandbox …"; a proper noun ("Brightwire", "Tallis Pay") keeps its capital. */
function lowerFirst(c: string): string {
  const first = c.split(/\s/)[0]!;
  return ['The', 'A', 'An', 'In', 'Each', 'Every', 'No', 'All', 'Some', 'This', 'These', 'Our'].includes(
    first,
  )
    ? c.charAt(0).toLowerCase() + c.slice(1)
    : c;
}
