import type { Assertion, ChatMessage, ModelRequest, ToolCall } from '../../core/index.ts';
import { indexText, lineWithAll } from '../../core/text/cues.ts';
import { readClaim } from '../../core/text/reading.ts';
import { sayClaim, type SimVoice } from './wordings.ts';
import type { SimContext } from './context.ts';
import { draw } from './rng.ts';
import { notSearchedCues } from '../../core/text/signals.ts';
import type { SimRates } from './rates.ts';

/**
 * Filling a structured record by a forced tool call (purpose `contract`). The sim fills it from what
 * its context shows, like a child going back over its own transcript:
 * - each labelled claim it can see goes to a slot by kind: confident → a finding; hedge and open
 *   question → `unresolved` (the statement, with what would settle it); assumption → `assumptions`.
 *   A caveat reaches its proper slot with probability `contractSlotCaveat`; otherwise it is filed as
 *   a verified finding with its qualifier gone (the overstated failure);
 * - provenance: the claim's labelled provenance strings that are visible in its context, else the tool
 *   calls whose results state the claim (read as the reader reads, reading.ts; a reference fact by its
 *   cues — numbers and names of the world); a finding with provenance is `verified`, else `inferred`;
 *   reference facts it can see and has not already filed become findings the same way;
 * - coverage.searched: the tool calls it made that ran (not one refused for the budget); coverage.not_searched: the places its context says were
 *   not searched (a labelled place on a line with a not-searched cue, as a child's "Not searched: …"
 *   report writes it) that none of its calls touched — an absence is invisible, so a child whose
 *   transcript never says what it skipped lists nothing; effort: its tool-call count, and
 *   budget_exhausted when it never wrote a final answer or a call of its was refused for the budget
 *   (live mode);
 * The text of an assumption or an open question is the sim's own wording of it (wordings.ts).
 * Every slot comes from its context: the case's labels only let it recognise what it reads, so an
 * empty context gives an empty contract (which the parent-side guards flag as an early stop).
 * - with probability `contractOmitField` per attempt it omits one required field. It reads rejections
 *   in its context: a field a validator error named is never omitted again, so a retry can succeed.
 * Deterministic per request seed (the call path's seed names the call index, so attempts differ).
 */
export function simContract(req: ModelRequest, ctx: SimContext, rates: SimRates, voice: SimVoice): ToolCall {
  const hints = req.sim;
  const d = (...key: string[]) => draw(req.seed, ...key);
  const attempt = req.messages.reduce(
    (n, m) => n + (m.toolCalls ?? []).filter((c) => c.name === 'research_result').length,
    0,
  );
  const own = ownCalls(req.messages);
  const record: Record<string, unknown> = {
    findings: [] as unknown[],
    assumptions: [] as string[],
    unresolved: [] as unknown[],
    coverage: {
      // Only calls that ran: one refused for the budget looked at nothing (issue 29 item 8).
      searched: own.filter((c) => !c.refused).map((c) => locator(c.call)),
      not_searched: notSearched(hints?.reference.notSearched ?? [], ctx, own),
    },
    effort: {
      tool_calls: own.filter((c) => !c.refused).length,
      budget_exhausted:
        own.some((c) => c.refused) ||
        !req.messages.some(
          (m) =>
            m.role === 'assistant' &&
            m.text &&
            m.text.trim() &&
            !m.toolCalls?.some((c) => c.name === 'research_result'),
        ),
    },
  };
  const findings = record.findings as unknown[];
  for (const a of hints?.assertions ?? []) {
    const m = readClaim(ctx.all, a);
    if (!m.present) continue;
    const provenance = provenanceOf(a.provenance ?? [], (r) => readClaim(indexText(r), a).present, ctx, own);
    if (a.kind === 'confident')
      findings.push({
        claim: a.statement,
        provenance,
        confidence: provenance.length ? 'verified' : 'inferred',
      });
    else if (m.qualified && d('slot', a.id) < rates.contractSlotCaveat)
      fileCaveat(record, a, sayClaim(a, req.seed, voice));
    else findings.push({ claim: a.claim, provenance, confidence: 'verified' });
  }
  const written = () => JSON.stringify(record).toLowerCase();
  for (const f of hints?.reference.facts ?? []) {
    if (f.cues.every((c) => written().includes(c.toLowerCase())) || !lineWithAll(ctx.all, f.cues)) continue;
    const lower = f.cues.map((c) => c.toLowerCase());
    const provenance = provenanceOf([], (r) => lower.every((q) => r.toLowerCase().includes(q)), ctx, own);
    findings.push({ claim: f.text, provenance, confidence: provenance.length ? 'verified' : 'inferred' });
  }
  const omitted = omission(req, rates, attempt, d);
  if (omitted) delete record[omitted];
  return { id: `research_result_${attempt}`, name: 'research_result', input: record };
}

