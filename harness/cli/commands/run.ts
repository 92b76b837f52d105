import type { ArgumentsCamelCase, Argv } from 'yargs';
import type { Command } from '../command.ts';
import { join } from 'node:path';
import { loadConfig } from '../../config/load-config.ts';
import { doneCells, runExperiment } from '../../runner/run.ts';
import { InputError } from '../../core/errors.ts';
import { numberFlag } from '../../config/numeric-flags.ts';
import type { ResultRow } from '../../core/index.ts';
import { dryRun, renderDryRun } from '../../runner/dry-run.ts';
import { preflight } from '../../runner/preflight.ts';
import { openResume } from '../../runner/run-dir.ts';
import { readJsonl } from '../../core/journal.ts';
import { resolveReporters } from '../../runner/reporters-map.ts';
import { printOutcome } from '../run-outcome.ts';
import { onInterrupt } from '../interrupt.ts';
import { listValues } from './flags.ts';
import { checkBatchable } from '../../batch/run-batch.ts';

interface RunArgs {
  config?: string;
  suite?: string[];
  arm?: string[];
  case?: string[];
  provider?: string;
  reps?: number;
  seed?: number;
  concurrency?: number;
  maxErrorRate?: number;
  out?: string;
  cache: boolean;
  quiet: boolean;
  resume?: string;
  retryErrors: boolean;
  shard?: string;
  dryRun: boolean;
  mode?: string;
  sourceToolBudget?: number;
  source?: string;
  keepWorlds: boolean;
  liveInline?: string;
  batch: boolean;
  detach: boolean;
}

export const runCommand: Command<RunArgs> = {
  command: 'run',
  describe: 'Run the experiment in eval.config.ts (every suite × arm × rep) and write runs/<id>/',
  builder: (y) => resumeAndModeOptions(runOptions(selectionOptions(y))) as never,
  handler: async (args) => {
    if (args.retryErrors && !args.resume)
      throw new InputError('usage', '--retry-errors: only with --resume <run-dir>');
    if (args.detach && !args.batch && !args.resume)
      throw new InputError('usage', '--detach: only with --batch (or --resume of a batch run)');
    const config = await loadConfig(args.config, {
      suite: listValues(args.suite, '--suite'),
      arm: listValues(args.arm, '--arm'),
      case: listValues(args.case, '--case'),
      provider: args.provider,
      reps: args.reps,
      seed: args.seed,
      concurrency: args.concurrency,
      maxErrorRate: args.maxErrorRate,
      out: args.out,
      cache: args.cache,
      quiet: args.quiet,
      shard: args.shard,
      mode: args.mode,
      sourceToolBudget: args.sourceToolBudget,
      source: args.source,
      keepWorlds: args.keepWorlds,
      liveInline: args.liveInline,
      batch: args.batch,
    });
    if (config.batch) checkBatchable(config);
    if (args.dryRun) return printDryRun(args, config);
    return runAndReport(args, config);
  },
};

type Args = ArgumentsCamelCase<RunArgs>;
type Config = Awaited<ReturnType<typeof loadConfig>>;

/**
 * --dry-run: the plan and its cost; with --resume, what finishing that run would cost. First what
 * `run` would refuse or stop on (preflight): a dry run that says ok to a run that cannot start is
 * worse than none. Every problem is listed (exit 2).
 */
export async function printDryRun(
  args: Pick<Args, 'resume' | 'retryErrors'>,
  config: Config,
  out: (text: string) => void = (t) => void process.stdout.write(t),
): Promise<void> {
  // With --resume: what finishing that run would cost (its own plan, minus the journalled cells).
  const resume = args.resume ? openResume(args.resume, config) : undefined;
  const planned = resume?.config ?? config;
  const pre = await preflight(planned);
  if (pre.problems.length > 0)
    throw new InputError(
      'invalid',
      `run --dry-run: the run would not start:\n${pre.problems.map((p) => `  ${p}`).join('\n')}`,
    );
  const skip = resume
    ? doneCells(readJsonl<ResultRow>(join(resume.dir, 'results.jsonl')), args.retryErrors)
    : undefined;
  out(`${renderDryRun(await dryRun(planned, { skip }))}\n`);
  for (const n of pre.notes) out(`Note: ${n}\n`);
}

