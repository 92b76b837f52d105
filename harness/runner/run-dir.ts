import { existsSync, mkdirSync, statSync } from 'node:fs';
import { writeFileAtomic } from '../core/atomic-write.ts';
import { dirname, join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { ResolvedConfig } from '../config/types.ts';
import { InputError } from '../core/errors.ts';
import { harnessVersion } from '../version.ts';
import { redact } from '../core/redact.ts';
import { readText } from '../core/text/read-text.ts';
import { resumeModels } from './resume-models.ts';

/** What a run directory is: `runs/<run-id>/` with config.json, results.jsonl, calls.jsonl, reports. */
export interface RunDir {
  runId: string;
  dir: string;
}

export function createRunDirectory(config: ResolvedConfig): RunDir {
  const runId = `${new Date().toISOString().replace(/[:.]/g, '-').replace('Z', '')}-${randomBytes(2).toString('hex')}`;
  const dir = join(config.outDir, runId);
  // A file where the runs go (or on the way to it) would fail mkdir with a stack trace.
  for (let d = resolve(config.outDir); ; d = dirname(d)) {
    const st = statOrUndefined(d);
    if (st && !st.isDirectory())
      throw new InputError(
        'bad_flag',
        `--out / outDir: ${config.outDir}: ${d === resolve(config.outDir) ? 'is a file' : `${d} is a file`}, not a directory for run directories`,
      );
    if (st || dirname(d) === d) break;
  }
  if (existsSync(dir)) throw new InputError('run_exists', `run directory ${dir} already exists`);
  mkdirSync(dir, { recursive: true });
  return { runId, dir };
}

/** config.json: the resolved config (secrets redacted), enough to rebuild the run's plan. */
export function writeConfigRecord(dir: string, config: ResolvedConfig, runId: string): void {
  const { strategies, criteria, checks, reporters, sources, ...rest } = config;
  const record = redact({
    runId,
    harnessVersion,
    createdAt: new Date().toISOString(),
    ...rest,
    casesDirResolved: resolve(config.casesDir),
    // A source's env values may be keys: only the names are recorded; a function is named, not written.
    sources: Object.fromEntries(
      Object.entries(sources ?? {}).map(([name, s]) => [
        name,
        s.kind === 'command'
          ? {
              kind: s.kind,
              command: s.command,
              format: s.format,
              version: s.version,
              env: Object.keys(s.env),
            }
          : { kind: s.kind, format: s.format, version: s.version },
      ]),
    ),
    strategies: Object.keys(strategies),
    criteria: Object.keys(criteria),
    checks: checks.map((c) => c.name),
    reporters: reporters.map((r) => (typeof r === 'string' ? r : (r.name ?? 'reporter'))),
  });
  writeFileAtomic(join(dir, 'config.json'), `${JSON.stringify(record, null, 2)}\n`);
}

/** The fields of config.json that decide which cells exist and what each one asks: a resume takes them from the run. */
const planFields = [
  'suites',
  'arms',
  'cases',
  'reps',
  'seed',
  'provider',
  'models',
  'judge',
  'budgetTokens',
  'mode',
  'modeForced',
  'sourceToolBudget',
  'liveInline',
  'livePrompts',
  'source',
  'sim',
  'prices',
  'shard',
] as const;

/**
 * A resume plans from the run's own config.json — not from whatever eval.config.ts says today — so
 * the cells and their seeds are the ones the run started with. Operational settings (concurrency,
 * provider timeouts and retries, cache, output) and inline strategy definitions come from the
 * current config. Returns the merged config and the plan fields that differ from the current ones.
 */
export function openResume(
  dir: string,
  current: ResolvedConfig,
): RunDir & { config: ResolvedConfig; differs: string[] } {
  const file = join(dir, 'config.json');
  if (!existsSync(file))
    throw new InputError(
      'not_a_run',
      `${file}: not found; --resume takes a run directory written by handoff-eval run`,
    );
  let stored: Record<string, unknown>;
  try {
    stored = JSON.parse(readText(file)) as Record<string, unknown>;
  } catch (err) {
    throw new InputError('not_a_run', `${file}: not valid JSON (${(err as Error).message})`, { cause: err });
  }
  if (typeof stored.runId !== 'string') throw new InputError('not_a_run', `${file}: runId: missing`);
  const config: ResolvedConfig = { ...current };
  const differs: string[] = [];
  for (const f of planFields) {
    if (!(f in stored)) continue;
    if (JSON.stringify(stored[f]) !== JSON.stringify(current[f])) differs.push(f);
    (config as unknown as Record<string, unknown>)[f] = stored[f];
  }
  // A model id no journalled row used may change (the fix for a run stopped by an unknown model).
  if (stored.models && typeof stored.models === 'object') {
    const m = resumeModels(dir, stored.models as ResolvedConfig['models'], current.models);
    config.models = m.models;
    if (m.taken.length > 0) {
      const at = differs.indexOf('models');
      if (at >= 0) differs.splice(at, 1);
      differs.push(
        `models (taken from the current config, no journalled cell used the old id: ${m.taken.join(', ')})`,
      );
    }
  }
  const casesDir =
    typeof stored.casesDirResolved === 'string' && existsSync(stored.casesDirResolved)
      ? stored.casesDirResolved
      : (stored.casesDir as string | undefined);
  if (casesDir) config.casesDir = casesDir;
  // A batch run resumes as one: its submitted batches are collected, never sent again interactively.
  if (stored.batch === true) config.batch = true;
  return { runId: stored.runId, dir, config, differs };
}

export { acquireRunLock } from './run-lock.ts';

function statOrUndefined(path: string) {
  try {
    return statSync(path);
  } catch {
    return undefined; // ENOENT, or ENOTDIR below a file (the file itself is found on the way up)
  }
}
