import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';

/**
 * A CLI command: yargs' command module whose handler returns the exit code it asks for (nothing = 0:
 * gate 1 on a regression, run 3 or 4 or 130, …). No command sets a shared exit state; `main` returns
 * what the handler returned. `subcommands` are registered under it the same way.
 */
export interface Command<A = any> extends Omit<CommandModule<object, A>, 'handler'> {
  handler: (args: ArgumentsCamelCase<A>) => number | void | Promise<number | void>;
  subcommands?: Command<any>[];
}

/**
 * Registers a command (and its subcommands) with yargs, handing each handler's exit code to `done`:
 * the one place a command's result becomes the process's exit code (through `main`'s return value).
 */
export function register(cli: Argv<any>, command: Command, done: (code: number) => void): Argv<any> {
  const { subcommands, handler, builder, ...rest } = command;
  return cli.command({
    ...rest,
    builder: (y: Argv<any>) => {
      let out = typeof builder === 'function' ? builder(y) : builder ? y.options(builder) : y;
      for (const sub of subcommands ?? []) out = register(out as Argv<any>, sub, done);
      return out;
    },
    handler: async (args: ArgumentsCamelCase<any>) => done((await handler(args)) ?? 0),
  } as CommandModule<any, any>);
}
