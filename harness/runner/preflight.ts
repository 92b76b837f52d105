import { existsSync, statSync } from 'node:fs';
import type { ResolvedConfig } from '../config/types.ts';
import { HarnessError } from '../core/errors.ts';
import { listSuiteIds } from '../../cases/load.ts';
import { reportersMap } from './reporters-map.ts';
import { loadExperiment } from './experiment.ts';
import { planCells } from './plan.ts';
import { nothingToRun } from './run.ts';
import { resolveModel } from '../calls/call-path.ts';
import { sizeOf } from '../providers/sim/rates.ts';
import { listVendorModels, type ModelLister } from './preflight-models.ts';

export interface PreflightResult {
  /** What `run` would refuse or stop on, each once, naming the file and the field. */
  problems: string[];
  /** What could not be checked and why (no key offline, a provider that lists no models). */
  notes: string[];
  /** Cells the run would plan (null when the plan could not be built: its error is reported elsewhere). */
  cells: number | null;
}

/**
 * Everything `run` would refuse before it calls a provider, or stop on at its first call, collected
 * rather than thrown — for `validate` and `run --dry-run`: the cases folder (missing, not a folder, no
 * suite in it), the reporters, a plan with no cells (an empty shard), and every model id the plan
 * would call, at its provider (the sim's ids; the vendors' own lists when a key is present).
 */
export async function preflight(
  config: ResolvedConfig,
  opts: { listModels?: ModelLister } = {},
): Promise<PreflightResult> {
  const file = config.configFile ?? 'config';
  const dir = casesDirProblems(config, file);
  const problems: string[] = [...dir, ...reporterProblems(config, file)];
  const notes: string[] = [];
  if (dir.length > 0) return { problems, notes, cells: null };
  let cells;
  try {
    cells = planCells(await loadExperiment(config), config);
  } catch (err) {
    if (!(err instanceof HarnessError)) throw err;
    notes.push('model ids not checked: the plan could not be built (its problem is reported on its own)');
    return { problems, notes, cells: null };
  }
  if (cells.length === 0) problems.push(nothingToRun(await loadExperiment(config), config).message);
  const used = usedModels(config, cells, problems);
  await checkModels(config, used, problems, notes, opts.listModels ?? listVendorModels);
  return { problems, notes, cells: cells.length };
}

function casesDirProblems(config: ResolvedConfig, file: string): string[] {
  const dir = config.casesDir;
  if (!existsSync(dir)) return [`${file}: casesDir: no such folder "${dir}"`];
  if (!statSync(dir).isDirectory()) return [`${file}: casesDir: "${dir}" is not a folder`];
  if (listSuiteIds(dir).length === 0)
    return [`${file}: casesDir: no suite under "${dir}" (a suite is a folder holding a suite.json)`];
  return [];
}

function reporterProblems(config: ResolvedConfig, file: string): string[] {
  return config.reporters.flatMap((r, i) =>
    typeof r === 'string' && !Object.hasOwn(reportersMap, r)
      ? [
          `${file}: reporters[${i}]: unknown reporter "${r}"; valid: ${Object.keys(reportersMap).join(', ')}, or a reporter object`,
        ]
      : [],
  );
}

/** provider → model id → the config fields that name it (`models.large.openai`). */
type Used = Map<string, Map<string, Set<string>>>;

function usedModels(
  config: ResolvedConfig,
  cells: readonly { armSpec: { models: { source: string; receiver: string } } }[],
  problems: string[],
): Used {
  const used: Used = new Map();
  const seen = new Set<string>();
  for (const cell of cells) {
    const key = `${cell.armSpec.models.source}\u0000${cell.armSpec.models.receiver}`;
    if (seen.has(key)) continue;
    seen.add(key);
    for (const role of ['source', 'receiver', 'judge'] as const) {
      try {
        const { provider, model, alias } = resolveModel(config, role, cell.armSpec.models);
        const ids = used.get(provider) ?? new Map<string, Set<string>>();
        ids.set(model, (ids.get(model) ?? new Set()).add(`models.${alias}.${provider}`));
        used.set(provider, ids);
      } catch (err) {
        const message = (err as Error).message;
        if (!problems.includes(message)) problems.push(message);
      }
    }
  }
  return used;
}

async function checkModels(
  config: ResolvedConfig,
  used: Used,
  problems: string[],
  notes: string[],
  list: ModelLister,
): Promise<void> {
  const file = config.configFile ?? 'config';
  for (const [provider, ids] of [...used].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const fields = (model: string) => [...ids.get(model)!].sort().join(', ');
    if (provider === 'sim') {
      for (const model of ids.keys())
        try {
          sizeOf(model);
        } catch {
          problems.push(
            `${file}: ${fields(model)}: unknown sim model "${model}"; valid: sim-small, sim-large, sim-judge`,
          );
        }
      continue;
    }
    const listed = await list(provider, config);
    if ('skipped' in listed) notes.push(`model ids at ${provider} not checked: ${listed.skipped}`);
    else if ('problem' in listed) problems.push(listed.problem);
    else
      for (const model of ids.keys())
        if (!listed.ids.has(model))
          problems.push(
            `${file}: ${fields(model)}: "${model}" is not a model ${provider} lists at ${listed.at}${near(model, listed.ids)}`,
          );
  }
}

/** A few listed ids that share the unknown id's first word: what the user probably meant. */
function near(model: string, ids: ReadonlySet<string>): string {
  const stem = model.split(/[-.:/]/)[0]!;
  const close = [...ids].filter((id) => id.startsWith(stem)).sort();
  if (close.length === 0) return '';
  return `; listed: ${close.slice(0, 5).join(', ')}${close.length > 5 ? ', …' : ''}`;
}
