import type { Command } from '../command.ts';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../../core/errors.ts';
import { readJournalRows } from '../../runner/journal-rows.ts';
import { runLockHolder } from '../../runner/run-lock.ts';
import { reportFormats, writeReports, type ReportFormat } from '../../../reports/write.ts';

interface ReportArgs {
  dir: string;
  format: string;
}

export const reportCommand: Command<ReportArgs> = {
  command: 'report <dir>',
  describe: 'Rebuild the reports of a run from its journal (results.jsonl) alone',
  builder: (y) =>
    y.positional('dir', { type: 'string', demandOption: true, describe: 'run directory' }).option('format', {
      type: 'string',
      default: 'md,csv,json,html',
      describe: `comma-separated: ${reportFormats.join(',')}`,
    }) as never,
  handler: async (args) => {
    const journal = join(args.dir, 'results.jsonl');
    if (!existsSync(journal))
      throw new InputError('no_journal', `${journal}: not found (is ${args.dir} a run directory?)`);
    const formats = args.format
      .split(',')
      .map((f) => f.trim())
      .filter(Boolean);
    for (const f of formats)
      if (!reportFormats.includes(f as ReportFormat))
        throw new InputError(
          'bad_format',
          `--format: unknown format "${f}"; valid: ${reportFormats.join(', ')}`,
        );
    // A run still in progress: its journal is partial (and its last line may be mid-write).
    const holder = runLockHolder(args.dir);
    const rows = readJournalRows(journal);
    if (holder !== undefined)
      process.stderr.write(
        `report: ${args.dir} is still running (process ${holder} holds run.lock); these reports are PARTIAL: they cover the ${rows.length} rows journalled so far. Run report again once the run has finished.\n`,
      );
    for (const file of await writeReports(args.dir, rows, { formats: formats as ReportFormat[] }))
      process.stdout.write(`${file}\n`);
  },
};