/** Runs the experiment (interruptible), then prints the outcome and returns the exit code. */
async function runAndReport(args: Args, config: Config): Promise<number | void> {
  const controller = new AbortController();
  const release = onInterrupt(() => controller.abort());
  try {
    const outcome = await runExperiment({
      config,
      resumeDir: args.resume,
      retryErrors: args.retryErrors,
      detach: args.detach,
      signal: controller.signal,
      reporters: resolveReporters(config, { progress: !args.quiet }),
    });
    const taken = (outcome.resumeDiffers ?? []).filter((d) => d.startsWith('models (taken'));
    const ignored = (outcome.resumeDiffers ?? []).filter((d) => !taken.includes(d));
    if (ignored.length)
      process.stderr.write(
        `resume: planned from ${outcome.dir}/config.json; the current config differs in ${ignored.join(', ')} (ignored for this run)\n`,
      );
    for (const t of taken) process.stderr.write(`resume: ${t}\n`);
    for (const note of outcome.notes ?? []) process.stderr.write(`${note}\n`);
    if (outcome.batch?.detached) {
      process.stdout.write(
        `detached: ${outcome.batch.submitted} requests submitted this time; batches journalled in ${join(outcome.dir, 'batches.jsonl')}.\nCollect (and submit the next phase) with: handoff-eval run --resume ${outcome.dir}${args.detach ? ' [--detach]' : ''}\n`,
      );
      return;
    }
    if (outcome.interrupted) {
      return 130;
    }
    return printOutcome(outcome, config);
  } finally {
    release();
  }
}

/** Which suites, arms and cases. */
function selectionOptions(y: Argv): Argv {
  return y
    .option('config', { type: 'string', describe: 'config file (default: ./eval.config.ts)' })
    .option('suite', {
      type: 'string',
      array: true,
      describe:
        "only these suites (comma list or repeated; the config's extra arms and filters for them stay)",
    })
    .option('arm', { type: 'string', array: true, describe: 'only these arms (comma list or repeated)' })
    .option('case', {
      type: 'string',
      array: true,
      describe: 'only these case ids (comma list or repeated)',
    });
}

/** Provider, repetitions, seed, limits, output and cache. */
function runOptions(y: Argv): Argv {
  return y
    .option('provider', { type: 'string', describe: 'provider for every role: sim | anthropic | openai' })
    .option('reps', {
      type: 'string',
      coerce: numberFlag('--reps', 'positive integer'),
      describe: 'repetitions per case × arm',
    })
    .option('seed', { type: 'string', coerce: numberFlag('--seed', 'integer'), describe: 'run seed' })
    .option('max-error-rate', {
      type: 'string',
      coerce: numberFlag('--max-error-rate', { from: 0, to: 1 }),
      describe: 'exit 3 when error rows are a larger share of the cells (default: config maxErrorRate)',
    })
    .option('concurrency', {
      type: 'string',
      coerce: numberFlag('--concurrency', 'positive integer'),
      describe: 'cells in flight',
    })
    .option('out', { type: 'string', describe: 'runs directory (default: runs)' })
    .option('cache', {
      type: 'boolean',
      default: true,
      describe: 'use the response cache (--no-cache to bypass)',
    })
    .option('quiet', { type: 'boolean', default: false, describe: 'no progress output' });
}

/** Resume, shards, source mode, batch and dry run. */
function resumeAndModeOptions(y: Argv): Argv {
  return y
    .option('resume', {
      type: 'string',
      describe: 'an earlier run directory: run only the cells missing from its journal',
    })
    .option('retry-errors', {
      type: 'boolean',
      default: false,
      describe: 'with --resume: run the error cells again too (the journal keeps every attempt)',
    })
    .option('shard', { type: 'string', describe: 'run shard i/n of the cells (deterministic by cell id)' })
    .option('mode', {
      type: 'string',
      describe:
        "source mode for every suite and arm: recorded | live (re-run the source with tools over each case's world)",
    })
    .option('source-tool-budget', {
      type: 'string',
      coerce: numberFlag('--source-tool-budget', 'positive integer'),
      describe: 'live mode: tool calls the source may make',
    })
    .option('source', {
      type: 'string',
      describe: "live mode: run the config's `sources.<name>` (your own agent) as the source (docs/live.md)",
    })
    .option('keep-worlds', {
      type: 'boolean',
      default: false,
      describe: "live mode: leave each cell's world copy on disk (its path in the row's world_dir)",
    })
    .option('live-inline', {
      type: 'string',
      describe:
        "live mode: replay (default) | prefix — inline's research turns run inside the parent's window, paying its prefill (docs/live.md)",
    })
    .option('batch', {
      type: 'boolean',
      default: false,
      describe:
        "model calls through the vendors' batch APIs (anthropic, openai) at the batch price; results within 24 h per phase",
    })
    .option('detach', {
      type: 'boolean',
      default: false,
      describe: 'with --batch: submit, then exit; collect later with --resume <run-dir>',
    })
    .option('dry-run', {
      type: 'boolean',
      default: false,
      describe: 'print the cells, model calls per role, estimated tokens and cost per arm; call nothing',
    });
}
