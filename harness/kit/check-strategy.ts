import type { Strategy } from '../core/index.ts';
import type { CheckOptions, CheckReport } from './types.ts';

export {
  shippedTranscripts,
  shippedCases,
  invariantNames,
  type InvariantName,
  type CheckOptions,
  type CheckFailure,
  type CheckReport,
} from './types.ts';

/**
 * Runs the invariants over every input and returns what broke (it never throws for a broken
 * invariant; bad options or unreadable inputs throw an InputError). The runner, the sim and the
 * importers load on the first call, so importing `handoff-eval` stays light.
 */
export async function checkStrategy(
  strategy: Strategy<any> | string,
  options: CheckOptions = {},
): Promise<CheckReport> {
  const { runKit } = await import('./run-kit.ts');
  return runKit(strategy, options);
}
