import { writeFileAtomic } from '../../atomic-write.ts';
import type { Argv, CommandModule } from 'yargs';
import {
  importFormats,
  importTranscript,
  type ImportFormat,
  type ImportOptions,
} from '../../importers/index.ts';

export interface ImportArgs {
  file: string;
  from: ImportFormat | 'auto';
  out?: string;
  stats: boolean;
  instance?: string;
  sample?: number;
}

/**
 * `handoff-eval import <file|dir>`: a real transcript → normalised Transcript JSON.
 * stdout carries exactly one JSON value — the transcript, or with --stats the stats — so it pipes
 * into jq; a note about a written --out file goes to stderr.
 */
export const importCommand: CommandModule<object, ImportArgs> = {
  command: 'import <file>',
  describe:
    'Convert a real agent transcript (Claude Code, OpenAI, Anthropic, SWE-agent, OpenHands, inspect_ai) to the normalised form',
  builder: (yargs: Argv<object>) =>
    yargs
      .positional('file', {
        type: 'string',
        demandOption: true,
        describe: 'Transcript file, or a Claude Code session directory',
      })
      .option('from', {
        choices: ['auto', ...importFormats] as const,
        default: 'auto' as const,
        describe: 'Input format',
      })
      .option('out', {
        type: 'string',
        describe: 'Write the normalised transcript JSON here instead of stdout',
      })
      .option('stats', {
        type: 'boolean',
        default: false,
        describe: 'Print the import stats (one JSON object) instead of the transcript',
      })
      .option('instance', {
        type: 'string',
        describe: 'OpenHands: instance_id or 0-based index of the EvalOutput line (default: first)',
      })
      .option('sample', {
        type: 'number',
        describe: 'inspect_ai: 0-based sample index (default 0)',
      }) as unknown as Argv<ImportArgs>,
  handler: (args) => {
    const options: ImportOptions = { from: args.from };
    if (args.instance !== undefined) options.instance = args.instance;
    if (args.sample !== undefined) options.sample = args.sample;
    const { transcript, stats } = importTranscript(args.file, options);
    if (args.out !== undefined) {
      writeFileAtomic(args.out, `${JSON.stringify(transcript, null, 2)}\n`);
      process.stderr.write(
        `wrote ${args.out}: ${stats.messages} messages, ${stats.toolCalls} tool calls, ${stats.children} children\n`,
      );
    }
    if (args.stats) process.stdout.write(`${JSON.stringify(stats)}\n`);
    else if (args.out === undefined) process.stdout.write(`${JSON.stringify(transcript, null, 2)}\n`);
  },
};
