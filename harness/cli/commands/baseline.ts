import type { Command } from '../command.ts';
import { writeFileAtomic } from '../../core/atomic-write.ts';
import { createBaseline, readRunFiles, renderBaseline } from '../../gate/index.ts';

interface BaselineArgs {
  dir: string;
  out: string;
}

export const baselineCommand: Command<BaselineArgs> = {
  command: 'baseline <dir>',
  describe:
    'Write a reviewable baseline (summary statistics + per-cell scores, no transcripts) from a run, for `gate`',
  builder: (y) =>
    y.positional('dir', { type: 'string', demandOption: true, describe: 'run directory' }).option('out', {
      type: 'string',
      default: 'baseline.json',
      describe: 'baseline file to write',
    }) as never,
  handler: (args) => {
    const baseline = createBaseline(readRunFiles(args.dir).rows);
    writeFileAtomic(args.out, renderBaseline(baseline));
    const arms = baseline.suites.reduce((n, s) => n + s.arms.length, 0);
    const cells = baseline.suites.reduce((n, s) => n + s.arms.reduce((m, a) => m + a.cells, 0), 0);
    const id = baseline.identity;
    process.stdout.write(
      `${args.out}: ${baseline.suites.length} suite(s), ${arms} arm(s), ${cells} cells · run ${id.runId} · seed ${id.seed} · harness ${id.harnessVersion}\n`,
    );
  },
};
