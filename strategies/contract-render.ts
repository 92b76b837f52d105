import type { ToolCall, ToolSpec, Transcript, TruncationMarker } from '../harness/core/index.ts';
import { countTokens } from '../harness/core/tokens.ts';
import { allTrailItems } from '../harness/core/transcript/view.ts';
import { formatArgs } from './render.ts';
import type { ResearchResult } from './contract-schema.ts';
import type { GuardFlag } from './contract-guards.ts';

/**
 * The parent's view of a contract: a deterministic rendering (ledgerline: "render_for_parent(result)
 * # ~1.2k tokens, never the transcript"). Every caveat carries its qualifier as the label heading its
 * line, so it cannot be read as fact: `- ASSUMPTION (not verified): …`, `- UNRESOLVED (could not
 * determine): … — would settle it: …`, `- INFERRED (unverified): …`; every finding shows its confidence
 * and provenance; guard corrections are listed. Over `budgetTokens` only the index-like lists shrink
 * (what was searched, the tool-call index), each with a marker — never a finding or a caveat.
 */
export interface ContractRenderOptions {
  /** Who returned it ("the research child", "3 research children"). */
  from: string;
  budgetTokens: number;
  flags: GuardFlag[];
  /** Refs served by fetch_transcript_span, with the calls each holds. */
  transcripts?: { ref: string; transcript: Transcript }[];
}

/** A rendered contract: its text and the markers placed in it. */
export interface ContractRendering {
  text: string;
  markers: TruncationMarker[];
}

const label = {
  verified: 'VERIFIED',
  inferred: 'INFERRED (unverified)',
  reported: 'REPORTED (unverified, as the source asserted it)',
} as const;

/**
 * A research_result as the text the parent reads: findings with provenance and confidence (unverified ones
 * marked), assumptions, open questions, what was and was not searched, lists capped with markers.
 */
export function renderContract(r: ResearchResult, opts: ContractRenderOptions): ContractRendering {
  let searched = r.coverage.searched ?? [];
  const refs = opts.transcripts ?? [];
  let index = refs.flatMap(({ ref, transcript }) =>
    allTrailItems(transcript).map((x) => `${refs.length > 1 ? `${ref} ` : ''}${x.call.id} ${x.call.name}`),
  );
  const build = (s: string[], idx: string[]) => compose(r, opts, s, idx);
  const fits = () => countTokens(build(searched, index).join('\n')) <= opts.budgetTokens;
  const fullIndex = index.length;
  const fullSearched = searched.length;
  while (!fits() && index.length > 0) index = index.slice(0, Math.floor(index.length / 2));
  while (!fits() && searched.length > 0) searched = searched.slice(0, Math.floor(searched.length / 2));
  const markers: TruncationMarker[] = [];
  if (index.length < fullIndex)
    markers.push({
      text: listMarker(fullIndex - index.length, 'tool calls in the index'),
      kind: 'span',
      dropped: fullIndex - index.length,
    });
  if (searched.length < fullSearched)
    markers.push({
      text: listMarker(fullSearched - searched.length, 'searched locations'),
      kind: 'span',
      dropped: fullSearched - searched.length,
    });
  const out = build(searched, index);
  return { text: out.join('\n'), markers };
}

/** The marker after a list cut to its cap: how many more entries the transcript holds. */
export const listMarker = (n: number, what: string) => `(${n} more ${what} not listed — see the transcript)`;

function compose(
  r: ResearchResult,
  opts: ContractRenderOptions,
  searched: string[],
  index: string[],
): string[] {
  return [
    `research_result returned by ${opts.from} (a structured record; the transcript is not inlined)`,
    '',
    ...findingLines(r, opts),
    ...openLines(r),
    ...coverageLines(r, searched),
    ...checkLines(opts),
    ...transcriptLines(opts, index),
  ];
}

/** Each finding with its confidence label, provenance and any guard flag on its claim. */
function findingLines(r: ResearchResult, opts: ContractRenderOptions): string[] {
  const lines = [`Findings (${r.findings.length}):`];
  if (r.findings.length === 0) lines.push('- (none)');
  for (const f of r.findings) {
    const flag = opts.flags
      .filter((x) => x.claim === f.claim)
      .map((x) => ` [check: ${x.detail}]`)
      .join('');
    lines.push(
      `- ${label[f.confidence] ?? String(f.confidence).toUpperCase()}: ${f.claim} — provenance: ${f.provenance.length ? f.provenance.join('; ') : '(none given)'}${flag}`,
    );
  }
  return lines;
}

