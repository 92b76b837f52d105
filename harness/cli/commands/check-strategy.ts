import type { Command } from '../command.ts';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadConfig } from '../../config/load-config.ts';
import { getStrategy } from '../../../strategies/index.ts';
import { checkStrategy, shippedCases } from '../../kit/check-strategy.ts';
import { renderCheckReport } from '../../kit/format.ts';
import { listValues, parseParams } from './flags.ts';
import { numberFlag } from '../../config/numeric-flags.ts';

interface CheckArgs {
  strategy: string;
  config?: string;
  param?: string | string[];
  transcripts?: string[];
  cases?: string[];
  generated?: number;
  seed?: number;
  variants: boolean;
  json: boolean;
}

/**
 * `handoff-eval check-strategy --strategy NAME [--config F]`: the invariants the reference strategies
 * are held to (harness/kit/check-strategy.ts), run on a registered strategy or one the config defines.
 * Exit 0 when every invariant holds, 1 on a failure (each printed with its input and the offending
 * message), 2 on bad input (an unknown strategy, a malformed one, an unreadable transcript).
 */
export const checkStrategyCommand: Command<CheckArgs> = {
  command: 'check-strategy',
  describe: 'Check a strategy against the invariants the reference strategies are held to',
  builder: (y) =>
    y
      .option('strategy', {
        type: 'string',
        demandOption: true,
        describe: 'strategy name (registered or in the config)',
      })
      .option('config', {
        type: 'string',
        describe: 'config file defining the strategy (default: ./eval.config.ts)',
      })
      .option('param', {
        type: 'string',
        nargs: 1,
        describe:
          'check only these params, as key=value (repeat the flag); default: the defaults and each other enum/boolean value',
      })
      .option('transcripts', {
        type: 'string',
        array: true,
        describe: 'real transcripts (files or folders, comma lists) instead of the shipped ones',
      })
      .option('cases', {
        type: 'string',
        array: true,
        describe:
          "cases directories whose suites' cases are inputs (default: the shipped cases/ and the config's casesDir)",
      })
      .option('generated', {
        type: 'string',
        coerce: numberFlag('--generated', 'non-negative integer'),
        describe: 'generated sessions (default 12)',
      })
      .option('seed', {
        type: 'string',
        coerce: numberFlag('--seed', 'integer'),
        describe: 'seed of the generated sessions and the sim (default 1)',
      })
      .option('variants', {
        type: 'boolean',
        default: true,
        describe:
          'also check each other value of every enum and boolean param (--no-variants: the defaults only)',
      })
      .option('json', { type: 'boolean', default: false, describe: 'print the report as JSON' }) as never,
  handler: async (args) => {
    const config = await loadConfig(args.config, {});
    const strategy = getStrategy(args.strategy, config.strategies, '--strategy');
    const given = ([] as string[]).concat(args.param ?? []);
    const cases = listValues(args.cases);
    // The config's own suites are inputs too, beside the shipped ones.
    const own = resolve(config.casesDir);
    const casesDirs = cases.length
      ? cases
      : [shippedCases, ...(existsSync(own) && own !== resolve(shippedCases) ? [own] : [])];
    const report = await checkStrategy(strategy, {
      ...(given.length ? { params: parseParams(given) } : {}),
      variants: args.variants,
      transcripts: args.transcripts ? listValues(args.transcripts) : undefined,
      casesDirs,
      generated: args.generated,
      seed: args.seed,
      sim: config.sim,
    });
    process.stdout.write(args.json ? `${JSON.stringify(report, null, 2)}\n` : renderCheckReport(report));
    return report.passed ? 0 : 1;
  },
};
