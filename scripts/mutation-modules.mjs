// The modules `npm run mutate` measures (issue 20) and the test files that cover each. Tests that
// only drive the CLI in a child process are left out: a child process cannot see Stryker's active
// mutant, so they would only slow every mutant down. `skip`: test names left out the same way.
export const MODULES = {
  'reports/stats': {
    mutate: ['reports/stats/**/*.ts'],
    tests: [
      'test/reports/stats.test.ts',
      'test/reports/families.test.ts',
      'test/reports/sign-flip.test.ts',
      'test/reports/summarize.test.ts',
      'test/reports/stats-units.test.ts',
    ],
  },
  'harness/cache': {
    mutate: ['harness/cache/**/*.ts'],
    tests: [
      'test/runner/cache.test.ts',
      'test/runner/cache-store.test.ts',
      'test/runner/cache-open.test.ts',
      'test/runner/cache-entries.test.ts',
      'test/runner/cache-corrupt.test.ts',
      'test/runner/coalesce.test.ts',
    ],
    // Multi-process and CLI tests: minutes each, and blind to the mutant (a child process).
    skip: [
      'two processes',
      'kill -9',
      'zero provider calls',
      'cannot be opened',
      'cannot be created',
      'the run completes',
      'the provider is asked',
    ],
  },
  'harness/gate': {
    // The gate's thresholds moved to harness/config/ when the layers were drawn (after issue 20 was filed).
    mutate: ['harness/gate/**/*.ts', 'harness/config/gate-thresholds.ts'],
    tests: [
      'test/gate/baseline.test.ts',
      'test/gate/gate-verdict.test.ts',
      'test/gate/gate-scopes.test.ts',
      'test/gate/shard.test.ts',
      'test/gate/gate-markdown.test.ts',
      'test/gate/gate-thresholds.test.ts',
      'test/gate/merge.test.ts',
      'test/runner/latest-row.test.ts',
      // In-process tests of paths the CLI tests reach only in a second process (issue 32 item 2).
      'test/gate/merge-in-process.test.ts',
      'test/gate/merge-refusals.test.ts',
      'test/gate/gate-mode.test.ts',
      'test/gate/gate-command.test.ts',
      'test/gate/gate-changed-arm.test.ts',
      'test/gate/gate-units.test.ts',
      'test/gate/gate-check-edges.test.ts',
      'test/gate/gate-coverage.test.ts',
      'test/gate/scopes-units.test.ts',
      'test/gate/like-for-like-units.test.ts',
      'test/gate/baseline-units.test.ts',
    ],
    skip: ['exit \\d', 'exits \\d', 'on disk', 'through the CLI'],
  },
  'reports/summary': {
    mutate: ['reports/summary/**/*.ts'],
    tests: [
      'test/reports/**/*.test.ts',
      'test/judges/reliability.test.ts',
      'test/judges/survival.test.ts',
      // The live and sweep sections of a summary are only built by these runs.
      'test/live/live-run.test.ts',
      'test/live/recorded-vs-live.test.ts',
      'test/config/sweep.test.ts',
    ],
  },
  strategies: {
    mutate: ['strategies/**/*.ts'],
    tests: ['test/strategies/**/*.test.ts', 'test/kit/**/*.test.ts'],
  },
  judges: { mutate: ['judges/**/*.ts'], tests: ['test/judges/**/*.test.ts'] },
  // As the runner was when issue 20 was filed: the call path (now harness/calls/), the journal (now
  // harness/core/journal.ts) and the latest-row rule (now reports/latest-rows.ts) were part of it.
  'harness/runner': {
    mutate: [
      'harness/runner/**/*.ts',
      'harness/calls/**/*.ts',
      'harness/core/journal.ts',
      'reports/latest-rows.ts',
    ],
    // The runner also runs, in-process, under the live, canary, judge, sweep and shard tests.
    tests: [
      'test/runner/**/*.test.ts',
      'test/live/**/*.test.ts',
      'test/judges/canary.test.ts',
      'test/judges/criterion-judge.test.ts',
      'test/config/sweep.test.ts',
      'test/core/primary-criterion.test.ts',
      'test/providers/bad-bodies.test.ts',
      'test/strategies/cli-and-runner.test.ts',
      'test/gate/shard.test.ts',
      // preflight (validate, run --dry-run) in-process; its one CLI test is skipped below.
      'test/config/preflight.test.ts',
    ],
    // Drive the CLI only (run, baseline, gate, validate in child processes); the first times out under load.
    skip: ['the gate passes a rerun and fails a regression in a swept arm', 'validate: an empty folder'],
  },
};
