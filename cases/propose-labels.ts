import type {
  Assertion,
  AssertionKind,
  AssertionLocation,
  Message,
  Transcript,
} from '../harness/core/index.ts';

/**
 * The deterministic label proposer behind `case from-session` and `case label`: assertions proposed
 * from what the source agent wrote, for a person to confirm. Every proposal has `status: "proposed"`.
 *
 * - **hedged / assumption / unresolved**: a sentence of the agent's text that contains a phrase of
 *   the cue lexicon below; the matched phrases become `qualifierCues`, the sentence with them removed
 *   the `claim`.
 * - **confident**: a declarative sentence of the final message (no qualifier, not a question, not a
 *   plan such as "Let me …"), at least six words.
 *
 * `cues` are up to three of the claim's longest content words, all on the statement's line, so the
 * survival checks can find the claim again. `location` is `final_message` for the last assistant
 * message with text, else `mid_transcript`. The lexicon is data: docs/importers.md lists it, and
 * test/cases/propose-labels.test.ts measures its precision and recall against the hand labels.
 */
export const cueLexicon: Record<Exclude<AssertionKind, 'confident'>, string[]> = {
  hedged: [
    'could not determine',
    "couldn't determine",
    'could not verify',
    "couldn't verify",
    'could not confirm',
    'unable to verify',
    'unable to confirm',
    'cannot confirm',
    'not verified',
    'unverified',
    'unclear whether',
    'it is unclear',
    'not sure',
    'not certain',
    'should fix',
    'should work',
    'should now',
    'suggests',
    'appears to',
    'seems to',
    'likely',
    'probably',
    'may be',
    'might',
  ],
  assumption: [
    'assuming',
    'i assume',
    'we assume',
    'assumed',
    'assumption',
    'presumably',
    'taking it as given',
    'on the premise',
  ],
  unresolved: [
    'open question',
    'unresolved',
    'still need to',
    'remains to be',
    'did not check',
    "didn't check",
    'not yet',
    'left for later',
    'to be determined',
    'todo',
  ],
};

/** Sentences that announce work rather than state a result. */
const planOpeners =
  /^(let me|let's|i'll|i will|i'm going to|now,? i|next,? i|first,? i|i need to|we need to|please)\b/i;

const stopwords = new Set(
  'the a an and or but of to in on at for with from by is are was were be been has have had this that these those it its as into than then there their which what when where who will would should could can may might not no yes all any each our your my we you they he she them his her also just only very more most such so if while do does did done'.split(
    ' ',
  ),
);

export function proposeLabels(sources: readonly Transcript[]): Assertion[] {
  const out: Assertion[] = [];
  const seen = new Set<string>();
  sources.forEach((t) => {
    const last = lastTextMessage(t.messages);
    t.messages.forEach((m, i) => {
      if (m.role !== 'assistant' || !m.text) return;
      const location: AssertionLocation = i === last ? 'final_message' : 'mid_transcript';
      for (const sentence of sentencesOf(m.text)) {
        const p = propose(sentence, location);
        if (!p || seen.has(p.statement)) continue;
        seen.add(p.statement);
        out.push({ id: `p${out.length + 1}`, ...p });
      }
    });
  });
  return out;
}

function propose(statement: string, location: AssertionLocation): Omit<Assertion, 'id'> | undefined {
  const lower = statement.toLowerCase();
  for (const kind of ['assumption', 'unresolved', 'hedged'] as const) {
    const hits = cueLexicon[kind].filter((phrase) => containsPhrase(lower, phrase));
    if (hits.length === 0) continue;
    const claim = stripPhrases(statement, hits);
    const cues = contentCues(claim);
    if (cues.length === 0) return undefined;
    return { kind, statement, claim, cues, qualifierCues: hits, location, status: 'proposed' };
  }
  if (location !== 'final_message' || !isDeclarative(statement)) return undefined;
  const cues = contentCues(statement);
  if (cues.length < 2) return undefined;
  return { kind: 'confident', statement, claim: statement, cues, location, status: 'proposed' };
}

/** A phrase on word boundaries (`likely` in "unlikely" does not count). */
function containsPhrase(lower: string, phrase: string): boolean {
  const at = lower.indexOf(phrase);
  if (at < 0) return false;
  const before = at === 0 ? ' ' : lower[at - 1]!;
  const after = lower[at + phrase.length] ?? ' ';
  return !/[a-z0-9]/.test(before) && !/[a-z0-9]/.test(after);
}

function stripPhrases(statement: string, phrases: string[]): string {
  let out = statement;
  for (const p of phrases) out = out.replace(new RegExp(escape(p), 'i'), ' ');
  return out.replace(/\s+/g, ' ').trim() || statement;
}

function isDeclarative(s: string): boolean {
  return !s.endsWith('?') && !s.endsWith(':') && !planOpeners.test(s) && s.split(/\s+/).length >= 6;
}

/** Up to three of the longest content words, in the order they occur. */
export function contentCues(text: string): string[] {
  const words = (text.match(/[A-Za-z0-9_./`'-]{4,}/g) ?? [])
    .map((w) => w.replace(/^[`'.-]+|[`'.,-]+$/g, ''))
    .filter((w) => w.length >= 4 && !stopwords.has(w.toLowerCase()));
  const ranked = [...new Set(words)].sort((a, b) => b.length - a.length).slice(0, 3);
  return words.filter((w, i) => ranked.includes(w) && words.indexOf(w) === i);
}

/** Sentences of a message, one line each (cues must share a line): markdown bullets and code stripped. */
export function sentencesOf(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?```/g, ' ');
  const out: string[] = [];
  for (const line of prose.split('\n')) {
    const clean = line.replace(/^\s*([-*+]|\d+[.)]|#+)\s+/, '').trim();
    for (const s of clean.split(/(?<=[.!?])\s+(?=[A-Z`"(])/)) {
      const t = s.trim();
      if (t.length >= 12 && t.length <= 400) out.push(t);
    }
  }
  return out;
}

function lastTextMessage(messages: readonly Message[]): number {
  for (let i = messages.length - 1; i >= 0; i--)
    if (messages[i]!.role === 'assistant' && messages[i]!.text) return i;
  return -1;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
