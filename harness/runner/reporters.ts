import type {
  Progress,
  ReportContext as CoreReportContext,
  Reporter as CoreReporter,
  ResultRow,
  RunStartInfo,
} from '../core/index.ts';
import type { BatchEvent } from '../batch/scheduler.ts';
import type { Summary } from '../../reports/summary/types.ts';

export type { RunStartInfo, Progress } from '../core/index.ts';

/** What `onReport` gets once a run completes: the run directory, the journal's rows and their summary. */
export type ReportContext = CoreReportContext<Summary>;

/**
 * Reporter hooks, all optional (vitest's reporter shape), with the report Summary and batch events
 * bound: see harness/core/types/reporting.ts.
 */
export type Reporter = CoreReporter<Summary, BatchEvent>;

const fmtTokens = (n: number) =>
  n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e3 ? `${(n / 1e3).toFixed(1)}k` : String(n);
const eta = (p: Progress) =>
  p.done === 0 ? '?' : `${Math.round(((p.total - p.done) * p.elapsedMs) / p.done / 1000)}s`;

export function progressLine(p: Progress): string {
  return `${p.done}/${p.total} cells · ${p.errors} errors · ETA ${eta(p)} · ${fmtTokens(p.tokens)} tokens · $${p.costUsd.toFixed(4)} · ${p.cacheHits} cache hits`;
}

/** A redrawn bar on a TTY (throttled), plain progress lines otherwise (CI logs). */
export function createProgressReporter(
  stream: NodeJS.WriteStream = process.stderr,
  ci = Boolean(process.env.CI),
): Reporter {
  const tty = stream.isTTY && !ci;
  let last = 0;
  let lastPct = -1;
  const seen = new Map<string, string>();
  return {
    onRunStart(info) {
      stream.write(
        `handoff-eval run ${info.runId}: ${info.cells} cells${info.done ? ` (${info.done} already done)` : ''}${info.simulated ? ' — sim provider: a simulation, not a measurement of any model' : ''}\n`,
      );
    },
    onCellEnd(_row, p) {
      const now = Date.now();
      if (tty) {
        if (now - last < 100 && p.done < p.total) return;
        last = now;
        const width = 24;
        const filled = Math.round((p.done / Math.max(1, p.total)) * width);
        stream.write(`\r[${'='.repeat(filled)}${' '.repeat(width - filled)}] ${progressLine(p)}\x1b[K`);
      } else {
        const pct = Math.floor((p.done / Math.max(1, p.total)) * 10);
        if (pct === lastPct && now - last < 10_000 && p.done < p.total) return;
        lastPct = pct;
        last = now;
        stream.write(`progress: ${progressLine(p)}\n`);
      }
    },
    onBatch(e) {
      // One line per change of a batch's state or counts (a poll that saw nothing new prints nothing).
      const line = batchLine(e);
      if (seen.get(e.batchId) === line) return;
      seen.set(e.batchId, line);
      stream.write(`${tty ? '\r\x1b[K' : ''}${line}\n`);
    },
    onRunEnd(p, interrupted) {
      if (tty) stream.write('\n');
      if (interrupted)
        stream.write(
          `interrupted after ${p.done}/${p.total} cells; the journal holds every finished cell (resume with --resume)\n`,
        );
    },
  };
}

/** `batch openai batch_abc: in_progress · 12/40 done (11 succeeded, 1 failed)`. */
export function batchLine(e: BatchEvent): string {
  const counts =
    e.total !== undefined
      ? ` · ${(e.succeeded ?? 0) + (e.failed ?? 0)}/${e.total} done (${e.succeeded ?? 0} succeeded, ${e.failed ?? 0} failed)`
      : '';
  return `batch ${e.provider} ${e.batchId}: ${e.state}${counts}`;
}
