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
    // Two files at a time. vitest's default is one fewer than the cores — one file at a time on this
    // 2-core machine — and most of a CLI test's time is its worker waiting on a child process, with the
    // second core idle (docs/testing.md, "Suite time").
    maxWorkers: 2,
    // dist/ made current for the CLI children; a directory for fixtures shared across files.
    globalSetup: ['test/support/global-setup.ts'],
  },
});
