/**
 * The reports' public API: summarize once, render any format, reuse the statistics (the CI gate
 * builds on summarize and pairedDifference). Documented in docs/results.md.
 */
export { summarize, canonicalRows, isSimulated, SIM_NOTICE, method } from './summarize.ts';
export type * from './summary/types.ts';
export { renderMarkdown } from './markdown.ts';
export { renderCsv, csvColumns } from './csv.ts';
export { renderJson } from './json.ts';
export { renderHtml } from './html/page.ts';
export { writeReports, reportFormats, reportFiles, type ReportFormat } from './write.ts';
export * from './stats/index.ts';
