import { writeFileAtomic } from '../harness/atomic-write.ts';
import { join } from 'node:path';
import type { ResultRow } from '../harness/types.ts';
import { summarize } from './summarize.ts';
import { renderMarkdown } from './markdown.ts';
import { renderCsv } from './csv.ts';
import { renderJson } from './json.ts';
import { renderHtml } from './html/page.ts';

export type ReportFormat = 'md' | 'csv' | 'json' | 'html';
export const reportFormats: ReportFormat[] = ['md', 'csv', 'json', 'html'];
export const reportFiles: Record<ReportFormat, string> = {
  md: 'report.md',
  csv: 'results.csv',
  json: 'report.json',
  html: 'report.html',
};

/**
 * Every report is rebuilt from the journal's rows alone: summarize once, render each format. Each file
 * is replaced whole (temp + rename): a kill mid-write leaves the previous report, never a cut one.
 */
export async function writeReports(
  dir: string,
  rows: readonly ResultRow[],
  opts: { formats?: readonly ReportFormat[] } = {},
): Promise<string[]> {
  const summary = summarize(rows);
  const written: string[] = [];
  for (const format of opts.formats ?? reportFormats) {
    const text =
      format === 'md'
        ? renderMarkdown(summary)
        : format === 'csv'
          ? renderCsv(rows)
          : format === 'json'
            ? renderJson(summary)
            : renderHtml(summary, rows);
    const file = join(dir, reportFiles[format]);
    writeFileAtomic(file, text);
    written.push(file);
  }
  return written;
}
