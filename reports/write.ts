import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ResultRow } from '../harness/types.ts';
import { summarize } from './summarize.ts';
import { renderMarkdown } from './markdown.ts';
import { renderCsv } from './csv.ts';

export type ReportFormat = 'md' | 'csv' | 'json' | 'html';
export const reportFormats: ReportFormat[] = ['md', 'csv', 'json', 'html'];

/** Every report is rebuilt from the journal's rows alone. */
export function writeReports(dir: string, rows: ResultRow[], opts: { formats: ReportFormat[] }): string[] {
  const summary = summarize(rows);
  const written: string[] = [];
  const write = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    written.push(join(dir, name));
  };
  for (const f of opts.formats) {
    if (f === 'md') write('report.md', renderMarkdown(summary));
    if (f === 'csv') write('results.csv', renderCsv(rows));
    if (f === 'json') write('report.json', `${JSON.stringify(summary, null, 2)}\n`);
  }
  return written;
}
