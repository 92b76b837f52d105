import { defineConfig } from 'handoff-eval';

/**
 * Your own agent as the live source (docs/live.md#your-own-agent-as-the-source): agent.mjs, a scripted
 * agent that reads {brief} and the world under {world} and writes an OpenAI-messages session to {out},
 * runs once per live cell of the shipped ledgerline suite.
 *
 *   npx handoff-eval run --mode live --source example-agent --suite ledgerline --case ledgerline-01 --reps 1
 */
export default defineConfig({
  reps: 1,
  suites: ['ledgerline'],
  mode: 'live',
  sources: {
    'example-agent': {
      command: [
        'node',
        'agent.mjs',
        '--world',
        '{world}',
        '--brief',
        '{brief}',
        '--out',
        '{out}',
        '--budget',
        '{budget}',
      ],
      format: 'openai',
      timeoutMs: 120_000,
      version: '1',
    },
  },
});
