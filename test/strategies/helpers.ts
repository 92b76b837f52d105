import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type {
  Case,
  Handoff,
  ModelRequest,
  ModelResponse,
  Provider,
  StrategyContext,
  Transcript,
} from '../../harness/core/index.ts';
import { resolveConfig } from '../../harness/config/resolve-config.ts';
import { createCallPath } from '../../harness/calls/call-path.ts';
import { createSimProvider, type SimOptions } from '../../harness/providers/sim/index.ts';
import { countTokens } from '../../harness/core/tokens.ts';
import { getStrategy } from '../../strategies/index.ts';
import { resolveParams } from '../../strategies/define.ts';
import { toCase } from '../../cases/load.ts';
import { trackCalls } from '../../strategies/compose.ts';

/** A session of these messages and no sub-agents (plus any other transcript fields given). */
export const session = (messages: Transcript['messages'], extra: Partial<Transcript> = {}): Transcript => ({
  messages,
  agents: {},
  ...extra,
});

/** A tool call whose input names its id (distinct calls, distinct inputs). */
export const call = (id: string, name = 'grep') => ({ id, name, input: { q: id } });

/** A case around a transcript (no labels unless given). */
export function caseOf(source: Transcript, extra: Partial<Case> = {}): Case {
  return {
    id: 'c1',
    suite: 'test',
    direction: 'escalation',
    task: 'Continue the work.',
    source,
    assertions: [],
    reference: { facts: [], caveats: [] },
    criteria: [],
    ...extra,
  };
}

export interface CtxOptions {
  budgetTokens?: number;
  rep?: number;
  seed?: number;
  /** A provider standing in for the sim (a scripted one, at the boundary). */
  provider?: Provider;
  sim?: SimOptions;
}

/** A strategy context wired to the real call path (sim provider unless a scripted one is given). */
export function contextFor(c: Case, opts: CtxOptions = {}): StrategyContext & { requests: ModelRequest[] } {
  const config = resolveConfig({ seed: opts.seed ?? 1, cache: false, sim: opts.sim ?? {} });
  const requests: ModelRequest[] = [];
  const inner = opts.provider ?? createSimProvider(opts.sim);
  const provider: Provider = {
    id: 'sim',
    generate: (req, o) => (requests.push(req), inner.generate(req, o)),
  };
  const aliases = { source: 'large', receiver: 'large' };
  const call = createCallPath({
    config,
    providers: { sim: provider },
    cache: null,
    runId: 'test',
    onCall: () => {},
  }).forCell({ cellId: `test/${c.id}`, caseId: c.id, rep: opts.rep ?? 0, aliases, made: [] });
  return {
    case: c,
    arm: { name: 'a', strategy: 's', models: aliases },
    rep: opts.rep ?? 0,
    budgetTokens: opts.budgetTokens ?? 200_000,
    tokens: countTokens,
    call: trackCalls(call),
    requests,
  };
}

export async function prepare(
  name: string,
  c: Case,
  params: Record<string, unknown> = {},
  opts: CtxOptions = {},
): Promise<Handoff> {
  const strategy = getStrategy(name);
  return strategy.prepare(contextFor(c, opts), resolveParams(strategy, params));
}

/** A provider that replays scripted responses (the boundary fake for retry paths). */
export function scriptedProvider(
  script: ((req: ModelRequest) => Partial<ModelResponse>)[],
): Provider & { seen: ModelRequest[] } {
  const seen: ModelRequest[] = [];
  return {
    id: 'scripted',
    seen,
    async generate(req) {
      seen.push(req);
      const step = script[Math.min(seen.length - 1, script.length - 1)]!;
      return {
        text: '',
        toolCalls: [],
        stopReason: 'end_turn',
        usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 },
        latencyMs: 7,
        model: req.model,
        cached: false,
        retries: 0,
        costUsd: 0,
        ...step(req),
      };
    },
  };
}

const fixture = fileURLToPath(new URL('../fixtures/cases/mini/cases/deprecation-1.json', import.meta.url));

/** The mini fixture's ledgerline-shaped case (a research child returning to its parent). */
export async function miniCase(): Promise<Case> {
  return toCase(
    JSON.parse(readFileSync(fixture, 'utf8')),
    fixture,
    fileURLToPath(new URL('../fixtures/cases/mini/cases/', import.meta.url)),
    { id: 'mini', criteria: ['correctness'], direction: 'return' },
  );
}

export const miniCaseFile = fixture;
