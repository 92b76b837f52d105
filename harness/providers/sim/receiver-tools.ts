import type { ModelRequest, ToolCall } from '../../core/index.ts';
import { lineWithAll } from '../../core/text/cues.ts';
import { readContext } from './context.ts';
import type { SimRates } from './rates.ts';
import { draw } from './rng.ts';
import { simChildResearch } from './child-research.ts';

/**
 * The sim receiver's tool use, before it answers (docs/live.md). Two behaviours, each at most once
 * per cell and each keyed by the session (run seed, case, rep), not by the round or the arm:
 * - offered fetch_transcript_span, it reads one tool call of the stored transcript with probability
 *   `fetchSpanWhenOffered` (set from the ledgerline seed, ≈4% of runs) — the first file read its
 *   context lists, else the first call;
 * - offered a tool that carries out the parent's orchestration request (a spawned child in live mode:
 *   the case's `reference.orchestration.calls`), and seeing that request as a live instruction (or
 *   only as reported background), it makes that call with the same probabilities it acts on the
 *   request in its answer (`actOnLiveOrchestration` / `actOnReportedOrchestration`, drawn apart).
 * - offered the world's tools (a spawned child in live mode), it first works on its own task with the
 *   research child's policy (child-research.ts), until no lead is left or its budget is spent.
 * Otherwise undefined: the caller answers in text.
 */
export function simReceiverTools(
  req: ModelRequest,
  rates: SimRates,
): { text: string; toolCalls: ToolCall[] } | undefined {
  const offered = new Set((req.tools ?? []).map((t) => t.name));
  if (offered.size === 0) return undefined;
  const made = new Set(req.messages.flatMap((m) => (m.toolCalls ?? []).map((c) => c.name)));
  const d = (...key: string[]) => draw(req.seed.replace(/#\d+$/, ''), 'receiver-tools', ...key);
  const text = req.messages
    .map((m) => [m.text ?? '', ...(m.toolResults ?? []).map((r) => r.content)].join('\n'))
    .join('\n');
  if (offered.has('fetch_transcript_span') && !made.has('fetch_transcript_span')) {
    const span = spanToFetch(text);
    if (span && d('fetch-span') < rates.live.fetchSpanWhenOffered)
      return {
        text: `Checking the child's ${span.name} call in its transcript before I answer.`,
        toolCalls: [
          {
            id: 'fetch_span_1',
            name: 'fetch_transcript_span',
            input: { ref: span.ref, tool_call_id: span.id },
          },
        ],
      };
  }
  // A spawned child offered the world's tools works on its own task first (child-research.ts).
  const research = simChildResearch(req, rates.live);
  if (research) return research;
  const o = req.sim?.reference.orchestration;
  const carry = o?.calls?.find((c) => offered.has(c.name) && !made.has(c.name));
  if (o && carry) {
    const ctx = readContext(req);
    const live = lineWithAll(ctx.instructions, o.cues) !== undefined;
    const reported = !live && lineWithAll(ctx.all, o.cues) !== undefined;
    const p = live ? rates.actOnLiveOrchestration : reported ? rates.actOnReportedOrchestration : 0;
    if (d('orchestration-call') < p) {
      const input = Object.fromEntries(Object.entries(carry.input ?? {}).filter(([, v]) => v !== null));
      return {
        text: `As requested: ${o.request}.`,
        toolCalls: [{ id: 'orchestration_1', name: carry.name, input }],
      };
    }
  }
  return undefined;
}

/** The stored transcript and the call to read: the first read_file in the listed index, else the first call. */
function spanToFetch(text: string): { ref: string; id: string; name: string } | undefined {
  const index = /^Tool calls: (.*)$/m.exec(text)?.[1];
  if (!index) return undefined;
  const entries = index.split('; ').map((e) => e.trim().split(/\s+/));
  const parse = (parts: string[]) =>
    parts.length >= 3
      ? { ref: parts[0]!, id: parts[1]!, name: parts[2]! }
      : parts.length === 2
        ? { ref: '', id: parts[0]!, name: parts[1]! }
        : undefined;
  const calls = entries.map(parse).filter((x): x is { ref: string; id: string; name: string } => !!x);
  const pick = calls.find((c) => c.name === 'read_file') ?? calls[0];
  if (!pick) return undefined;
  const ref = pick.ref || /Transcripts? \(not inlined\): (\S+)/.exec(text)?.[1]?.replace(/[,—]$/, '') || '';
  return ref ? { ...pick, ref } : undefined;
}
