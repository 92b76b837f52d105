import { existsSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Argv, CommandModule } from 'yargs';
import type { Case, Direction, Handoff, Transcript } from '../../types.ts';
import { InputError, SubagentContractError } from '../../errors.ts';
import { exitState } from '../exit.ts';
import { countTokens, requestTokens } from '../../tokens.ts';
import { loadConfig } from '../../config/load-config.ts';
import { createProviders } from '../../providers/index.ts';
import { createCallPath } from '../../runner/calls.ts';
import { openCache } from '../../cache/index.ts';
import { allTrailItems } from '../../transcript/view.ts';
import { getStrategy } from '../../../strategies/index.ts';
import { resolveParams } from '../../../strategies/define.ts';
import { renderMessage } from '../../../strategies/render.ts';
import { toCase } from '../../../cases/load.ts';
import { readText } from '../../text/read-text.ts';

export interface RenderArgs {
  file: string;
  strategy: string;
  param?: string | string[];
  json: boolean;
  provider?: string;
  config?: string;
  task?: string;
  direction?: Direction;
  spawnCall?: string;
  budgetTokens?: number;
  sourceModel: string;
  seed?: number;
  rep: number;
  cache: boolean;
}

/**
 * `handoff-eval render --strategy <name> <file>`: what the receiving agent would see under a strategy —
 * system framing, messages, tools — with the handoff's stats. The file is a case, a normalised
 * transcript (what `import` writes) or any importable transcript. Model-backed strategies (summary,
 * structured-contract, spawn-summary, parity-narration with middle=summarize) call the source model
 * through the same call path as `run` — sim unless --provider says otherwise, the config's response
 * cache unless --no-cache — with the same per-call seeds, so a render reproduces what a run's cell saw.
 */
export const renderCommand: CommandModule<object, RenderArgs> = {
  command: 'render <file>',
  describe:
    'Show what a receiving agent would see of a transcript (or case) under a strategy, with token counts',
  builder: (yargs: Argv<object>) =>
    yargs
      .positional('file', {
        type: 'string',
        demandOption: true,
        describe: 'a case file, a normalised transcript JSON, or any importable transcript',
      })
      .option('strategy', {
        type: 'string',
        demandOption: true,
        describe: 'strategy name (see `list strategies`)',
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
      })
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
      .option('budget-tokens', {
        type: 'number',
        describe: "the receiver's message budget (default: the config's)",
      })
      .option('cache', {
        type: 'boolean',
        default: true,
        describe: "use the config's response cache for model calls, as run does (--no-cache to bypass)",
      })
      .option('seed', { type: 'number', describe: "run seed for the model calls (default: the config's)" })
      .option('rep', {
        type: 'number',
        default: 0,
        describe: 'repetition index (the sim draws differ per rep)',
      })
      .option('source-model', {
        type: 'string',
        default: 'large',
        describe: 'model alias of the source agent (summaries, contracts)',
      }) as unknown as Argv<RenderArgs>,
  handler: async (args) => {
    const strategy = getStrategy(args.strategy, {}, '--strategy');
    const params = resolveParams(
      strategy,
      parseParams(([] as string[]).concat(args.param ?? [])),
      `--strategy ${strategy.name}`,
    );
    const config = await loadConfig(args.config, {
      provider: args.provider,
      cache: args.cache,
      seed: args.seed,
    });
    const c = await loadInput(args);
    const providers = await createProviders(config);
    const cache =
      config.cache.enabled && strategyCallsModels(strategy.name, params) ? openCache(config.cache.dir) : null;
    try {
      const aliases = { source: args.sourceModel, receiver: args.sourceModel };
      const call = createCallPath({ config, providers, cache, runId: 'render', onCall: () => {} }).forCell({
        cellId: `render/${c.id}`,
        caseId: c.id,
        rep: args.rep,
        aliases,
        made: [],
      });
      const arm = { name: 'render', strategy: strategy.name, params, models: aliases };
      let handoff: Handoff;
      try {
        handoff = await strategy.prepare(
          {
            case: c,
            arm,
            rep: args.rep,
            budgetTokens: args.budgetTokens ?? config.budgetTokens,
            tokens: countTokens,
            call,
          },
          params,
        );
      } catch (err) {
        if (!(err instanceof SubagentContractError)) throw err;
        process.stderr.write(
          `handoff-eval render: ${err.message} — in a run this cell is an error row (try another --seed or --rep)\n`,
        );
        exitState.code = 1;
        return;
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

/** Only strategies that ask for model calls open the response cache (a pure rendering leaves no cache directory behind). */
function strategyCallsModels(name: string, params: Record<string, unknown>): boolean {
  return modelBacked.has(name) || (name === 'parity-narration' && params.middle === 'summarize');
}

const modelBacked = new Set(['summary', 'structured-contract', 'spawn-summary']);

function parseParams(pairs: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of pairs) {
    const at = p.indexOf('=');
    if (at <= 0) throw new InputError('usage', `--param: expected key=value (got "${p}")`);
    out[p.slice(0, at)] = p.slice(at + 1);
  }
  return out;
}

/** A case file, a normalised transcript, or anything `import` reads. */
export async function loadInput(
  args: Pick<RenderArgs, 'file' | 'strategy' | 'task' | 'direction' | 'spawnCall'>,
): Promise<Case> {
  if (!existsSync(args.file)) throw new InputError('not_found', `${args.file}: no such file or directory`);
  const raw = statSync(args.file).isFile() ? parseJson(readText(args.file)) : undefined;
  if (isRecord(raw) && 'source' in raw && 'task' in raw) return caseFromFile(raw, args.file);
  let transcript: Transcript;
  if (isRecord(raw) && Array.isArray(raw.messages) && isRecord(raw.agents))
    transcript = raw as unknown as Transcript;
  else {
    const { importTranscript } = await import('../../importers/index.ts');
    transcript = importTranscript(args.file).transcript;
  }
  const direction: Direction =
    args.direction ?? (args.strategy.startsWith('spawn-') ? 'spawn' : 'escalation');
  return {
    id:
      basename(args.file)
        .replace(/\.[^.]+$/, '')
        .replace(/[^A-Za-z0-9._-]/g, '_') || 'transcript',
    suite: 'render',
    direction,
    task: args.task ?? "(the receiving agent's task follows here)",
    source: transcript,
    ...(direction === 'spawn'
      ? { spawnCallId: args.spawnCall ?? defaultSpawnCall(transcript, args.file) }
      : {}),
    assertions: [],
    reference: { facts: [], caveats: [] },
    criteria: [],
  };
}

async function caseFromFile(raw: Record<string, unknown>, file: string): Promise<Case> {
  const suiteFile = join(dirname(file), '..', 'suite.json');
  const suite = existsSync(suiteFile) ? (parseJson(readText(suiteFile)) as Record<string, unknown>) : {};
  return toCase(raw, file, dirname(file), {
    id: String(suite.id ?? raw.suite ?? 'render'),
    criteria: (suite.criteria as string[]) ?? [],
    direction: (suite.direction as Direction) ?? 'return',
  });
}

function defaultSpawnCall(t: Transcript, file: string): string {
  const child = Object.keys(t.children ?? {})[0];
  if (child) return child;
  const spawn = allTrailItems(t).find((x) => /^(agent|task|spawn)/i.test(x.call.name));
  if (!spawn) throw new InputError('usage', `${file}: no spawn call found; pass --spawn-call <tool call id>`);
  return spawn.call.id;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
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
