import type { ModelSpec } from './types.ts';

/**
 * Every default of the config in one place: what `resolveConfig` fills in for a field the file and
 * the flags leave out (the `@default` of each UserConfig field says the same, docs/config.md lists
 * them). The providers' settings apply to each provider that does not set its own.
 */
export const configDefaults = {
  reps: 3,
  seed: 1,
  provider: 'sim',
  models: {
    small: { sim: 'sim-small', anthropic: 'claude-haiku-4-5', openai: 'gpt-4o-mini' },
    large: { sim: 'sim-large', anthropic: 'claude-sonnet-4-5', openai: 'gpt-4o' },
    judge: { sim: 'sim-judge', anthropic: 'claude-sonnet-4-5', openai: 'gpt-4o' },
  } as Readonly<Record<string, Readonly<ModelSpec>>>,
  judge: { model: 'judge', samples: 1, criteria: true, classify: 'on' },
  concurrency: 32,
  budgetTokens: 200_000,
  mode: 'recorded',
  sourceToolBudget: 12,
  cache: { enabled: true, dir: '.handoff-cache' },
  outDir: 'runs',
  casesDir: 'cases',
  providers: { maxRetries: 4, timeoutMs: 120_000, concurrency: 16, simConcurrency: 64, transport: 'node' },
  gate: { minMean: {}, maxDrop: 0.25, maxTokenGrowthPct: 10, maxErrorRate: 0.02, minCells: 6 },
  reporters: ['progress', 'md', 'csv', 'json', 'html'],
} as const;
