import type { ResolvedConfig } from '../config/types.ts';
import type { RunOutcome } from '../runner/run.ts';
import type { Progress } from '../runner/reporters.ts';
import { errorBudget, type ErrorBudget } from '../runner/error-budget.ts';
import { describeError } from '../core/errors.ts';
import { maskSecrets } from '../core/redact.ts';
import { summarize } from '../../reports/summarize.ts';
import { renderMarkdown } from '../../reports/markdown.ts';

/** The exit codes of `run` beyond 0 / 2 / 130 (docs/ci.md). */
export const RUN_ERRORS_OVER_THRESHOLD = 3;
export const RUN_STOPPED_BY_PROVIDER = 4;

/**
 * What `run` prints once the cells are done, and the exit code it asks for: 4 when a provider error
 * that would fail every call stopped the run, 3 when the finished run's error rows are a larger share
 * of its cells than `maxErrorRate`, else 0.
 */
export function printOutcome(outcome: RunOutcome, config: ResolvedConfig): number {
  if (outcome.stoppedBy) {
    process.stderr.write(stoppedText(outcome, config));
    return RUN_STOPPED_BY_PROVIDER;
  }
  // The headline table per suite; the full statistics are in report.md / report.html.
  process.stdout.write(`${renderMarkdown(summarize(outcome.rows), { brief: true })}\n`);
  if (config.cache.enabled) process.stdout.write(`${cacheLine(outcome.progress)}\n`);
  process.stdout.write(`run directory: ${outcome.dir}\n`);
  const budget = errorBudget(outcome.rows, config.maxErrorRate);
  if (!budget.over) return 0;
  process.stderr.write(budgetText(budget));
  return RUN_ERRORS_OVER_THRESHOLD;
}

/** A re-run against a fixed server can replay what an old one said: say how much came from the cache. */
export function cacheLine(p: Pick<Progress, 'calls' | 'cacheHits'>): string {
  const n = (x: number) => x.toLocaleString('en-US');
  return `${n(p.cacheHits)} of ${n(p.calls)} model calls served from the response cache (--no-cache to bypass)`;
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

function budgetText(b: ErrorBudget): string {
  const lines = [
    `run: ${b.errors} of ${b.cells} cells are error rows (${pct(b.rate)}), above the error threshold ${pct(b.limit)} (maxErrorRate); top reasons:`,
    ...b.top.map((t) => `  ${t.count} × ${t.code}: ${maskSecrets(t.reason)}`),
  ];
  return `${lines.join('\n')}\n`;
}

export function stoppedText(
  outcome: Pick<RunOutcome, 'stoppedBy' | 'rows' | 'dir'>,
  config: ResolvedConfig,
): string {
  const err = outcome.stoppedBy!;
  const journalled = outcome.rows.length;
  return [
    `handoff-eval: run stopped by a provider error that would fail every call: ${maskSecrets(describeError(err).message)}`,
    `  base URL: ${err.baseURL ?? '(unknown)'}`,
    `  ${journalled} cell(s) journalled before it; the cells it failed are not.`,
    `  ${whatToChange(err, config)}, then continue with:`,
    `  handoff-eval run --resume ${outcome.dir}`,
    '',
  ].join('\n');
}

/**
 * The setting to change, by what the provider said: an unknown model names the config fields that
 * give that id (a resume takes a changed id no journalled cell used); a refused key names its
 * variable; anything else, the base URL.
 */
function whatToChange(err: NonNullable<RunOutcome['stoppedBy']>, config: ResolvedConfig): string {
  const file = config.configFile ?? 'eval.config.ts';
  const status = (err as { status?: number }).status;
  const model = /unknown sim model "([^"]+)"|model[^"`']*["`']([^"`']+)["`']/i.exec(err.message);
  const id = model?.[1] ?? model?.[2];
  const fields = Object.entries(config.models).flatMap(([alias, spec]) =>
    Object.entries(spec ?? {})
      .filter(([provider, m]) => m === id && provider === err.provider)
      .map(([provider]) => `models.${alias}.${provider}`),
  );
  if (fields.length > 0)
    return `Change ${fields.join(', ')} ("${id}") in ${file} to a model ${err.provider} has (handoff-eval validate lists the ids it does not); the resume takes the new id`;
  if (status === 401 || status === 403)
    return `Set ${err.provider === 'anthropic' ? 'ANTHROPIC_API_KEY' : err.provider === 'openai' ? 'OPENAI_API_KEY' : "the provider's key"} to a key ${err.provider} accepts (and allowed this model)`;
  return `Fix the cause (the model ids under models in ${file}, the key, or the base URL above)`;
}
