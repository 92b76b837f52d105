import type { Command } from '../command.ts';
import { InputError } from '../../core/errors.ts';
import { loadConfig } from '../../config/load-config.ts';
import type { ResolvedConfig } from '../../config/types.ts';
import { checkArm, loadExperiment } from '../../runner/experiment.ts';
import { strategies } from '../../../strategies/index.ts';
import { listValues } from './flags.ts';
import { providerNames } from '../../providers/index.ts';
import { criteria } from '../../../judges/criteria/index.ts';
import { builtinChecks } from '../../../judges/checks.ts';
import type { ParamSpec, Strategy } from '../../core/index.ts';

interface ListArgs {
  what: string;
  json: boolean;
  config?: string;
  suite?: string[];
  arm?: string[];
  case?: string[];
}

const kinds = ['strategies', 'suites', 'arms', 'cases', 'providers', 'criteria', 'checks'] as const;
type Kind = (typeof kinds)[number];

export const listCommand: Command<ListArgs> = {
  command: 'list [what]',
  describe: 'List strategies, suites, arms, cases, providers, criteria or checks',
  builder: (y) =>
    y
      .positional('what', { type: 'string', default: 'strategies', describe: kinds.join(' | ') })
      .option('json', { type: 'boolean', default: false })
      .option('config', {
        type: 'string',
        describe: 'config file (its strategies, suites, extra arms, casesDir)',
      })
      .option('suite', {
        type: 'string',
        array: true,
        describe: 'only these suites (comma list or repeated)',
      })
      .option('arm', { type: 'string', array: true, describe: 'only these arms (comma list or repeated)' })
      .option('case', {
        type: 'string',
        array: true,
        describe: 'only these case ids (comma list or repeated)',
      }) as never,
  handler: async (args) => {
    if (!(kinds as readonly string[]).includes(args.what))
      throw new InputError('usage', `list: unknown "${args.what}"; valid: ${kinds.join(', ')}`);
    const config = await loadConfig(args.config, {
      suite: listValues(args.suite, '--suite'),
      arm: listValues(args.arm, '--arm'),
      case: listValues(args.case, '--case'),
    });
    const items = await collect(args.what as Kind, config);
    if (args.json) process.stdout.write(`${JSON.stringify(items, null, 2)}\n`);
    else for (const item of items) process.stdout.write(`${describe(item)}\n`);
  },
};

type Item = Record<string, unknown> & { id: string };

const providerNeeds: Record<string, string> = {
  sim: 'nothing (offline, deterministic)',
  anthropic: 'ANTHROPIC_API_KEY (ANTHROPIC_BASE_URL optional)',
  openai: 'OPENAI_API_KEY (OPENAI_BASE_URL optional)',
};

async function collect(what: Kind, config: ResolvedConfig): Promise<Item[]> {
  switch (what) {
    case 'strategies':
      return [
        ...Object.values(strategies).map((s) => strategyItem(s, 'registered')),
        ...Object.entries(config.strategies).map(([id, s]) => ({ ...strategyItem(s, 'config'), id })),
      ];
    case 'suites':
      return (await loadExperiment(config)).map((s) => ({
        id: s.id,
        title: s.title,
        direction: s.direction,
        cases: s.cases.length,
        arms: s.arms.map((a) => a.name),
        baselineArm: s.baselineArm,
        criteria: s.criteria,
      }));
    case 'arms':
      return (await loadExperiment(config)).flatMap((s) =>
        s.arms.map((a) => ({
          id: `${s.id}/${a.name}`,
          suite: s.id,
          arm: a.name,
          strategy: a.strategy,
          params: checkArm(a, s, config),
          models: a.models,
          baseline: a.name === s.baselineArm,
        })),
      );
    case 'cases':
      return (await loadExperiment(config)).flatMap((s) =>
        s.cases.map((c) => ({
          id: `${s.id}/${c.id}`,
          suite: s.id,
          case: c.id,
          direction: c.direction,
          title: c.title ?? '',
          assertions: c.assertions.length,
          file: c.file ?? '',
        })),
      );
    case 'providers':
      return providerNames(config).map((id) => ({
        id,
        source: config.providers[id]?.create ? 'config' : 'registered',
        needs: providerNeeds[id] ?? 'whatever its factory in the config needs',
      }));
    case 'criteria':
      return [
        ...Object.values(criteria).map((c) => ({ ...c, source: 'registered' })),
        ...Object.values(config.criteria).map((c) => ({ ...c, source: 'config' })),
      ];
    case 'checks':
      return [
        ...builtinChecks.map((c) => ({ id: c.name, source: 'registered', description: c.description ?? '' })),
        ...config.checks.map((c) => ({ id: c.name, source: 'config', description: c.description ?? '' })),
      ];
  }
}

function strategyItem(s: Strategy<any>, source: 'registered' | 'config'): Item {
  return {
    id: s.name,
    source,
    description: s.description,
    seed: s.seed,
    ...(s.deterministic ? { deterministic: true } : {}),
    params: Object.fromEntries(
      Object.entries(s.params as Record<string, ParamSpec>).map(([k, p]) => [
        k,
        {
          type: p.type,
          default: p.default,
          ...(p.values ? { values: p.values } : {}),
          description: p.description,
        },
      ]),
    ),
  };
}

function describe(item: Item): string {
  const rest = Object.entries(item)
    .filter(([k]) => k !== 'id')
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join('  ');
  return `${item.id}  ${rest}`;
}
