import type { Command } from '../command.ts';
import { mkdirSync } from 'node:fs';
import { writeFileAtomic } from '../../core/atomic-write.ts';
import { join } from 'node:path';
import type { Argv } from 'yargs';
import { InputError } from '../../core/errors.ts';
import { numberFlag } from '../../config/numeric-flags.ts';
import {
  importAll,
  importFormats,
  importTranscript,
  readPipe,
  type ImportFormat,
  type ImportOptions,
  type SessionImport,
} from '../../importers/index.ts';

export interface ImportArgs {
  file: string;
  from: ImportFormat | 'auto';
  out?: string;
  stats: boolean;
  all: boolean;
  instance?: string;
  sample?: number;
}

/**
 * `handoff-eval import <file|dir>`: a real transcript → normalised Transcript JSON.
 * stdout carries exactly one JSON value — the transcript, or with --stats the stats — so it pipes
 * into jq; a note about a written --out file goes to stderr. With --all, every session of a file or
 * folder: one file each in the --out folder, and with --stats one JSON line per session.
 */
export const importCommand: Command<ImportArgs> = {
  command: 'import <file>',
  describe: `Convert a real agent transcript (${importFormats.join(', ')}) to the normalised form`,
  builder: (yargs: Argv<object>) =>
    yargs
      .positional('file', {
        type: 'string',
        demandOption: true,
        describe: 'Transcript file, a Claude Code session directory, or (with --all) any folder of them',
      })
      .option('from', {
        choices: ['auto', ...importFormats] as const,
        default: 'auto' as const,
        describe: 'Input format',
      })
      .option('out', {
        type: 'string',
        describe: 'Write the normalised transcript JSON here instead of stdout (with --all: a folder)',
      })
      .option('stats', {
        type: 'boolean',
        default: false,
        describe: 'Print the import stats (one JSON object; with --all one line per session)',
      })
      .option('all', {
        type: 'boolean',
        default: false,
        describe:
          'Every session: each instance/sample/element of the file, each session file of a folder (named by instance id)',
      })
      .option('instance', {
        type: 'string',
        describe:
          'Which session of a multi-session file: OpenHands instance_id, record or element index (default: first)',
      })
      .option('sample', {
        type: 'string',
        coerce: numberFlag('--sample', 'non-negative integer'),
        describe: 'inspect_ai: 0-based sample index (default 0)',
      }) as unknown as Argv<ImportArgs>,
  handler: async (args) => {
    // A pipe (`import <(cat f)`) or FIFO is read once up front, with a deadline and signals honoured.
    await readPipe(args.file);
    return args.all ? importEvery(args) : importOne(args);
  },
};

function importOne(args: ImportArgs): void {
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
}

/**
 * Every session, each written as soon as it is imported; a session that fails is one stderr line and
 * exit 2 at the end — the others are still written.
 */
function importEvery(args: ImportArgs): number {
  if (args.instance !== undefined || args.sample !== undefined)
    throw new InputError('usage', '--all imports every session; drop --instance/--sample');
  if (args.out === undefined && !args.stats)
    throw new InputError('usage', '--all needs --out <folder> (one file per session) or --stats');
  if (args.out !== undefined) mkdirSync(args.out, { recursive: true });
  const sessions = importAll(args.file, args.from);
  const names = new Set<string>();
  let failed = 0;
  for (const s of sessions) {
    if (s.error) {
      failed++;
      process.stderr.write(`handoff-eval: ${s.error.message}\n`);
      if (args.stats)
        process.stdout.write(
          `${JSON.stringify({ session: s.name, file: s.file, error: s.error.message })}\n`,
        );
      continue;
    }
    const name = uniqueFileName(s.name, names);
    if (args.out !== undefined)
      writeFileAtomic(join(args.out, name), `${JSON.stringify(s.result!.transcript, null, 2)}\n`);
    if (args.stats) process.stdout.write(`${JSON.stringify(statsLine(s, name))}\n`);
  }
  const ok = sessions.length - failed;
  if (args.out !== undefined)
    process.stderr.write(
      `wrote ${ok} session${ok === 1 ? '' : 's'} to ${args.out}${failed ? `; ${failed} failed` : ''}\n`,
    );
  return failed > 0 ? 2 : 0;
}

function statsLine(s: SessionImport, name: string): Record<string, unknown> {
  return { session: s.name, file: s.file, out: name, ...s.result!.stats };
}

/** A file name from a session name: path-safe, unique in the folder. */
function uniqueFileName(name: string, taken: Set<string>): string {
  const base = name.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 120) || 'session';
  let out = `${base}.json`;
  for (let n = 2; taken.has(out); n++) out = `${base}-${n}.json`;
  taken.add(out);
  return out;
}
