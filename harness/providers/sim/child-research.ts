import type { ChatMessage, ModelRequest, ToolCall } from '../../core/index.ts';
import { readActContext } from './act-context.ts';
import { codeLeads } from './act-code.ts';
import { leadKey, leadsOf, type Lead } from './act-leads.ts';
import type { SimLiveRates } from './live-rates.ts';
import { draw } from './rng.ts';

/**
 * A spawned child's own research (issue 29 item 6, docs/live.md): offered the world's tools next to
 * its handoff's (live mode), the sim child works on its assigned task with the research child's
 * policy (act-leads.ts: the leads its task names, then those its results reveal, revealed ones
 * followed with `followRevealedLead`, reads of one tier `parallelReads` together) until no lead is
 * left or the harness says its tool budget is spent. Its context for this is its task (the last user
 * message before its own calls) and its own calls and results — not the parent's dialogue a handoff
 * may carry (the parent's leads are the parent's). Draws are keyed by the session and the lead, apart
 * from the source's. Undefined when it has nothing (more) to look at: it then answers, or carries out
 * the orchestration request (receiver-tools.ts).
 */
export function simChildResearch(
  req: ModelRequest,
  rates: SimLiveRates,
): { text: string; toolCalls: ToolCall[] } | undefined {
  const offered = new Set((req.tools ?? []).map((t) => t.name));
  if (!offered.has('search_code') || !offered.has('read_file')) return undefined;
  const own = ownSession(req.messages);
  if (!own) return undefined;
  const ctx = readActContext({ ...req, messages: own });
  if (ctx.history.some((s) => /tool-call budget of \d+ calls is exhausted/.test(s.result))) return undefined;
  const d = (...key: string[]) => draw(req.seed.replace(/#\d+$/, ''), 'child-act', ...key);
  const done = new Set(ctx.history.map((s) => leadKey(s.call)));
  const firstOf = new Map<string, Lead>();
  for (const l of [...leadsOf(ctx), ...codeLeads(ctx)]) if (!firstOf.has(l.key)) firstOf.set(l.key, l);
  const pending = [...firstOf.values()]
    .filter((l) => !done.has(l.key) && (l.tier === 1 || d('follow', l.key) < rates.followRevealedLead))
    .sort((a, b) => a.tier - b.tier);
  const first = pending[0];
  if (!first) return undefined;
  const batch =
    first.call.name === 'read_file'
      ? pending
          .filter((l) => l.tier === first.tier && l.call.name === 'read_file')
          .slice(0, Math.max(1, rates.parallelReads))
      : [first];
  const n = ctx.history.length;
  return {
    text: `For my task: ${batch.map((l) => l.why).join(' ')}`,
    toolCalls: batch.map((l, i) => ({ id: `child_${String(n + i + 1).padStart(2, '0')}`, ...l.call })),
  };
}

/**
 * The child's own session: its task — the last user text; after it come only its own tool rounds
 * (its calls, then user messages holding nothing but their results) — and what follows.
 */
function ownSession(messages: readonly ChatMessage[]): ChatMessage[] | undefined {
  let i = messages.length - 1;
  while (i >= 0 && (messages[i]!.role !== 'user' || !messages[i]!.text || messages[i]!.toolResults?.length))
    i--;
  return i >= 0 ? messages.slice(i) : undefined;
}
