import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, runCliAsync } from '../support/cli.ts';
import { rowsOf, tempDir } from '../support/mock-run.ts';

/**
 * The own-agent example (examples/own-agent: agent.mjs and its eval.config.ts) run as it ships, from
 * the repository without packing (test/examples/pack-install.test.ts covers the packed examples): its
 * config's `sources.example-agent` runs per live cell, the rows count the agent's own tool calls, and
 * each row records the claims the classifier read the agent making (`assertions`). The cache is off,
 * so nothing is written into the example's directory; the runs go to a temporary directory.
 */
describe('examples/own-agent as shipped', () => {
  it('runs its agent as the live source of ledgerline-01 through its own config', async () => {
    const out = tempDir('own-agent-example');
    const r = await runCliAsync(
      ['run', '--source', 'example-agent', '--case', 'ledgerline-01', '--out', out, '--no-cache', '--quiet'],
      { cwd: join(repoRoot, 'examples/own-agent') },
    );
    expect(r.code, r.stderr).toBe(0);
    const runDir = join(out, readdirSync(out)[0]!);
    const rows = rowsOf(runDir);
    // The inline mode line is not printed: an own agent never runs inside the parent's window.
    expect(readFileSync(join(runDir, 'report.md'), 'utf8')).not.toMatch(/Live inline/);
    expect(rows.map((x) => x.arm).sort()).toEqual(
      ['final-message', 'full-transcript', 'inline', 'structured-contract', 'summary'].sort(),
    );
    for (const row of rows) {
      expect(row.status, row.error ?? '').toBe('ok');
      expect(row.source_mode).toBe('live');
      const [live] = (
        row.detail!.artifacts as { live: { ownSource: string; toolCalls: number; assertions: string[] }[] }
      ).live;
      expect(live!.ownSource).toBe('example-agent');
      expect(row.source_tool_calls).toBe(live!.toolCalls);
      expect(live!.toolCalls).toBeGreaterThan(3);
      const made = (row.detail!.source_claims ?? [])
        .filter((c) => c.location !== 'not_made')
        .map((c) => c.assertionId);
      expect(live!.assertions).toEqual(made);
      expect(row.source_assertions).toBe(made.length);
    }
  });
});
