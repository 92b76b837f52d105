/**
 * A general lexicon of the ways English marks a statement as not established: hedges (the writer
 * could not find out), assumptions (the writer took it as true without checking) and open questions
 * (someone still has to decide or answer). Written from how people and models word caveats, not from
 * any case's `qualifierCues`: the sim's reader (reading.ts) uses it so that what counts as a carried
 * caveat does not depend on the phrases a case happens to list.
 *
 * Every pattern runs on one lower-cased sentence with curly apostrophes straightened. A hit on any
 * kind qualifies a caveat of any kind: a hedge carried as an open question still carries the doubt.
 *
 * Deliberately left out, because they also occur in plain statements of fact and in the bare claims
 * of shipped cases ("the sandbox merchants should be notified"): a lone "should", "may", "if",
 * "whether", "likely" and "expected". What it cannot read: sarcasm, a doubt expressed only by
 * context ("the docs are from 2019"), a qualifier two or more sentences away from the claim, and
 * negation scope (it sees "not verified" without knowing what is not verified).
 */

/** The writer could not find out, or says the matter is not established. */
export const hedgePatterns: readonly RegExp[] = [
  /\b(?:could ?not|couldn't|can ?not|can't|cannot|unable to|(?:was|were|am|is|are) ?n(?:o|')t able to|did ?not|didn't|have ?not|haven't|had ?not|hadn't|no way to|not possible to|impossible to|never got to|not in a position to)\s+(?:\w+\s+){0,3}?(?:determine|tell|confirm|verify|check|establish|say|know|see|find out|work out|figure out|read|access|reach|run|test|rule out|settle|inspect|look|prove|reproduce|be sure)\b/,
  /\bno (?:way|means) (?:for (?:me|us) )?(?:to|of)\b/,
  /\bnot (?:yet |been |fully |independently |actually |directly )*(?:verified|confirmed|checked|tested|established|known|clear|sure|certain|determined|proven|proved|validated|run)\b/,
  /\bun(?:verified|confirmed|tested|checked|known|clear|certain|sure|proven|validated)\b/,
  /\b(?:i|we) (?:do ?not|don't|did ?not|didn't) (?:know|have (?:a way|any way|access))\b/,
  /\b(?:no idea|hard to say|impossible to say|can't say|cannot say|not sure|unsure|in doubt|open to doubt)\b/,
  /\b(?:may|might) or (?:may|might) not\b/,
  /\b(?:possibly|perhaps|presumably|apparently|probably|seemingly|reportedly|supposedly)\b/,
  /\b(?:seems?|appears?) to\b|\bsuggests?\b|\bsuggesting\b/,
  // An expectation, not a report: "should fix it", "should load automatically" (not "X should be notified").
  /\bshould (?:now |then |also )?(?:fix|work|load|resolve|solve|address|pass|help|be fine|be enough|take care of|handle)\b/,
  /\b(?:remains?|stays?|is|are) to be (?:checked|confirmed|verified|seen|determined|established)\b/,
  /\b(?:needs?|requires?|awaiting|pending|worth) (?:a |an |further |more )?(?:confirmation|verification|checking|double-checking|a check|check)\b/,
  /\bnothing (?:i|we) (?:could |have )?(?:read|saw|seen|found|checked) (?:settles|confirms|proves|shows)\b/,
  /\bcaveat\b/,
];

/** The writer took something as true without checking it. */
export const assumptionPatterns: readonly RegExp[] = [
  /\bassum(?:e|es|ed|ing|ption|ptions)\b/,
  /\bpresum(?:e|es|ed|ing|ption)\b/,
  /\bsuppos(?:e|ed|ing)\b/,
  /\b(?:tak(?:e|es|en|ing)|took) (?:it |that |this )?(?:as (?:given|read|true|granted|correct|authoritative)|for granted)\b/,
  /\btaking (?:\S+ ){1,8}?as (?:given|read|true|granted|correct|authoritative|the source of truth)\b/,
  /\b(?:i|we)(?:'ve| have)? (?:treated|treat|taken|take|regarded|regard) (?:\S+ ){0,8}?as\b/,
  /\bworking (?:premise|hypothesis|assumption|theory)\b|\b(?:on|under) the (?:premise|assumption|understanding|hypothesis) that\b/,
  /\b(?:proceed(?:ed|ing)?|going|went|relying|relied) on the (?:basis|premise|idea|belief) that\b/,
  /\bon the basis that\b|\bas long as\b|\bso long as\b|\bprovided that\b|\bproviding that\b|\bgranted that\b|\bif we accept\b/,
  /\b(?:i|we) (?:guess|believe|expect|infer|inferred|reckon|take it)\b|\bmy (?:guess|reading|understanding|belief) is\b/,
  /\bwithout (?:having )?(?:checking|verifying|confirming|testing|checked|verified|confirmed)\b/,
  /\bnot (?:something |anything )?(?:i|we) (?:could |was able to |were able to |have |had )?(?:check|checked|verify|verified|confirm|confirmed|test|tested)\b/,
];

/** Someone still has to decide or answer it. */
export const openQuestionPatterns: readonly RegExp[] = [
  /\bopen (?:question|item|issue|point)s?\b|\b(?:still|remains?|left|is|stays?) open\b/,
  /\bun(?:resolved|decided|settled|answered)\b|\bnot (?:yet )?(?:decided|resolved|settled|answered)\b/,
  /\b(?:no ?one|nobody) has (?:yet )?(?:decided|answered|settled|confirmed|said)\b/,
  /\b(?:to be|yet to be) (?:decided|answered|settled|agreed)\b|\btbd\b|\bto decide\b|\bdecide whether\b/,
  /\bwould (?:settle|answer|resolve|decide) (?:it|this|that|the question)\b/,
  /\b(?:needs?|requires?|awaiting|pending|waiting (?:on|for)) (?:a |an |the )?(?:decision|answer|ruling|sign-off|call from)\b/,
  /\bquestion (?:for|to put to|(?:i am|i'm|we are|we're) leaving)\b|\bleav(?:e|ing) (?:\S+ ){0,3}?(?:to|for) (?:the owner|whoever|them|someone|a human)\b/,
  /\b(?:has|have|needs?) to (?:answer|decide|weigh in|settle|rule on)\b|\bfor (?:the owner|whoever owns it|them) to (?:decide|answer|settle)\b/,
  /\b(?:no|without an?) answer (?:yet|so far)\b|\bnot (?:yet )?(?:been )?answered\b/,
  /\?\s*$/,
];

const allPatterns = [...hedgePatterns, ...assumptionPatterns, ...openQuestionPatterns];

/** Lower-cased, apostrophes straightened: the form the patterns are written for. */
export function normalise(text: string): string {
  return text.toLowerCase().replace(/[\u2018\u2019\u02bc]/g, "'");
}

/** Whether a (normalised) sentence carries a qualifier construction of any kind. */
export function hasQualifier(sentence: string): boolean {
  return allPatterns.some((p) => p.test(sentence));
}

/** The caveat words that, heading a line before a colon, mark it as an explicit label. */
const labelWords =
  /assum|unresolved|unverified|not verified|open (?:question|item)|caveat|uncertain|unclear|unknown|could not|couldn't|can't|cannot|inferred|reported|premise|pending|still open|undecided|not checked|unconfirmed|untested/;

/**
 * The qualifier heads its line as a label ("- ASSUMPTION: …", "Still open: …"), not mid-prose: the
 * text before the line's first colon (within 48 characters, list marker stripped) is a caveat label.
 */
export function isCaveatLabel(line: string): boolean {
  const head = line.replace(/^[\s\-*•\d.)[]+/, '');
  const colon = head.indexOf(':');
  if (colon < 0 || colon > 48) return false;
  const label = normalise(head.slice(0, colon));
  return labelWords.test(label) || hasQualifier(label);
}
