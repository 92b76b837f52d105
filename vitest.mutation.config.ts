import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The vitest config StrykerJS uses (stryker.config.mjs): the same aliases as vitest.config.ts, but
// only the test files that cover the module under mutation (MUTATION_TESTS, comma-separated globs),
// so each mutant runs seconds of tests rather than the whole suite.
const include = (process.env.MUTATION_TESTS ?? 'test/**/*.test.ts').split(',').filter(Boolean);
// MUTATION_SKIP: test names (regex alternatives) left out, e.g. ones that only drive a child process.
const skip = process.env.MUTATION_SKIP;

export default defineConfig({
  resolve: { alias: { 'handoff-eval': fileURLToPath(new URL('./harness/index.ts', import.meta.url)) } },
  test: {
    include,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    ...(skip ? { testNamePattern: new RegExp(`^(?!.*(?:${skip})).*$`) } : {}),
  },
});
