import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The vitest config StrykerJS uses (stryker.config.mjs): the same aliases as vitest.config.ts, but
// only the test files that cover the module under mutation (MUTATION_TESTS, comma-separated globs),
// so each mutant runs seconds of tests rather than the whole suite.
const include = (process.env.MUTATION_TESTS ?? 'test/**/*.test.ts').split(',').filter(Boolean);

export default defineConfig({
  resolve: { alias: { 'handoff-eval': fileURLToPath(new URL('./harness/index.ts', import.meta.url)) } },
  test: { include, testTimeout: 60_000, hookTimeout: 60_000 },
});
