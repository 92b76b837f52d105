import type { Command } from '../command.ts';
import { existsSync, readFileSync } from 'node:fs';
import { InputError } from '../../core/errors.ts';
import { loadConfig } from '../../config/load-config.ts';
import { configDefaults } from '../../config/defaults.ts';
import {
  appendStepSummary,
  evaluateGate,
  parseBaseline,
  readRunFiles,
  renderGateMarkdown,
  resolveGateThresholds,
  type GateResult,
  type GateVerdict,
  type ResolvedGateThresholds,
} from '../../gate/index.ts';

export interface GateArgs {
  dir: string;
  baseline: string;
  config?: string;
  /** 'config' (the default): the `gate` section of the config file, which must exist; 'default': the built-in thresholds. */
  thresholds?: string;
  likeForLike?: boolean;
}

const exitCodes: Record<GateVerdict, number> = { pass: 0, regression: 1, 'cannot evaluate': 2 };

/**
 * The gate as the CLI runs it, minus the printing: the thresholds (from the named config, the working
 * directory's, or — only when asked for — the defaults), the baseline, the run, the verdict, its
 * Markdown and exit code. A gate that silently fell back to the default thresholds would check less
 * than the project asked for and still say pass, so a missing config is an error (exit 2).
 */
export async function gate(
  args: GateArgs,
  cwd = process.cwd(),
): Promise<{ result: GateResult; markdown: string; code: number; thresholdsFrom: string }> {
  const { thresholds, from } = await gateThresholds(args, cwd);
  if (!existsSync(args.baseline))
    throw new InputError(
      'no_baseline',
      `${args.baseline}: not found (make one with: handoff-eval baseline <run-dir> --out ${args.baseline})`,
    );
  const baseline = parseBaseline(readFileSync(args.baseline, 'utf8'), args.baseline);
  const { rows } = readRunFiles(args.dir);
  const result = evaluateGate(rows, baseline, thresholds, { likeForLike: args.likeForLike ?? false });
  const markdown = renderGateMarkdown(result, { baselineFile: args.baseline, thresholdsFrom: from });
  return { result, markdown, code: exitCodes[result.verdict], thresholdsFrom: from };
}

async function gateThresholds(
  args: GateArgs,
  cwd: string,
): Promise<{ thresholds: ResolvedGateThresholds; from: string }> {
  const mode = args.thresholds ?? 'config';
  if (mode !== 'config' && mode !== 'default')
    throw new InputError('bad_flag', `--thresholds: must be config or default (got ${mode})`);
  if (mode === 'default') {
    if (args.config)
      throw new InputError(
        'usage',
        '--thresholds default: takes no --config (the defaults are used, not a file)',
      );
    return {
      thresholds: resolveGateThresholds({ ...configDefaults.gate, minMean: {} }, null),
      from: 'the default thresholds (--thresholds default)',
    };
  }
  const config = await loadConfig(args.config, {}, cwd);
  if (!config.configFile)
    throw new InputError(
      'usage',
      `gate: no config file in ${cwd} (eval.config.ts, .mts, .js or .mjs): the thresholds come from its \`gate\` section. Name it with --config <file>, or gate with the default thresholds with --thresholds default`,
    );
  return { thresholds: config.gate, from: config.configFile };
}

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
        describe: 'config file with the gate thresholds (default: ./eval.config.ts, which must exist)',
      })
      .option('thresholds', {
        type: 'string',
        default: 'config',
        describe: "'config': the config file's gate section; 'default': the built-in thresholds, no config",
      })
      .option('like-for-like', {
        type: 'boolean',
        default: false,
        describe:
          'do not compare an arm whose strategy, params or models differ from the baseline (cannot evaluate) instead of comparing it by name',
      }) as never,
  handler: async (args) => {
    const { markdown, code, thresholdsFrom } = await gate(args);
    process.stderr.write(`gate: thresholds from ${thresholdsFrom}\n`);
    process.stdout.write(markdown);
    const summaryFile = process.env.GITHUB_STEP_SUMMARY;
    if (summaryFile) appendStepSummary(summaryFile, markdown);
    return code;
  },
};
