import type { Command } from '../command.ts';
import { existsSync, readFileSync } from 'node:fs';
import { InputError } from '../../core/errors.ts';
import { loadConfig } from '../../config/load-config.ts';
import {
  appendStepSummary,
  evaluateGate,
  parseBaseline,
  readRunFiles,
  renderGateMarkdown,
  resolveGateThresholds,
  type GateVerdict,
} from '../../gate/index.ts';

interface GateArgs {
  dir: string;
  baseline: string;
  config?: string;
}

const exitCodes: Record<GateVerdict, number> = { pass: 0, regression: 1, 'cannot evaluate': 2 };

export const gateCommand: Command<GateArgs> = {
  command: 'gate <dir>',
  describe:
    "Check a run against a baseline with the config's gate thresholds: exit 0 pass, 1 regression, 2 cannot evaluate",
  builder: (y) =>
    y
      .positional('dir', { type: 'string', demandOption: true, describe: 'run directory' })
      .option('baseline', {
        type: 'string',
        demandOption: true,
        describe: 'baseline file (handoff-eval baseline <run-dir>)',
      })
      .option('config', {
        type: 'string',
        describe: 'config file with the gate thresholds (default: ./eval.config.ts)',
      }) as never,
  handler: async (args) => {
    const config = await loadConfig(args.config, {});
    const thresholds = resolveGateThresholds(config.gate, config.configFile);
    if (!existsSync(args.baseline))
      throw new InputError(
        'no_baseline',
        `${args.baseline}: not found (make one with: handoff-eval baseline <run-dir> --out ${args.baseline})`,
      );
    const baseline = parseBaseline(readFileSync(args.baseline, 'utf8'), args.baseline);
    const { rows } = readRunFiles(args.dir);
    const result = evaluateGate(rows, baseline, thresholds);
    const markdown = renderGateMarkdown(result, { baselineFile: args.baseline });
    process.stdout.write(markdown);
    const summaryFile = process.env.GITHUB_STEP_SUMMARY;
    if (summaryFile) appendStepSummary(summaryFile, markdown);
    return exitCodes[result.verdict];
  },
};
