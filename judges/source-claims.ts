import type {
  Assertion,
  Case,
  ClaimLocation,
  MadeLocation,
  SourceClaim,
  SurvivalMark,
  Transcript,
} from '../harness/core/index.ts';
import { HarnessError } from '../harness/core/errors.ts';
import { indexText, matchClaim } from '../harness/core/text/cues.ts';
import { lastAssistantText } from '../harness/core/transcript/view.ts';
import { classifyStage, type SourceSection } from './survival-llm.ts';
import type { ClassifyCall } from './survival-decide.ts';

/**
 * The "made by the source" stage (issue 26): which labelled claims a live source made, and where, read
 * by the survival classifier from the transcript(s) it produced — never cut by a cue match. The
 * transcript is split into three sections and each is one classify request (purpose 'classify', the
 * same forced `classify_survival` tool as the payload and answer stages):
 *
 * - `final_message`: each source's last assistant message with text (what `final-message` returns);
 * - `mid_transcript`: every other assistant text (written between tool calls);
 * - `tool_result`: everything the source's tool calls returned (the source's reading, not its words).
 *
 * The location is the most visible section the classifier finds the claim in (final, then mid, then
 * tool results — a claim restated at the end is a final-message claim); in none of them it is
 * `not_made`. Reading the sections apart is what measures the location: one request with labelled
 * sections would ask the model for a location it could guess from the labels' order. An empty section
 * costs no call. The cue matcher reads the same sections as a recorded first opinion.
 *
 * A section the classifier fails on after its retry leaves the claims' places unknown; the cell is then
 * an error row (`classify_failed`) — no cue opinion stands in for it.
 */
export interface SourceReading {
  claims: SourceClaim[];
  /** Share of claims whose cue-read place (not_made included) differs from the classifier's. */
  disagreement: number | null;
  /** Per section, claims the classifier marked present with a quote not in the text: read absent there. */
  unquoted: Partial<Record<SourceSection, string[]>>;
}

const sections: readonly SourceSection[] = ['final_message', 'mid_transcript', 'tool_result'];
const locationOf: Record<SourceSection, ClaimLocation> = {
  final_message: 'final_message',
  mid_transcript: 'mid_transcript',
  tool_result: 'tool_result_only',
};

export async function readSourceClaims(
  call: ClassifyCall,
  c: Pick<Case, 'id' | 'assertions' | 'reference'>,
  sources: readonly Transcript[],
): Promise<SourceReading> {
  const texts = sourceSections(sources);
  const read = new Map<SourceSection, Map<string, SurvivalMark>>();
  const errors: string[] = [];
  const unquoted: Partial<Record<SourceSection, string[]>> = {};
  for (const s of sections) {
    if (!texts[s].trim() || c.assertions.length === 0) continue;
    const r = await classifyStage(call, c.id, c.assertions, c.reference, s, texts[s]);
    if (r.marks) read.set(s, r.marks);
    else errors.push(r.error!);
    if (r.unquoted?.length) unquoted[s] = r.unquoted;
  }
  if (errors.length)
    throw new HarnessError(
      'classify_failed',
      `case ${c.id}: which labelled claims the live source made could not be read — ${errors.join('; ')}`,
    );
  const cueIndex = Object.fromEntries(sections.map((s) => [s, indexText(texts[s])])) as Record<
    SourceSection,
    ReturnType<typeof indexText>
  >;
  const claims = c.assertions.map((a): SourceClaim => {
    const at = sections.find((s) => (read.get(s)?.get(a.id) ?? 'absent') !== 'absent');
    const cueAt = sections.find((s) => matchClaim(cueIndex[s], a).present);
    return {
      assertionId: a.id,
      kind: a.kind,
      ...(a.location ? { recorded: a.location } : {}),
      location: at ? locationOf[at] : 'not_made',
      mark: at ? read.get(at)!.get(a.id)! : 'absent',
      cues: cueAt ? locationOf[cueAt] : 'not_made',
    };
  });
  const differ = claims.filter((x) => x.location !== x.cues).length;
  return { claims, disagreement: claims.length ? differ / claims.length : null, unquoted };
}

/** The three sections' texts over every source (several sources: each part headed by its source). */
export function sourceSections(sources: readonly Transcript[]): Record<SourceSection, string> {
  const parts: Record<SourceSection, string[]> = { final_message: [], mid_transcript: [], tool_result: [] };
  sources.forEach((t, n) => {
    const head = sources.length > 1 ? `[source ${n + 1} of ${sources.length}]\n` : '';
    const last = lastAssistantText(t)?.index ?? -1;
    const own: Record<SourceSection, string[]> = { final_message: [], mid_transcript: [], tool_result: [] };
    t.messages.forEach((m, i) => {
      if (m.role === 'assistant' && m.text?.trim())
        own[i === last ? 'final_message' : 'mid_transcript'].push(m.text);
      for (const r of m.toolResults ?? []) own.tool_result.push(r.content);
    });
    for (const s of sections) if (own[s].length) parts[s].push(head + own[s].join('\n\n'));
  });
  return {
    final_message: parts.final_message.join('\n\n'),
    mid_transcript: parts.mid_transcript.join('\n\n'),
    tool_result: parts.tool_result.join('\n\n'),
  };
}

/** The case with only the claims the source made, each at its measured location (reference cut to match). */
export function madeCase(c: Case, claims: readonly SourceClaim[]): Case {
  const at = new Map(claims.filter((x) => x.location !== 'not_made').map((x) => [x.assertionId, x.location]));
  const assertions: Assertion[] = c.assertions
    .filter((a) => at.has(a.id))
    .map((a) => ({ ...a, location: at.get(a.id) as ClaimLocation }));
  const reference = {
    ...c.reference,
    caveats: c.reference.caveats.filter((id) => at.has(id)),
    ...(c.reference.contradictions
      ? { contradictions: c.reference.contradictions.filter((x) => x.between.every((id) => at.has(id))) }
      : {}),
  };
  return { ...c, assertions, reference };
}
