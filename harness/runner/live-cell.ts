import type {
  Case,
  Handoff,
  LiveFields,
  ModelRequestInput,
  ModelResponse,
  ModelRole,
  Strategy,
  ToolCall,
  Transcript,
} from '../core/index.ts';
import type { PlannedCell } from './plan.ts';
import { madeCase, type SourceReading } from '../../judges/source-claims.ts';
import { readEachSource } from '../../judges/source-claims-each.ts';
import { getStrategy } from '../../strategies/index.ts';
import { simHintsOf } from '../../strategies/compose.ts';
import { materializeWorld } from '../live/world.ts';
import { diskAccess } from '../live/access.ts';
import { createWorldTools, type WorldTools } from '../live/tools.ts';
import { runSourceLoop, type SourceLoopResult } from '../live/loop.ts';
import { runOwnSourceLoop } from '../live/own-source-loop.ts';
import { liveSimHints } from '../live/edit-hints.ts';
import { withKept, withWorldTools } from '../live/cell-world.ts';
import { parentPrefix } from '../live/inline-prefix.ts';

/**
 * A live cell's part before the strategy runs (docs/live.md): the case's world materialised for this
 * cell, the source agent's tool loop over it (each child's, for several), and the case as the strategy
 * and judges then see it — the live transcript(s) in place of the recording, the labelled assertions
 * cut to those the survival classifier read the live source making, each at the location it was read
 * at (judges/source-claims.ts; no cue match drops or places a claim). A spawned child (direction spawn)
 * does not re-run the parent: it acts itself, with the world's tools next to its handoff's.
 */
export interface LiveCell {
  case: Case;
  /** The "made by the source" stage (absent for spawn: its source is the recorded parent). */
  reading?: SourceReading;
  /** The handoff the receiver gets: a spawned child's gains the world's tools; others are unchanged. */
  receiverHandoff(h: Handoff): Handoff;
  /** The row's live columns, once the receiver's tool calls are known. */
  fields(receiverCalls: readonly ToolCall[]): LiveFields;
  artifacts: Record<string, unknown>;
  close(): void;
}

type Call = (role: ModelRole, request: ModelRequestInput) => Promise<ModelResponse>;

export async function prepareLive(
  cell: PlannedCell,
  strategies: Record<string, Strategy<any>>,
  call: Call,
): Promise<LiveCell | undefined> {
  if (!cell.live) return undefined;
  const c = cell.case;
  const where = `${c.file ?? c.suite} (case ${c.id})`;
  const world = materializeWorld(c.world ?? {}, where, { keep: cell.live.keepWorlds === true });
  const kept = world.kept ? { world_dir: world.root } : {};
  const access = diskAccess(world);
  const live = cell.live;
  try {
    const tools = createWorldTools(access);
    if (c.direction === 'spawn')
      return withKept(
        spawnCell(c, tools, cell.live.budget, () => access.close()),
        kept,
      );
    const notice = getStrategy(cell.armSpec.strategy, strategies).sourceNotice?.(cell.params);
    const loops: SourceLoopResult[] = [];
    for (const recorded of c.sources ?? [c.source])
      loops.push(
        live.source
          ? // The user's own agent (--source): its imported session is the live transcript.
            await runOwnSourceLoop({
              recorded,
              notice,
              source: live.source,
              budget: live.budget,
              worldRoot: world.root,
              worldKey: c.world,
              cacheDir: live.sourceCache ?? null,
              where: `case ${c.id}`,
            })
          : await runSourceLoop({
              recorded,
              tools,
              budget: live.budget,
              ...(live.prompts ? { prompts: live.prompts } : {}),
              notice,
              call: (r) => call('source', r),
              sim: liveSimHints(c, recorded, simHintsOf(c)),
              ...(live.inlinePrefix ? { prefix: parentPrefix(c) } : {}),
            }),
      );
    const transcripts = loops.map((l) => l.transcript);
    // Each source read on its own: a child is credited only with what its own transcript makes.
    const { reading, credited } = await readEachSource((r) => call('judge', r), c, transcripts);
    const made = madeCase(liveCase(c, transcripts), reading.claims);
    return {
      case: made,
      reading,
      receiverHandoff: (h) => h,
      fields: (calls) => ({
        ...loopFields(loops, cell.live!.budget),
        source_assertions: made.assertions.length,
        source_assertions_labelled: c.assertions.length,
        ...receiverFields(c, calls),
        ...kept,
      }),
      artifacts: {
        live: loops.map((l, i) => loopArtifact(l, credited[i] ?? [])),
        ...(live.inlinePrefix ? { liveInline: 'prefix' } : {}),
      },
      close: () => access.close(),
    };
  } catch (err) {
    access.close();
    throw err;
  }
}

