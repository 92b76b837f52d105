import { existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { freshDist } from '../../bin/dist.js';
import { buildDist } from '../../scripts/build.mjs';
import { repoRoot } from './cli.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A directory for fixtures shared by the test files of one `vitest run` (test/support/shared-run.ts). */
    sharedFixtures: string;
  }
}

/**
 * Once per `vitest run`, before any test file:
 *
 * - **dist/ made current** when it is missing or older than a source (what `npm run build` does; `npm ci`
 *   has already done it in CI). Every CLI test spawns `bin/handoff-eval.js`, which runs the bundle when it
 *   is current and otherwise compiles the sources through tsx at each start — about 1.5 s more per child
 *   on this machine, hundreds of children per suite. The code the children run is the same either way;
 *   test/core/dist.test.ts runs the CLI both ways. HANDOFF_EVAL_FROM_SOURCE=1 keeps the sources (and
 *   skips the build).
 * - **a directory for shared fixtures** (one expensive run several files assert on), removed at the end.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  if (process.env.HANDOFF_EVAL_FROM_SOURCE !== '1' && !freshDist('cli')) await rebuildDist();
  const shared = mkdtempSync(join(tmpdir(), 'he-shared-fixtures-'));
  project.provide('sharedFixtures', shared);
  return () => rmSync(shared, { recursive: true, force: true });
}

/**
 * Builds beside dist/ and swaps it in by renames, so a CLI started meanwhile (another run in this
 * checkout) sees the old bundle, no dist/ (it then runs the sources), or the new one — never half of one.
 * dist/types/ (made by `npm pack`'s prepack) is carried over, as `npm run build` keeps it.
 */
async function rebuildDist(): Promise<void> {
  const dist = join(repoRoot, 'dist');
  const next = join(repoRoot, `.dist-test-setup-${process.pid}`);
  const old = join(repoRoot, `.dist-test-old-${process.pid}`);
  try {
    await buildDist(next);
    if (existsSync(dist)) {
      renameSync(dist, old);
      if (existsSync(join(old, 'types'))) renameSync(join(old, 'types'), join(next, 'types'));
    }
    renameSync(next, dist);
  } catch (err) {
    // Not fatal: the CLI falls back to the sources. Said once, so a slow suite is explained.
    process.stderr.write(
      `test setup: dist/ not rebuilt (${(err as Error).message}); the CLI tests run the sources\n`,
    );
  } finally {
    rmSync(next, { recursive: true, force: true });
    rmSync(old, { recursive: true, force: true });
  }
}
