import type { Command } from '../command.ts';
import { loadConfig } from '../../config/load-config.ts';
import { mergeRuns } from '../../gate/index.ts';

interface MergeArgs {
  dirs: string[];
  out: string;
  config?: string;
  allowMissing: boolean;
}

export const mergeCommand: Command<MergeArgs> = {
  command: 'merge <dirs..>',
  describe: 'Join shard runs (run --shard i/n) of one experiment into one run directory, with every report',
  builder: (y) =>
    y
      .positional('dirs', {
        type: 'string',
        array: true,
        demandOption: true,
        describe: 'shard run directories',
      })
      .option('out', {
        type: 'string',
        demandOption: true,
        describe: 'the merged run directory to create (its name is the run id)',
      })
      .option('config', {
        type: 'string',
        describe:
          'config file for inline strategies (default: ./eval.config.ts); the plan comes from the shards',
      })
      .option('allow-missing', {
        type: 'boolean',
        default: false,
        describe: 'merge even if planned cells are in no shard',
      }) as never,
  handler: async (args) => {
    const config = await loadConfig(args.config, {});
    const m = await mergeRuns(args.dirs, { out: args.out, config, allowMissing: args.allowMissing });
    const from = m.shards.map((s) => `${s.shard ?? 'unsharded'} (${s.rows} rows)`).join(', ');
    process.stdout.write(
      `merged ${m.shards.length} run(s): ${from} → ${m.rows.length} cells, ${m.duplicates} duplicate row(s) dropped\n`,
    );
    if (m.missing === null) process.stderr.write(`merge: missing cells not checked: ${m.planError}\n`);
    else if (m.missing.length > 0)
      process.stderr.write(`merge: ${m.missing.length} planned cell(s) missing: ${m.missing.join(', ')}\n`);
    if (m.unplanned.length > 0)
      process.stderr.write(
        `merge: ${m.unplanned.length} cell(s) not in the current plan: ${m.unplanned.join(', ')}\n`,
      );
    for (const file of m.written) process.stdout.write(`${file}\n`);
    process.stdout.write(`run directory: ${m.dir}\n`);
  },
};
