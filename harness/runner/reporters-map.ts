import type { ResultRow } from '../core/index.ts';
import type { ReporterEntry, ResolvedConfig } from '../config/types.ts';
import { ConfigError } from '../core/errors.ts';
import { createProgressReporter, type ReportContext, type Reporter } from './reporters.ts';
import { summarize } from '../../reports/summarize.ts';
import { reportFormatMap, writeReportFile, type ReportFormat } from '../../reports/write.ts';

/** A report format as a reporter: writes its file when the run completes. */
function fileReporter(format: ReportFormat): Reporter {
  return {
    name: format,
    onReport: ({ dir, rows, summary }) =>
      void writeReportFile(dir, reportFormatMap[format], { summary, rows }),
  };
}

/** The built-in reporters by name (vitest's ReportersMap): the progress line and one per report format. */
export const reportersMap: Record<string, () => Reporter> = {
  progress: () => createProgressReporter(),
  ...Object.fromEntries(
    (Object.keys(reportFormatMap) as ReportFormat[]).map((f) => [f, () => fileReporter(f)]),
  ),
};

/**
 * The config's reporter entries as reporter objects, in order: names from `reportersMap` (an unknown
 * one fails naming the valid ones), objects as given. `progress: false` drops the progress line
 * (`--quiet`, or a run started from code).
 */
export function resolveReporters(
  config: Pick<ResolvedConfig, 'reporters' | 'configFile'>,
  opts: { progress: boolean },
): Reporter[] {
  return config.reporters.flatMap((entry: ReporterEntry, i) => {
    if (typeof entry !== 'string') return [entry];
    const make = Object.hasOwn(reportersMap, entry) ? reportersMap[entry] : undefined;
    if (!make)
      throw new ConfigError(
        config.configFile ?? 'config',
        `reporters[${i}]`,
        `unknown reporter "${entry}"; valid: ${Object.keys(reportersMap).join(', ')}, or a reporter object`,
      );
    return entry === 'progress' && !opts.progress ? [] : [make()];
  });
}

/** Runs every reporter's `onReport` in order, with the summary computed once (and only if one is wanted). */
export async function report(
  reporters: readonly Reporter[],
  ctx: { runId: string; dir: string; rows: readonly ResultRow[] },
): Promise<void> {
  const wanted = reporters.filter((r) => r.onReport);
  if (wanted.length === 0) return;
  const full: ReportContext = { ...ctx, summary: summarize(ctx.rows) };
  for (const r of wanted) await r.onReport!(full);
}
