import type { Assertion, Case, ClaimLocation, Message, Transcript } from '../harness/core/index.ts';
import { matchClaim, TextIndex } from '../harness/core/text/cues.ts';
import { lastAssistantText } from '../harness/core/transcript/view.ts';

/**
 * Where a labelled claim really is in a case's source session(s), read the way the survival matcher
 * reads (all cues on one line, its qualifier on that line or the line before): in a source's final
 * message (its last assistant message with text — what `final-message` returns), in its other
 * assistant texts, in the tool results it got. A hedge, assumption or open question counts only
 * where it carries its qualifier: the source put the caveat there.
 */
export interface ClaimPlaces {
  final: boolean;
  mid: boolean;
  tool: boolean;
}

interface SourceTexts {
  final: TextIndex[];
  mid: TextIndex[];
  tool: TextIndex[];
}

const textsBySource = new WeakMap<Transcript, SourceTexts>();

function textsOf(t: Transcript): SourceTexts {
  let out = textsBySource.get(t);
  if (out) return out;
  const last = lastAssistantText(t)?.index ?? -1;
  out = { final: [], mid: [], tool: [] };
  t.messages.forEach((m: Message, i) => {
    if (m.role === 'assistant' && m.text) (i === last ? out!.final : out!.mid).push(new TextIndex(m.text));
    for (const r of m.toolResults ?? []) out!.tool.push(new TextIndex(r.content));
  });
  textsBySource.set(t, out);
  return out;
}

export function claimPlaces(sources: readonly Transcript[], a: Assertion): ClaimPlaces {
  const found = (texts: TextIndex[]) =>
    texts.some((x) => {
      const m = matchClaim(x, a);
      return m.present && (a.kind === 'confident' || m.qualified);
    });
  const all = sources.map(textsOf);
  return {
    final: all.some((s) => found(s.final)),
    mid: all.some((s) => found(s.mid)),
    tool: all.some((s) => found(s.tool)),
  };
}

/**
 * The location the places imply (the most visible one), or undefined when the claim is nowhere. A
 * tool-result claim reads as `tool_result_only`: telling a command's output from a file read is a
 * labeller's call (primary_tool_evidence), not the matcher's.
 */
export function locationOf(places: ClaimPlaces): ClaimLocation | undefined {
  if (places.final) return 'final_message';
  if (places.mid) return 'mid_transcript';
  return places.tool ? 'tool_result_only' : undefined;
}

/** Why a labelled location disagrees with the transcript, or undefined when it agrees. */
export function locationProblem(c: Case, a: Assertion): string | undefined {
  if (!a.location) return undefined;
  if (a.location === 'primary_tool_evidence' && c.direction !== 'escalation')
    return 'primary_tool_evidence is for escalation cases (a command the primary ran to check its work)';
  const p = claimPlaces(c.sources ?? [c.source], a);
  const what = a.kind === 'confident' ? 'the claim' : 'the claim with its qualifier';
  switch (a.location) {
    case 'final_message':
      return p.final ? undefined : `${what} is not in the source's final message`;
    case 'mid_transcript':
      if (p.final) return `${what} is restated in the final message (label it final_message)`;
      return p.mid ? undefined : `${what} is in no assistant message between tool calls`;
    default:
      if (p.final || p.mid)
        return `${what} is stated by the source (${p.final ? 'final_message' : 'mid_transcript'})`;
      return p.tool ? undefined : `${what} is in no tool result of the source`;
  }
}
