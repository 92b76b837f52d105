import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { resolveConfig } from '../../harness/config/resolve-config.ts';
import { runExperiment } from '../../harness/runner/run.ts';
import { callMatches } from '../../harness/runner/live-cell.ts';
import { repoRoot } from '../support/cli.ts';
import { tempDir } from '../support/mock-run.ts';

/**
 * A spawned child in live mode acts in the world itself: whether its own tool calls carry out the
 * parent's orchestration request (the whole-tree test run the parent reserved for after the merge)
 * is counted per cell, and follows what the child's context shows the request as.
 */
describe('spawn-context, live', () => {
  it("counts the child's tool calls that carry out the orchestration request; an isolated child never makes one", async () => {
    const dir = tempDir('spawn-live');
    const config = resolveConfig(
      { suites: ['spawn-context'], casesDir: join(repoRoot, 'cases'), reps: 3, cache: false, outDir: dir },
      { mode: 'live', quiet: true },
    );
    const { rows } = await runExperiment({ config });
    expect(rows.every((r) => r.status === 'ok' && r.source_mode === 'live')).toBe(true);
    const by = (arm: string) => rows.filter((r) => r.arm === arm);
    const carried = (arm: string) => by(arm).filter((r) => (r.orchestration_tool_calls ?? 0) > 0).length;
    expect(carried('spawn-isolated')).toBe(0);
    expect(carried('spawn-all')).toBeGreaterThan(0);
    expect(carried('spawn-all')).toBeGreaterThan(carried('spawn-summary'));
    for (const r of rows) {
      // No source re-runs for a spawn: the parent is recorded.
      expect(r.source_tool_calls).toBe(0);
      expect(r.receiver_tool_calls).toBeGreaterThanOrEqual(r.orchestration_tool_calls ?? 0);
    }
    // Issue 29 item 6: the child works on its own task with the world's tools, in every arm alike —
    // its own calls are counted apart from the orchestration request's, so an isolated child's calls
    // are its own work, never 0 by construction.
    const own = (arm: string) =>
      by(arm).reduce((n, r) => n + r.receiver_tool_calls! - (r.orchestration_tool_calls ?? 0), 0);
    for (const arm of ['spawn-isolated', 'spawn-all', 'spawn-recent', 'spawn-summary'])
      expect(own(arm), arm).toBeGreaterThan(0);
    expect(own('spawn-isolated')).toBe(own('spawn-all'));
    expect(rows.filter((r) => r.receiver_tool_calls !== r.orchestration_tool_calls).length).toBeGreaterThan(
      0,
    );
  });

  it('a call carries out a pattern when the name matches and each listed field has that value (null = absent)', () => {
    const full = { name: 'run_tests', input: { scope: null } };
    expect(callMatches({ name: 'run_tests', input: {} }, full)).toBe(true);
    expect(callMatches({ name: 'run_tests', input: { scope: 'client' } }, full)).toBe(false);
    expect(callMatches({ name: 'read_file', input: {} }, full)).toBe(false);
  });
});
