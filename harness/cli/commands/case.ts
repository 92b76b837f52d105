import { writeFileAtomic } from '../../atomic-write.ts';
import type { Argv, CommandModule } from 'yargs';
import { importFormats, type ImportFormat } from '../../importers/index.ts';
import { scaffoldCase } from '../../../cases/scaffold.ts';
import type { Direction } from '../../types.ts';

interface CaseArgs {
  transcript: string;
  task: string;
  direction: Direction;
  from: ImportFormat | 'auto';
  call?: string;
  id?: string;
  out?: string;
}

const fromSession: CommandModule<object, CaseArgs> = {
  command: 'from-session <transcript>',
  describe: 'Scaffold a case file from a real session (assertions left for a person to label)',
  builder: (y: Argv<object>) =>
    y
      .positional('transcript', {
        type: 'string',
        demandOption: true,
        describe: 'a transcript file or Claude Code session directory (any importable format)',
      })
      .option('task', { type: 'string', demandOption: true, describe: 'what the receiving agent is asked' })
      .option('direction', {
        choices: ['escalation', 'return', 'spawn'] as const,
        default: 'escalation' as const,
        describe: 'which handoff the case replays',
      })
      .option('from', {
        choices: ['auto', ...importFormats] as const,
        default: 'auto' as const,
        describe: 'input format',
      })
      .option('call', {
        type: 'string',
        describe: 'return/spawn: the spawning tool call id (default: the first one)',
      })
      .option('id', { type: 'string', describe: 'case id (default: from the file name)' })
      .option('out', {
        type: 'string',
        describe: 'write the case here (default: stdout)',
      }) as unknown as Argv<CaseArgs>,
  handler: (args) => {
    const c = scaffoldCase({
      file: args.transcript,
      task: args.task,
      direction: args.direction,
      from: args.from,
      call: args.call,
      id: args.id,
    });
    const text = `${JSON.stringify(c, null, 2)}\n`;
    if (args.out) {
      writeFileAtomic(args.out, text);
      const n = (c.provenance as { suggestions: unknown[] }).suggestions.length;
      process.stderr.write(
        `wrote ${args.out}: label its assertions and reference (${n} suggested statements in provenance.suggestions)\n`,
      );
    } else process.stdout.write(text);
  },
};

/** `handoff-eval case <subcommand>`: tools for writing cases. */
export const caseCommand: CommandModule<object, object> = {
  command: 'case <subcommand>',
  describe: 'Case tools: `case from-session <transcript> --task "…"` scaffolds a case from a real session',
  builder: (y) => y.command(fromSession as never).demandCommand(1, 'name a subcommand: from-session'),
  handler: () => undefined,
};
