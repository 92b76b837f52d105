import type { CommandModule } from 'yargs';
import { runCommand } from './run.ts';
import { reportCommand } from './report.ts';
import { listCommand } from './list.ts';
import { validateCommand } from './validate.ts';

/** Every command, in --help order. */
export const commands: CommandModule<any, any>[] = [runCommand, reportCommand, listCommand, validateCommand];
