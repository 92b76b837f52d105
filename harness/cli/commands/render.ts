import type { Command } from '../command.ts';
import type { Argv } from 'yargs';
import { numberFlag } from '../../config/numeric-flags.ts';
import type { Case, Direction, Handoff } from '../../core/index.ts';
import { describeError, ProviderError, SubagentContractError } from '../../core/errors.ts';
import { maskSecrets } from '../../core/redact.ts';
import { countTokens, requestTokens } from '../../core/tokens.ts';
import { loadConfig } from '../../config/load-config.ts';
import { createProviders } from '../../providers/index.ts';
import { createCallPath } from '../../calls/call-path.ts';
import { openCacheLazily } from '../../cache/index.ts';
import { allTrailItems } from '../../core/transcript/view.ts';
import { renderMessage } from '../../../strategies/render.ts';
import { trackCalls } from '../../../strategies/compose.ts';
import { renderTarget } from './render-input.ts';
import { listValues } from './flags.ts';

export interface RenderArgs {
  file?: string;
  strategy?: string;
  suite?: string[];
  case?: string[];
  arm?: string;
  param?: string | string[];
  json: boolean;
  provider?: string;
  config?: string;
  task?: string;
  direction?: Direction;
  spawnCall?: string;
  child?: string;
  budgetTokens?: number;
  sourceModel?: string;
  seed?: number;
  rep: number;
  cache: boolean;
}

/** What to render: the file or case, and the strategy or arm with its params. */
function renderInputOptions(yargs: Argv<object>): Argv<object> {
  return yargs
    .positional('file', {
      type: 'string',
      describe: 'a case file, a normalised transcript JSON, or any importable transcript (or --case)',
    })
    .option('strategy', {
      type: 'string',
      describe: "strategy name, registered or the config's (see `list strategies`); or --arm",
    })
    .option('suite', { type: 'string', array: true, describe: "the config's suite of --case / --arm" })
    .option('case', {
      type: 'string',
      array: true,
      describe: "a case of the config's suites, by id (instead of a file)",
    })
    .option('arm', {
      type: 'string',
      describe:
        "an arm of the config's suites (extra arms and sweeps too): its strategy, params and source model",
    })
    .option('param', {
      type: 'string',
      nargs: 1,
      describe: 'strategy param as key=value (repeat the flag for several)',
    })
    .option('json', {
      type: 'boolean',
      default: false,
      describe: 'print {system, messages, tools, stats, artifacts} as JSON',
    });
}

/** How the model-backed strategies' calls are made, and the receiver's side of the handoff. */
function renderCallOptions(yargs: Argv<object>): Argv<object> {
  return yargs
    .option('provider', { type: 'string', describe: 'provider for model-backed strategies (default: sim)' })
    .option('config', { type: 'string', describe: 'config file (model aliases, sim rates, budget)' })
    .option('task', { type: 'string', describe: "the receiver's task (a bare transcript has none)" })
    .option('direction', {
      choices: ['return', 'escalation', 'spawn'] as const,
      describe: 'for a bare transcript (default: spawn for spawn-* strategies, else escalation)',
    })
    .option('spawn-call', {
      type: 'string',
      describe:
        'spawn: the id of the triggering spawn call (default: the first child session, else the first Agent/Task/spawn call)',
    })
    .option('child', {
      type: 'string',
      describe:
        'return: which child session returns (0-based index, agent name or spawning call id; default: the first); the parent up to that call is the receiver history',
    })
    .option('budget-tokens', {
      type: 'string',
      coerce: numberFlag('--budget-tokens', 'positive integer'),
      describe: "the receiver's message budget (default: the config's)",
    })
    .option('cache', {
      type: 'boolean',
      default: true,
      describe: "use the config's response cache for model calls, as run does (--no-cache to bypass)",
    })
    .option('seed', {
      type: 'string',
      coerce: numberFlag('--seed', 'integer'),
      describe: "run seed for the model calls (default: the config's)",
    })
    .option('rep', {
      type: 'string',
      coerce: numberFlag('--rep', 'non-negative integer'),
      default: 0,
      describe: 'repetition index (the sim draws differ per rep)',
    })
    .option('source-model', {
      type: 'string',
      describe: "model alias of the source agent (summaries, contracts; default: the arm's, else large)",
    });
}

/**
 * `handoff-eval render --strategy <name> <file>`: what the receiving agent would see under a strategy —
 * system framing, messages, tools — with the handoff's stats. The file is a case, a normalised
 * transcript (what `import` writes) or any importable transcript. Model-backed strategies (summary,
 * structured-contract, spawn-summary, parity-narration with middle=summarize) call the source model
 * through the same call path as `run` — sim unless --provider says otherwise, the config's response
 * cache unless --no-cache — with the same per-call seeds, so a render reproduces what a run's cell saw.
 */
