import type { CommandModule } from 'yargs';
import { InputError } from '../../errors.ts';
import { loadConfig } from '../../config/load-config.ts';
import { loadSuites } from '../../../cases/load.ts';
import { strategies } from '../../../strategies/index.ts';
import { providerNames } from '../../providers/index.ts';
import { criteria } from '../../../judges/criteria/index.ts';
import type { ParamSpec } from '../../types.ts';

interface ListArgs {
  what: string;
  json: boolean;
  config?: string;
}

const kinds = ['strategies', 'suites', 'providers', 'criteria'] as const;

export const listCommand: CommandModule<object, ListArgs> = {
  command: 'list [what]',
  describe: 'List strategies, suites, providers or criteria',
  builder: (y) =>
    y
      .positional('what', { type: 'string', default: 'strategies', describe: kinds.join(' | ') })
      .option('json', { type: 'boolean', default: false })
      .option('config', { type: 'string', describe: 'config file (for suites)' }) as never,
  handler: async (args) => {
    if (!(kinds as readonly string[]).includes(args.what))
      throw new InputError('usage', `list: unknown "${args.what}"; valid: ${kinds.join(', ')}`);
    const items = await collect(args.what as (typeof kinds)[number], args.config);
    if (args.json) process.stdout.write(`${JSON.stringify(items, null, 2)}\n`);
    else for (const item of items) process.stdout.write(`${describe(item)}\n`);
  },
};

type Item = Record<string, unknown> & { id: string };

async function collect(what: (typeof kinds)[number], configPath?: string): Promise<Item[]> {
  switch (what) {
    case 'strategies':
      return Object.values(strategies).map((s) => ({
        id: s.name,
        description: s.description,
        seed: s.seed,
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
      }));
    case 'suites': {
      const config = await loadConfig(configPath, {});
      const suites = await loadSuites(config.casesDir, 'all');
      return suites.map((s) => ({
        id: s.id,
        title: s.title,
        direction: s.direction,
        cases: s.cases.length,
        arms: s.arms.map((a) => a.name),
        baselineArm: s.baselineArm,
        criteria: s.criteria,
      }));
    }
    case 'providers':
      return providerNames().map((id) => ({
        id,
        needs:
          id === 'sim'
            ? 'nothing (offline, deterministic)'
            : id === 'anthropic'
              ? 'ANTHROPIC_API_KEY (ANTHROPIC_BASE_URL optional)'
              : 'OPENAI_API_KEY (OPENAI_BASE_URL optional)',
      }));
    case 'criteria':
      return Object.values(criteria).map((c) => ({ ...c }));
  }
}

function describe(item: Item): string {
  const rest = Object.entries(item)
    .filter(([k]) => k !== 'id')
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join('  ');
  return `${item.id}  ${rest}`;
}
