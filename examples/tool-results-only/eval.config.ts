import { defineConfig, sweep } from 'handoff-eval';
import { toolResultsOnly } from './strategy.ts';

/**
 * The example experiment: the escalation-evidence suite (two cases, in cases/) — a primary agent's
 * session handed to a stronger model — with the suite's own arms (inline, brick-only) and the custom
 * strategy at two result caps.
 *
 *   npx handoff-eval render --case lockfile-drift --arm "tool-results-only[resultCap=300]"
 *   npx handoff-eval check-strategy --strategy tool-results-only
 *   npx handoff-eval run
 */
export default defineConfig({
  casesDir: 'cases',
  reps: 2,
  strategies: { 'tool-results-only': toolResultsOnly },
  suites: [
    {
      id: 'escalation-evidence',
      extraArms: [
        sweep(
          'tool-results-only',
          { resultCap: [300, 4000] },
          { models: { source: 'small', receiver: 'large' } },
        ),
      ],
    },
  ],
});
