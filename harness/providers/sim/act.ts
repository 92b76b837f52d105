import type { ModelRequest, ToolCall } from '../../core/index.ts';
import { readActContext, type ActContext } from './act-context.ts';
import { leadKey, leadsOf, type Lead } from './act-leads.ts';
import { codeLeads, nextChange } from './act-code.ts';
import { groundedClaims, simActReport, unreachablePlaces } from './act-report.ts';
import { readClaim } from '../../core/text/reading.ts';
import { indexText } from '../../core/text/cues.ts';
import type { Assertion } from '../../core/index.ts';
import type { SimLiveRates } from './live-rates.ts';
import { draw } from './rng.ts';
import { sayAsFact, sayClaim, type SimVoice } from './wordings.ts';

/**
 * The sim as a source agent in its own tool loop (purpose `act`; docs/live.md). A seeded policy
 * driven only by its context (act-context.ts): it follows the leads its brief and results show
 * (act-leads.ts), lowest tier first, revealed leads each with probability `followRevealedLead`; it
 * stops when no lead is left or the harness says the budget is spent. Told from its first turn that
 * it must fill coverage.not_searched, it takes one more look before reporting with probability
 * `extraLookWithCoverage` — at a lead it had skipped, else at a place it could not reach.
 *
 * What it may read of the case's labels: nothing while choosing calls. Only the final report
 * (act-report.ts) uses the labelled assertions, to word the claims its own calls ground.
 * Draws are keyed by the session (run seed, case, rep) and the lead, never by round or arm, so
 * two arms whose sources are told the same make the same calls.
 */
export function simAct(
  req: ModelRequest,
  rates: SimLiveRates,
  voice: SimVoice,
): { text: string; toolCalls?: ToolCall[] } {
  const ctx = readActContext(req);
  const session = req.seed.replace(/#\d+$/, '');
  const d = (...key: string[]) => draw(session, 'act', ...key);
  const plan = planOf(ctx, rates, d);
  // The extra look is the last call: what it reveals goes into the report, not into more calls.
  const stopped =
    plan.exhausted || plan.extraLookMade || req.toolChoice?.type === 'none' || ctx.tools.size === 0;
  const grounded = groundedClaims(req, ctx, plan.exhausted);
  if (!stopped) {
    const notes = newNotes(grounded, ctx, rates, d).map((a) => `Noting as I go: ${say(a, req.seed, voice)}`);
    const next = nextCalls(plan.pending, rates);
    if (next.length) return acting(ctx, next, [next.map((l) => l.why).join(' '), ...notes].join('\n'));
    // A writable world: the change its reading supports, then the tests (act-code.ts).
    const change = nextChange(ctx, req.sim?.edits);
    if (change) return acting(ctx, [change], [change.why, ...notes].join('\n'));
    const extra = ctx.coverageNotice && d('extra-look') < rates.extraLookWithCoverage;
    const look = extra ? extraLook(ctx, plan.skipped) : undefined;
    if (look) return acting(ctx, [look], [`${EXTRA_LOOK} ${look.why}`, ...notes].join('\n'));
  }
  // A claim it noted mid-research is said again in the report only with probability restateNoted.
  const unsaid = new Set(
    grounded.filter((a) => notedAlready(a, ctx) && d('restate', a.id) >= rates.restateNoted).map((a) => a.id),
  );
  return {
    text: simActReport(
      req,
      ctx,
      { left: [...plan.pending, ...plan.skipped], exhausted: plan.exhausted, unsaid },
      voice,
    ),
  };
}

const say = (a: Assertion, seed: string, voice: SimVoice) =>
  a.kind === 'confident' ? sayAsFact(a, seed, voice) : sayClaim(a, seed, voice);

/**
 * The claims it notes with its next calls: grounded by its results, not noted before (it reads its own
 * narration for that), each with probability noteWhenFound keyed by the claim — so a claim whose draw
 * fails is never noted, and one whose draw succeeds is noted once, as soon as it is grounded.
 */
function newNotes(
  grounded: Assertion[],
  ctx: ActContext,
  rates: SimLiveRates,
  d: (...k: string[]) => number,
): Assertion[] {
  return grounded.filter((a) => d('note', a.id) < rates.noteWhenFound && !notedAlready(a, ctx));
}

function notedAlready(a: Assertion, ctx: ActContext): boolean {
  if (!ctx.narration.includes('Noting as I go:')) return false;
  return readClaim(indexText(ctx.narration), a).present;
}

/** How the sim narrates its extra look; it reads its own words to know it took it. */
export const EXTRA_LOOK = 'One more look before I write up, so that not_searched is shorter:';

interface Plan {
  pending: Lead[];
  skipped: Lead[];
  exhausted: boolean;
  extraLookMade: boolean;
}

export function planOf(ctx: ActContext, rates: SimLiveRates, d: (...k: string[]) => number): Plan {
  const done = new Set(ctx.history.map((s) => leadKey(s.call)));
  const firstOf = new Map<string, Lead>();
  for (const l of [...leadsOf(ctx), ...codeLeads(ctx)]) if (!firstOf.has(l.key)) firstOf.set(l.key, l);
  const open = [...firstOf.values()].filter((l) => !done.has(l.key));
  const follow = (l: Lead) => l.tier === 1 || d('follow', l.key) < rates.followRevealedLead;
  return {
    pending: open.filter(follow).sort((a, b) => a.tier - b.tier),
    skipped: open.filter((l) => !follow(l)),
    exhausted: ctx.history.some(
      (s) => s.isError && /tool-call budget of \d+ calls is exhausted/.test(s.result),
    ),
    extraLookMade: ctx.narration.includes(EXTRA_LOOK),
  };
}

/** The lowest-tier lead; reads of that tier go together, up to `parallelReads`. */
function nextCalls(pending: Lead[], rates: SimLiveRates): Lead[] {
  const first = pending[0];
  if (!first) return [];
  if (first.call.name !== 'read_file') return [first];
  return pending
    .filter((l) => l.tier === first.tier && l.call.name === 'read_file')
    .slice(0, Math.max(1, rates.parallelReads));
}

/** The extra look: a lead it skipped, else a search for a place its results said it could not reach. */
function extraLook(ctx: ActContext, skipped: Lead[]): Lead | undefined {
  if (skipped.length) return skipped[0];
  if (!ctx.tools.has('search_code')) return undefined;
  const done = new Set(ctx.history.map((s) => leadKey(s.call)));
  for (const place of unreachablePlaces(ctx)) {
    const token = /\(([^)]+)\)|([\w@/.-]{4,})/.exec(place.probe);
    const query = (token?.[1] ?? token?.[2] ?? '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const call = { name: 'search_code', input: { query } };
    if (query && !done.has(leadKey(call)))
      return {
        key: leadKey(call),
        tier: 3,
        call,
        why: `checking whether ${place.text} is in the repository after all.`,
      };
  }
  return undefined;
}

function acting(ctx: ActContext, leads: Lead[], why: string): { text: string; toolCalls: ToolCall[] } {
  const n = ctx.history.length;
  return {
    text: why,
    toolCalls: leads.map((l, i) => ({ id: `act_${String(n + i + 1).padStart(2, '0')}`, ...l.call })),
  };
}