export const renderCommand: Command<RenderArgs> = {
  command: 'render [file]',
  describe:
    'Show what a receiving agent would see of a transcript (or case) under a strategy, with token counts',
  builder: (yargs: Argv<object>) =>
    renderCallOptions(renderInputOptions(yargs)) as unknown as Argv<RenderArgs>,
  handler: async (args) => {
    const config = await loadConfig(args.config, {
      provider: args.provider,
      cache: args.cache,
      seed: args.seed,
      suite: listValues(args.suite),
      case: listValues(args.case),
    });
    const { c, strategy, params, sourceModel } = await renderTarget(args, config);
    const providers = await createProviders(config);
    // Opened on the first model call: a rendering that calls none leaves no cache directory behind.
    const cache = config.cache.enabled ? openCacheLazily(config.cache.dir) : null;
    try {
      const aliases = { source: sourceModel, receiver: sourceModel };
      const call = createCallPath({ config, providers, cache, runId: 'render', onCall: () => {} }).forCell({
        cellId: `render/${c.id}`,
        caseId: c.id,
        rep: args.rep,
        aliases,
        made: [],
      });
      const arm = { name: args.arm ?? 'render', strategy: strategy.name, params, models: aliases };
      let handoff: Handoff;
      try {
        handoff = await strategy.prepare(
          {
            case: c,
            arm,
            rep: args.rep,
            budgetTokens: args.budgetTokens ?? config.budgetTokens,
            tokens: countTokens,
            call: trackCalls(call),
          },
          params,
        );
      } catch (err) {
        if (err instanceof ProviderError) return modelCallFailed(err, strategy.name, sourceModel, c.id);
        if (!(err instanceof SubagentContractError)) throw err;
        process.stderr.write(
          `handoff-eval render: ${err.message} — in a run this cell is an error row (try another --seed or --rep)\n`,
        );
        return 1;
      }
      const out = renderOutput(c, handoff);
      if (args.json)
        process.stdout.write(`${JSON.stringify({ strategy: strategy.name, params, ...out }, null, 2)}\n`);
      else process.stdout.write(readable(strategy.name, params, out, config.provider.source));
    } finally {
      cache?.close();
      await Promise.all(Object.values(providers).map((p) => p.close?.()));
    }
  },
};

/**
 * A model-backed strategy whose source call failed (a source over the model's context window, a
 * rejected key, an endpoint down after the retries): one line naming the case, strategy and model, exit
 * 2 (bad input for that model) — in a run the cell is an error row with the same reason.
 */
function modelCallFailed(err: ProviderError, strategy: string, model: string, caseId: string): number {
  const hint =
    err.code === 'context_length_exceeded'
      ? ` — the source does not fit the "${model}" model's context window: use --source-model with a larger window, or a strategy that trims (head-tail, parity-narration)`
      : '';
  process.stderr.write(
    `handoff-eval render: ${caseId}: ${strategy}: the ${model} model call failed: ${maskSecrets(describeError(err).message)}${hint}\n`,
  );
  return 2;
}

interface RenderOutput {
  system: string;
  messages: Handoff['messages'];
  tools: Handoff['tools'];
  stats: Record<string, unknown> & { markers: number };
  artifacts: Record<string, unknown>;
}

export function renderOutput(c: Case, h: Handoff): RenderOutput {
  const { markers, ...rest } = h.stats;
  const toolCallsTotal = (c.sources ?? [c.source]).reduce((n, s) => n + allTrailItems(s).length, 0);
  const windowTokens = requestTokens({ system: h.system, messages: h.messages, tools: h.tools });
  return {
    system: h.system,
    messages: h.messages,
    tools: h.tools,
    stats: {
      ...rest,
      markers: markers.length,
      markerList: markers,
      windowTokens,
      toolCallsTotal,
      messages: h.messages.length,
    },
    artifacts: h.artifacts,
  };
}

function readable(
  name: string,
  params: Record<string, unknown>,
  out: RenderOutput,
  provider: string,
): string {
  const s = out.stats as unknown as Record<string, number> & {
    markerList: { text: string; kind: string; dropped: number }[];
  };
  const lines = [
    `=== ${name} ${JSON.stringify(params)}`,
    '',
    '--- system',
    out.system || '(none)',
    '',
    `--- messages (${out.messages.length})`,
  ];
  lines.push(out.messages.length ? out.messages.map(renderMessage).join('\n\n') : '(none)');
  if (out.tools.length) lines.push('', '--- tools', ...out.tools.map((t) => `${t.name}: ${t.description}`));
  lines.push('', '--- stats');
  lines.push(
    `payload: ${s.tokens} tokens, ${s.chars} chars · receiver window before its task: ${s.windowTokens} tokens`,
  );
  lines.push(
    `tool calls visible: ${s.toolCallsVisible} of ${s.toolCallsTotal} · items retained ${s.retained}, dropped ${s.dropped}, in a manifest ${s.manifest}`,
  );
  lines.push(
    `markers: ${s.markers}${s.markerList.map((m) => `\n  - ${m.text}  [${m.kind}, ${m.dropped} dropped]`).join('')}`,
  );
  if (s.calls)
    lines.push(
      `model calls: ${s.calls} (${provider}${provider === 'sim' ? ' — simulated, not a model' : ''}): ${s.inputTokens} in / ${s.outputTokens} out tokens, ${s.latencyMs} ms, ${s.retries} retries, $${s.costUsd.toFixed(4)}`,
    );
  return `${lines.join('\n')}\n`;
}
