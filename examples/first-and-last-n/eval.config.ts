import { defineConfig, sweep } from 'handoff-eval';
import { firstAndLastN } from './strategy.ts';

/**
 * The example experiment: the research-return suite (two cases, in cases/) under its own arms —
 * inline (the baseline) and full-transcript — plus the custom strategy swept over n = 1, 3, 6.
 *
 *   npx handoff-eval render --case retry-budget --arm "first-and-last-n[n=1]"
 *   npx handoff-eval check-strategy --strategy first-and-last-n
 *   npx handoff-eval run
 */
export default defineConfig({
  casesDir: 'cases',
  reps: 2,
  strategies: { 'first-and-last-n': firstAndLastN },
  suites: [{ id: 'research-return', extraArms: [sweep('first-and-last-n', { n: [1, 3, 6] })] }],
});