function spawnCell(c: Case, tools: WorldTools, budget: number, close: () => void): LiveCell {
  return {
    case: c,
    receiverHandoff: (h) => withWorldTools(h, tools, budget),
    fields: (calls) => ({
      ...loopFields([], budget),
      source_assertions: c.assertions.length,
      source_assertions_labelled: c.assertions.length,
      ...receiverFields(c, calls),
    }),
    artifacts: {},
    close,
  };
}

/** The case with its live sources in place of the recordings. */
function liveCase(c: Case, sources: Transcript[]): Case {
  return { ...c, source: sources[0]!, ...(c.sources ? { sources } : {}) };
}

function loopFields(loops: SourceLoopResult[], budget: number) {
  const sum = (f: (l: SourceLoopResult) => number) => loops.reduce((n, l) => n + f(l), 0);
  return {
    source_mode: 'live' as const,
    source_tool_calls: sum((l) => l.toolCalls),
    source_tool_budget: budget,
    source_tool_errors: sum((l) => l.toolErrors),
    source_tool_refused: sum((l) => l.refused),
    budget_exhausted: loops.some((l) => l.budgetExhausted),
    source_loop_turns: sum((l) => l.turns),
    source_loop_latency_ms: sum((l) => l.latencyMs),
  };
}

function receiverFields(c: Case, calls: readonly ToolCall[]) {
  const patterns = c.reference.orchestration?.calls;
  return {
    receiver_tool_calls: calls.length,
    receiver_span_fetches: calls.filter((x) => x.name === 'fetch_transcript_span').length,
    orchestration_tool_calls:
      c.direction === 'spawn' ? calls.filter((x) => patterns?.some((p) => callMatches(x, p))).length : null,
  };
}

/** A call carries out a pattern when the name is the same and every listed field has that value (null = absent). */
export function callMatches(
  call: Pick<ToolCall, 'name' | 'input'>,
  p: { name: string; input?: Record<string, unknown> },
): boolean {
  if (call.name !== p.name) return false;
  const input = (call.input ?? {}) as Record<string, unknown>;
  return Object.entries(p.input ?? {}).every(
    ([k, v]) => JSON.stringify(input[k] ?? null) === JSON.stringify(v),
  );
}

/** One source's record in the row: its calls, and the labelled claims it was credited with (`assertions`). */
function loopArtifact(l: SourceLoopResult, assertions: string[]) {
  const calls = l.transcript.messages.flatMap((m) => m.toolCalls ?? []);
  const results = new Map(
    l.transcript.messages.flatMap((m) => m.toolResults ?? []).map((r) => [r.callId, r]),
  );
  return {
    transcript: l.transcript.id,
    // An own source (--source) is named, with whether its session came from the source cache.
    ...(l.transcript.meta?.ownSource
      ? { ownSource: l.transcript.meta.ownSource, ownSourceCached: l.transcript.meta.cached }
      : {}),
    toolCalls: l.toolCalls,
    budgetExhausted: l.budgetExhausted,
    stopReason: l.stopReason,
    assertions,
    calls: calls.map((x) => ({
      id: x.id,
      name: x.name,
      input: JSON.stringify(x.input).slice(0, 300),
      isError: results.get(x.id)?.isError ?? false,
      chars: results.get(x.id)?.content.length ?? 0,
    })),
  };
}
