import type { World } from '../../harness/core/index.ts';
import type { Scenario } from './scenarios.ts';

/**
 * The world a spawned child acts in (live mode, docs/live.md): the files the parent's groundwork read,
 * as the parent read them, and the repository's recorded test outcomes — the full suite (what the
 * parent's orchestration request reserves for after the merge) and one scope per child's package. The
 * outcomes are the world's recording: the world is read-only, nothing runs.
 */
const suites: Record<string, { command: string; full: string }> = {
  'api-v3': {
    command: 'pnpm -r test',
    full: 'Scope: 4 of 4 workspace projects\nTest Files  38 passed (38)\n     Tests  412 passed (412)',
  },
  typing: {
    command: 'pytest && mypy --strict ledgerd',
    full: '612 passed in 48.31s\nFound 187 errors in 41 files (checked 96 source files)',
  },
  flaky: {
    command: 'pnpm test:e2e',
    full: '118 passed, 3 flaky (checkout 3DS, coupon stacking, session timeout)',
  },
  i18n: { command: 'pnpm test:e2e --project=en', full: '96 passed (en); other locales not run' },
};

export function spawnWorld(sc: Scenario): World {
  const files: Record<string, string> = {};
  for (const g of sc.groundwork)
    for (const c of g.calls)
      if (c.name === 'read_file' && !c.isError) files[String((c.input as { path: string }).path)] = c.result;
  const s = suites[sc.id] ?? { command: 'the full test suite', full: 'all tests passed' };
  const scopes = Object.fromEntries(
    sc.children.map((c) => [
      c.name,
      { output: `${c.name}: all tests passed (recorded before the change)`, exitCode: 0 },
    ]),
  );
  return {
    files,
    tests: { command: s.command, output: s.full, exitCode: s.full.includes('error') ? 1 : 0, scopes },
  };
}

/** The call that carries the orchestration request out: the whole-tree test run, no scope. */
export const orchestrationCalls = [{ name: 'run_tests', input: { scope: null } }];
