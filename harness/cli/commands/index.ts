import type { Command } from '../command.ts';
import { runCommand } from './run.ts';
import { reportCommand } from './report.ts';
import { listCommand } from './list.ts';
import { validateCommand } from './validate.ts';
import { renderCommand } from './render.ts';
import { importCommand } from './import.ts';
import { gateCommand } from './gate.ts';
import { baselineCommand } from './baseline.ts';
import { mergeCommand } from './merge.ts';
import { caseCommand } from './case.ts';
import { checkStrategyCommand } from './check-strategy.ts';
import { compareCommand } from './compare.ts';
import { viewCommand } from './view.ts';

/** Every command, in --help order. */
export const commands: Command[] = [
  runCommand,
  reportCommand,
  listCommand,
  validateCommand,
  renderCommand,
  checkStrategyCommand,
  importCommand,
  gateCommand,
  baselineCommand,
  mergeCommand,
  caseCommand,
  compareCommand,
  viewCommand,
];
