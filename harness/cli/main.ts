import yargs from 'yargs';
import { InputError } from '../core/errors.ts';
import { commands } from './commands/index.ts';
import { register } from './command.ts';
import { harnessVersion } from '../version.ts';

/**
 * The CLI. Exit codes (docs/ci.md): 0 success, 1 a gate regression (render: an invalid contract), 2 bad
 * input (one line naming the file and the field) or gate cannot evaluate, 3 a run whose error rows
 * exceed maxErrorRate, 4 a run stopped by a provider error that would fail every call, 130
 * interrupted. Only this layer sets the exit code.
 */
/** Single-value flags given twice keep their last value instead of becoming an array no command expects. */
const singleValued = [
  'config',
  'out',
  'provider',
  'reps',
  'seed',
  'concurrency',
  'shard',
  'resume',
  'baseline',
  'format',
  'from',
  'strategy',
  'task',
];

function lastValueWins(argv: Record<string, unknown>): void {
  for (const key of singleValued) {
    const v = argv[key];
    if (Array.isArray(v)) argv[key] = v[v.length - 1];
  }
}

export async function main(argv: string[]): Promise<number> {
  // The exit code of this invocation, as the command's handler returned it (no state shared between calls).
  let code = 0;
  const done = (c: number) => void (code = c);
  let cli = yargs(argv)
    .scriptName('handoff-eval')
    .usage('$0 <command> [options]')
    .strict()
    .middleware(lastValueWins, true)
    .demandCommand(1, 'name a command (see --help)')
    .recommendCommands()
    .help()
    .alias('h', 'help')
    .version(harnessVersion)
    .wrap(Math.min(110, process.stdout.columns ?? 100))
    .fail((msg, err) => {
      throw err ?? new InputError('usage', msg);
    });
  for (const command of commands) cli = register(cli, command, done);
  try {
    await cli.parseAsync();
    return code;
  } catch (err) {
    // yargs re-throws what a flag's coerce threw (a checked numeric flag) as a YError with its message.
    if (err instanceof InputError || (err as Error)?.name === 'YError') {
      process.stderr.write(`handoff-eval: ${(err as Error).message}\n`);
      return 2;
    }
    const e = err as Error;
    process.stderr.write(`handoff-eval: internal error: ${e?.stack ?? String(err)}\n`);
    return 2;
  }
}