const required = ['findings', 'assumptions', 'unresolved', 'coverage', 'effort'] as const;

/** How the live loop answers a call past the budget (harness/live/loop.ts), as the child reads it. */
const BUDGET_SPENT = /tool-call budget of \d+ calls is exhausted/;

function fileCaveat(record: Record<string, unknown>, a: Assertion, said: string): void {
  if (a.kind === 'assumption') (record.assumptions as string[]).push(said);
  else
    (record.unresolved as unknown[]).push({
      question: said,
      would_settle_it: `a direct check of whether ${a.claim}`,
    });
}

/** Which required field to leave out on this attempt, if any; never one a rejection in context named. */
function omission(
  req: ModelRequest,
  rates: SimRates,
  attempt: number,
  d: (...k: string[]) => number,
): string | undefined {
  if (d('omit', String(attempt)) >= rates.contractOmitField) return undefined;
  const named = new Set<string>();
  for (const m of req.messages)
    for (const r of m.toolResults ?? [])
      if (r.isError) for (const x of r.content.matchAll(/required property '(\w+)'/g)) named.add(x[1]!);
  const candidates = required.filter((f) => !named.has(f));
  if (candidates.length === 0) return undefined;
  return candidates[Math.floor(d('omit-field', String(attempt)) * candidates.length)];
}

interface OwnCall {
  call: ToolCall;
  result: string;
  /** Its result says the tool-call budget was spent and the call never ran (live mode). */
  refused: boolean;
}

/** The tool calls it made in its own session (not earlier attempts at the record), with their results. */
function ownCalls(messages: readonly ChatMessage[]): OwnCall[] {
  const results = new Map<string, string>();
  for (const m of messages) for (const r of m.toolResults ?? []) results.set(r.callId, r.content);
  const out: OwnCall[] = [];
  for (const m of messages) {
    if (m.role !== 'assistant') continue;
    for (const c of m.toolCalls ?? []) {
      if (c.name === 'research_result') continue;
      const result = results.get(c.id) ?? '';
      out.push({ call: c, result, refused: BUDGET_SPENT.test(result) });
    }
  }
  return out;
}

function provenanceOf(
  labelled: readonly string[],
  shows: (result: string) => boolean,
  ctx: SimContext,
  own: OwnCall[],
): string[] {
  const visible = labelled.filter((p) => ctx.all.has(p));
  if (visible.length) return visible;
  return own.filter((c) => shows(c.result)).map((c) => locator(c.call));
}

/** What a call looked at, as a child would cite it: its path, query or url (else the tool name and arguments). */
export function locator(call: ToolCall): string {
  const input = call.input;
  if (typeof input === 'string') return `${call.name}: ${input.slice(0, 100)}`;
  const o = (input ?? {}) as Record<string, unknown>;
  for (const k of ['path', 'file', 'file_path', 'url', 'sql', 'query', 'pattern', 'command', 'table']) {
    if (typeof o[k] === 'string') return `${call.name}: ${(o[k] as string).slice(0, 100)}`;
  }
  return `${call.name}: ${JSON.stringify(o).slice(0, 100)}`;
}

function notSearched(labelled: readonly string[], ctx: SimContext, own: OwnCall[]): string[] {
  const args = own.map((c) => JSON.stringify(c.call.input ?? '').toLowerCase()).join('\n');
  const lines = ctx.all.getLines();
  const stated = (place: string) =>
    lines.some((l) => l.includes(place) && notSearchedCues.some((cue) => l.includes(cue)));
  return labelled.filter((place) => stated(place.toLowerCase()) && !args.includes(place.toLowerCase()));
}
