import type { Arm, Case, Suite } from '../core/index.ts';
import type { ResolvedConfig, SuiteSelection } from '../config/types.ts';
import { ConfigError } from '../core/errors.ts';
import type { ResolvedSource } from '../config/sources.ts';
import { livePromptsOf, type LivePrompts } from '../config/live-prompts.ts';

/** A planned cell's live settings; undefined for a recorded cell. */
export interface LiveSettings {
  budget: number;
  /** `--source <name>`: the user's own agent runs as the source instead of the harness's tool loop. */
  source?: ResolvedSource;
  /** The loop's system prompt and reminder for this arm (arm > suite > config); absent = built-in. */
  prompts?: LivePrompts;
  /** Where an own source's sessions are cached (the response cache's directory), or null when it is off. */
  sourceCache?: string | null;
  /** `--keep-worlds`: the cell's world copy stays on disk (its path in the row's `world_dir`). */
  keepWorlds?: boolean;
  /** `--live-inline prefix`, an inline arm: its research turns carry the parent's window (not with `--source`). */
  inlinePrefix?: true;
}

/**
 * An arm's source mode: --mode wins over everything; otherwise the arm's own `mode`, then its suite
 * selection's, then the config's. A live arm gets the suite's tool budget, else the config's.
 */
export function liveSettingsOf(suite: Suite, arm: Arm, config: ResolvedConfig): LiveSettings | undefined {
  const sel = selectionOf(suite.id, config);
  const mode = config.modeForced ? config.mode : (arm.mode ?? sel?.mode ?? config.mode);
  if (mode !== 'live') return undefined;
  const budget = sel?.sourceToolBudget ?? config.sourceToolBudget;
  const prompts = livePromptsOf(arm.name, sel?.livePrompts, config.livePrompts);
  const source = config.source ? config.sources?.[config.source] : undefined;
  // A resumed run keeps its --source; the config it resumes with must still define it.
  if (config.source && !source)
    throw new ConfigError(
      config.configFile ?? 'config',
      `sources.${config.source}`,
      `the run's live source "${config.source}" is not defined in this config`,
    );
  const inlinePrefix = config.liveInline === 'prefix' && arm.strategy === 'inline' && !source;
  return {
    budget,
    ...(inlinePrefix ? { inlinePrefix: true as const } : {}),
    ...(prompts ? { prompts } : {}),
    ...(config.keepWorlds ? { keepWorlds: true } : {}),
    ...(source ? { source, sourceCache: config.cache.enabled ? config.cache.dir : null } : {}),
  };
}

/**
 * The cases a live arm runs: those with a world (the others have nothing to act in and are left out
 * of that arm's plan, counted by `liveSkipped`). A live suite without a single world is a config error.
 */
export function liveCases(suite: Suite, arm: Arm, config: ResolvedConfig): Case[] {
  const cases = suite.cases.filter((c) => c.world);
  refuseSpawnSource(suite, arm, cases, config);
  if (cases.length === 0 && suite.cases.length > 0)
    throw new ConfigError(
      config.configFile ?? 'config',
      config.modeForced ? '--mode' : 'mode',
      `suite ${suite.id} (arm ${arm.name}) is live, but none of its cases has a world to act in; live mode needs cases with a world (docs/live.md)`,
    );
  return cases;
}

/**
 * `--source` and a spawn case (spawn-context) are refused: a spawn case's source is its recorded
 * parent, which live mode never re-runs (the spawned child is the receiver and acts itself), so the
 * user's agent would run nowhere and the rows would silently be the harness's (docs/live.md).
 */
function refuseSpawnSource(suite: Suite, arm: Arm, cases: Case[], config: ResolvedConfig): void {
  if (!config.source || !cases.some((c) => c.direction === 'spawn')) return;
  throw new ConfigError(
    config.configFile ?? 'config',
    '--source',
    `suite ${suite.id} (arm ${arm.name}) has spawn cases, whose source is the recorded parent that live mode does not re-run (the spawned child is the receiver), so --source "${config.source}" cannot apply there; leave the suite out (--suite <others>) or run it without --source`,
  );
}

/** Case ids a live plan leaves out for lack of a world, per suite (for the run's notes). */
export function liveSkipped(suites: Suite[], config: ResolvedConfig): string[] {
  const notes: string[] = [];
  for (const suite of suites) {
    if (!suite.arms.some((a) => liveSettingsOf(suite, a, config))) continue;
    const left = suite.cases.filter((c) => !c.world).map((c) => c.id);
    if (left.length)
      notes.push(
        `live mode: suite ${suite.id}: ${left.length} case(s) without a world not run live (${left.join(', ')})`,
      );
  }
  return notes;
}

function selectionOf(id: string, config: ResolvedConfig): SuiteSelection | undefined {
  return config.suites === 'all' ? undefined : config.suites.find((s) => s.id === id);
}
