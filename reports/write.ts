import { writeFileAtomic } from '../harness/core/atomic-write.ts';
import { join } from 'node:path';
import type { ResultRow } from '../harness/core/index.ts';
import type { Summary } from './summary/types.ts';
import { summarize } from './summarize.ts';
import { renderMarkdown } from './markdown.ts';
import { renderCsv } from './csv.ts';
import { renderJson } from './json.ts';
import { renderHtml } from './html/page.ts';
import { handLabelAgreement } from './hand-labels.ts';

/** What a report format renders from: the summary (computed once) and the journal's rows. */
export interface ReportInput {
  summary: Summary;
  rows: readonly ResultRow[];
}

/** A report file: its name in the run directory and how its text is rendered. */
export interface ReportFormatSpec {
  file: string;
  render(input: ReportInput): string;
}

/** Every report format, by name: the `md`, `csv`, `json` and `html` reporters and `report --format` read it. */
export const reportFormatMap = {
  md: { file: 'report.md', render: ({ summary }) => renderMarkdown(summary) },
  csv: { file: 'results.csv', render: ({ rows }) => renderCsv(rows) },
  json: { file: 'report.json', render: ({ summary }) => renderJson(summary) },
  html: { file: 'report.html', render: ({ summary, rows }) => renderHtml(summary, rows) },
} satisfies Record<string, ReportFormatSpec>;

export type ReportFormat = keyof typeof reportFormatMap;
export const reportFormats = Object.keys(reportFormatMap) as ReportFormat[];
export const reportFiles = Object.fromEntries(
  reportFormats.map((f) => [f, reportFormatMap[f].file]),
) as Record<ReportFormat, string>;

/** Writes one format's file whole (temp + rename): a kill mid-write leaves the previous report, never a cut one. */
export function writeReportFile(dir: string, spec: ReportFormatSpec, input: ReportInput): string {
  const file = join(dir, spec.file);
  writeFileAtomic(file, spec.render(input));
  return file;
}

/** Every report is rebuilt from the journal's rows alone: summarize once, render each format. */
export async function writeReports(
  dir: string,
  rows: readonly ResultRow[],
  opts: { formats?: readonly ReportFormat[] } = {},
): Promise<string[]> {
  const summary = summarize(rows);
  const hand = handLabelAgreement(dir, rows);
  if (hand) summary.handLabels = hand;
  const input = { summary, rows };
  return (opts.formats ?? reportFormats).map((format) =>
    writeReportFile(dir, reportFormatMap[format], input),
  );
}
