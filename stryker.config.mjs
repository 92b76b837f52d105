// StrykerJS mutation testing (issue 20): `npm run mutate -- <module>` (see scripts/mutate.mjs and
// docs/testing.md). One module per run, each with its own incremental file under reports/mutation/
// (git-ignored), so a later run re-tests only the mutants whose code or covering tests changed.
import { MODULES } from './scripts/mutation-modules.mjs';

const name = process.env.MUTATION_MODULE ?? 'reports/stats';
const module = MODULES[name];
if (!module) throw new Error(`MUTATION_MODULE=${name}: not one of ${Object.keys(MODULES).join(', ')}`);
// MUTATION_ONLY: comma-separated files of the module to measure alone (a part of a module that is too
// slow to measure whole on 2 cores); its own incremental file, so it never erases the module's.
const only = process.env.MUTATION_ONLY?.split(',').filter(Boolean);
// MUTATION_SAMPLE: the mutants drawn by scripts/mutation-sample.mjs; the sample checker lets only
// them through to the tests. Measured under its own slug (MUTATION_SLUG).
const sampled = Boolean(process.env.MUTATION_SAMPLE);
const slug =
  process.env.MUTATION_SLUG ??
  name.replaceAll('/', '-') +
    (only ? `.${only.map((f) => f.replace(/.*\//, '').replace(/\.ts$/, '')).join('+')}` : '') +
    (process.env.MUTATION_TRIAGE_TESTS ? '.triage' : '');
// MUTATION_TRIAGE_TESTS: comma-separated test globs to use instead of the module's list — a triage run
// (docs/testing.md, "Finding survivors quickly"): fast in-process tests only, so its survivors are a
// superset of a real run's, found in minutes. Never for a score. Its own incremental file.
const triage = process.env.MUTATION_TRIAGE_TESTS?.split(',').filter(Boolean);
process.env.MUTATION_TESTS = (triage ?? module.tests).join(',');
process.env.MUTATION_SKIP = (module.skip ?? []).join('|');

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner', ...(sampled ? ['./scripts/mutation-sample-checker.mjs'] : [])],
  ...(sampled ? { checkers: ['sample'] } : {}),
  vitest: { configFile: 'vitest.mutation.config.ts', related: true },
  mutate: only ?? module.mutate,
  coverageAnalysis: 'perTest',
  // A static mutant (a module-level constant) would re-run every test in a fresh process; on a shared
  // 2-core machine that is too slow, so they are left out and docs/testing.md says so.
  ignoreStatic: true,
  incremental: true,
  incrementalFile: `reports/mutation/${slug}.incremental.json`,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: `reports/mutation/${slug}.html` },
  jsonReporter: { fileName: `reports/mutation/${slug}.json` },
  // 2, with or without the sample checker: Stryker gives half the processes to checkers while they run
  // (one test runner for the minute the sample checker takes), then hands their places to test runners.
  // 4 (used until 3 Dec) ends with four test runners on these two cores: each test takes about twice its
  // dry-run time, long ones pass Stryker's timeout (1.5 × dry run + 20 s), and a mutant the tests would
  // have killed or let survive is counted as a timeout — 12 of the first 22 drawn strategies mutants.
  concurrency: Number(process.env.MUTATION_CONCURRENCY ?? 2),
  timeoutMS: 20_000,
  // MUTATION_DRY_RUN_MINUTES: the first run of every covering test, per-test coverage on; strategies'
  // took over 18 minutes with six helpers sharing the machine (load ~20 on 2 cores).
  dryRunTimeoutMinutes: Number(process.env.MUTATION_DRY_RUN_MINUTES ?? 20),
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  thresholds: { high: 90, low: 80, break: null },
};