/** Assumptions and unresolved questions, each marked as what it is. */
function openLines(r: ResearchResult): string[] {
  const lines = ['', 'Assumptions (taken as true to proceed; not verified):'];
  if (r.assumptions.length === 0) lines.push('- (none stated)');
  for (const a of r.assumptions) lines.push(`- ASSUMPTION (not verified): ${a}`);
  lines.push('', 'Unresolved:');
  if (r.unresolved.length === 0) lines.push('- (none stated)');
  for (const u of r.unresolved)
    lines.push(
      `- UNRESOLVED (could not determine): ${text(u.question)} — would settle it: ${text(u.would_settle_it)}`,
    );
  return lines;
}

/** What was searched (capped, with a marker), what was not, and the effort spent. */
function coverageLines(r: ResearchResult, searched: string[]): string[] {
  const notSearched = r.coverage.not_searched;
  return [
    '',
    'Coverage:',
    `- searched (${r.coverage.searched?.length ?? 0}): ${searched.length ? searched.join('; ') : '(none listed)'}${searched.length < (r.coverage.searched?.length ?? 0) ? ` ${listMarker((r.coverage.searched?.length ?? 0) - searched.length, 'searched locations')}` : ''}`,
    `- NOT SEARCHED: ${notSearched === undefined ? '(not stated)' : notSearched.length ? notSearched.join('; ') : '(nothing listed)'}`,
    '',
    `Effort: ${r.effort.tool_calls ?? '(not stated)'} tool calls; budget exhausted: ${r.effort.budget_exhausted === true ? 'YES — the child may have stopped early' : r.effort.budget_exhausted === false ? 'no' : '(not stated)'}`,
  ];
}

/** Guard flags that concern no single claim. */
function checkLines(opts: ContractRenderOptions): string[] {
  const general = opts.flags.filter((x) => x.claim === undefined);
  if (!general.length) return [];
  return ['', 'Parent-side checks:', ...general.map((g) => `- CHECK ${g.guard}: ${g.detail}`)];
}

/** The transcripts' refs and the tool-call index the receiver can fetch spans from. */
function transcriptLines(opts: ContractRenderOptions, index: string[]): string[] {
  const refs = opts.transcripts ?? [];
  if (!refs.length) return [];
  const lines = [
    '',
    `Transcript${refs.length > 1 ? 's' : ''} (not inlined): ${refs.map((x) => x.ref).join(', ')} — call fetch_transcript_span(ref, tool_call_id) to read one tool call with its full input and result.`,
  ];
  const total = refs.reduce((n, x) => n + allTrailItems(x.transcript).length, 0);
  if (index.length)
    lines.push(
      `Tool calls: ${index.join('; ')}${index.length < total ? ` ${listMarker(total - index.length, 'tool calls in the index')}` : ''}`,
    );
  else if (total) lines.push(listMarker(total, 'tool calls in the index'));
  return lines;
}

function text(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/**
 * The fetch_transcript_span tool: the receiver reads a span of the child's stored transcript on demand
 * (served by createSpanServer).
 */
export const fetchTranscriptSpanSpec: ToolSpec = {
  name: 'fetch_transcript_span',
  description:
    "Read one tool call of a returned child's transcript (stored, not inlined): its full input and its result.",
  inputSchema: {
    type: 'object',
    required: ['ref', 'tool_call_id'],
    properties: {
      ref: { type: 'string', description: 'the transcript_ref of a research_result' },
      tool_call_id: { type: 'string', description: 'the id of a tool call in that transcript' },
    },
  },
};

/** Serves fetch_transcript_span from the stored transcripts (deterministic, no model). */
export function createSpanServer(
  stored: { ref: string; transcript: Transcript }[],
): (call: ToolCall) => string {
  const byRef = new Map(stored.map((s) => [s.ref, s.transcript] as const));
  return (call) => {
    if (call.name !== fetchTranscriptSpanSpec.name)
      return `error: unknown tool "${call.name}"; available: ${fetchTranscriptSpanSpec.name}`;
    const input = (call.input ?? {}) as { ref?: unknown; tool_call_id?: unknown };
    const t = byRef.get(String(input.ref));
    if (!t)
      return `error: unknown transcript_ref "${String(input.ref)}"; known: ${[...byRef.keys()].join(', ')}`;
    const items = allTrailItems(t);
    const item = items.find((x) => x.call.id === String(input.tool_call_id));
    if (!item)
      return `error: no tool call "${String(input.tool_call_id)}" in ${String(input.ref)}; ids: ${items.map((x) => x.call.id).join(', ')}`;
    const result = item.result
      ? `${item.result.isError ? '(error) ' : ''}${item.result.content}`
      : '(no result recorded)';
    return `${item.agent ?? 'child'} called ${item.call.name}(${formatArgs(item.call.input)})\nresult:\n${result}`;
  };
}
