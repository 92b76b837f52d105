import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Test fixtures import 'handoff-eval' as a user's file does; in the tests that is these sources
  // (the same modules the tests import), not a possibly stale dist/ bundle.
  resolve: { alias: { 'handoff-eval': fileURLToPath(new URL('./harness/index.ts', import.meta.url)) } },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
