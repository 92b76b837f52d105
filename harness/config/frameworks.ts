import type { Direction } from '../core/index.ts';
import type { ArmInput } from './types.ts';
import { InputError } from '../core/errors.ts';

/**
 * Which framework reference strategies (strategies/frameworks/, docs/strategies.md) model a handoff
 * in each direction. A return is a sub-agent's result reaching its parent (as-tool returns, the
 * supervisor's output modes, Claude Code's Task result, AG2 carryover, CrewAI context) or the whole
 * conversation passing back (Agents SDK handoffs); an escalation is a peer handoff of the same work
 * (no sub-agent return shape applies); a spawn is what a sub-agent starts with (a handoff's history,
 * the supervisor's forwarded state, ADK's `include_contents='none'`, CrewAI's context). An agent used
 * as a tool or Claude Code's Task child starts with its brief alone — `spawn-isolated` already.
 */
export const frameworkArms: Readonly<Record<string, readonly Direction[]>> = {
  'agents-sdk-full': ['return', 'escalation', 'spawn'],
  'agents-sdk-nested': ['return', 'escalation', 'spawn'],
  'agents-sdk-remove-tools': ['return', 'escalation', 'spawn'],
  'agents-as-tool': ['return'],
  'langgraph-full-history': ['return', 'spawn'],
  'langgraph-last-message': ['return'],
  'adk-no-contents': ['spawn'],
  'ag2-carryover-last': ['return', 'escalation'],
  'ag2-carryover-reflection': ['return', 'escalation'],
  'crewai-task-context': ['return', 'escalation', 'spawn'],
  'claude-code-task': ['return'],
  'observation-masking': ['return', 'escalation'],
};

/** Options of frameworks(): which framework arms to leave out, and the arms' models. */
export interface FrameworksOptions {
  /** Framework strategies to leave out (e.g. the model-backed `ag2-carryover-reflection`). @default [] */
  exclude?: string[];
  /** Model aliases of every framework arm. @default the suite's baseline arm's */
  models?: { source: string; receiver: string };
}

/**
 * The framework reference strategies as arms, each tagged with the directions it models: put the
 * result in a suite selection's `extraArms` and each suite gets the arms that apply to its direction
 * (`suites: [{ id: 'ledgerline', extraArms: [frameworks()] }]`). Arms are named after their strategy
 * and run with the framework's defaults.
 */
export function frameworks(opts: FrameworksOptions = {}): ArmInput[] {
  const exclude = opts.exclude ?? [];
  for (const name of exclude)
    if (!Object.hasOwn(frameworkArms, name))
      throw new InputError(
        'config_invalid',
        `frameworks({ exclude }): "${name}" is not a framework strategy; valid: ${Object.keys(frameworkArms).join(', ')}`,
      );
  return Object.entries(frameworkArms)
    .filter(([name]) => !exclude.includes(name))
    .map(([name, directions]) => ({
      name,
      strategy: name,
      directions: [...directions],
      ...(opts.models ? { models: opts.models } : {}),
    }));
}

/** Whether a config arm is added to a suite of `direction` (an arm without `directions` always is). */
export function appliesTo(arm: ArmInput, direction: Direction): boolean {
  return arm.directions === undefined || arm.directions.includes(direction);
}

/** The arm as a suite arm: without the config-only `directions` tag. */
export function withoutDirections<A extends ArmInput>(arm: A): Omit<A, 'directions'> {
  const { directions: _directions, ...rest } = arm;
  return rest;
}
