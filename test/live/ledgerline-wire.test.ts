import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startMockLlmServer, type MockServer } from '../support/mock-llm-server.ts';
import type { MockReply } from '../support/mock-llm-wire.ts';
import { scriptedAgent } from '../support/mock-agent.ts';
import { runCliAsync } from '../support/cli.ts';
import { mockEnv, rowsOf, tempDir, testModels } from '../support/mock-run.ts';

/**
 * Issue 15's "done when", literally: the shipped ledgerline suite under `--mode live`, the same
 * command as on the sim, through the openai and anthropic providers against the loopback mock. The
 * scripted source makes parallel calls over several rounds, one with a path outside the world and one
 * to a tool that does not exist — both go back to it as error results — and the run reports the live
 * columns per arm. (live-run.test.ts covers the same loop on a small fixture, resume and the sim.)
 */
let mock: MockServer;
const script: MockReply[] = [
  {
    text: 'The table and the code first.',
    toolCalls: [
      { name: 'query', input: { sql: 'SELECT count(*) AS n FROM merchant_config' } },
      { name: 'search_code', input: { query: '2023-10' } },
    ],
  },
  { toolCall: { name: 'read_file', input: { path: '../../etc/passwd' } } },
  { toolCall: { name: 'write_file', input: { path: 'x', text: 'y' } } },
];
beforeAll(async () => {
  mock = await startMockLlmServer({ latencyMs: 2, responder: scriptedAgent(script) });
});
afterAll(() => mock.close());

describe.each(['openai', 'anthropic'] as const)(
  'run --mode live --suite ledgerline through %s',
  (provider) => {
    it('runs every arm live over the world, error results included, and a re-run calls nothing', async () => {
      const dir = tempDir('ledgerline-wire');
      const config = { reps: 1, seed: 3, models: testModels, cache: { dir: join(dir, 'cache') } };
      writeFileSync(join(dir, 'eval.config.ts'), `export default ${JSON.stringify(config)};\n`);
      const args = ['run', '--mode', 'live', '--suite', 'ledgerline', '--case', 'ledgerline-01'];
      const opts = { cwd: dir, env: mockEnv(mock) };
      const r = await runCliAsync(
        [...args, '--provider', provider, '--out', join(dir, 'runs'), '--quiet'],
        opts,
      );
      expect(r.code, r.stderr).toBe(0);
      const run = join(dir, 'runs', readdirSync(join(dir, 'runs'))[0]!);
      const rows = rowsOf(run);
      expect(rows.map((x) => x.arm).sort()).toEqual(
        ['final-message', 'full-transcript', 'inline', 'structured-contract', 'summary'].sort(),
      );
      for (const row of rows)
        expect(row, row.arm).toMatchObject({
          status: 'ok',
          source_mode: 'live',
          source_tool_calls: 4,
          source_tool_errors: 2,
          budget_exhausted: false,
          source_loop_turns: 4,
        });
      expect(r.stdout).toContain('### Live source');
      expect(r.stdout).toMatch(/\| arm \| source tool calls: median \[min–max\] \| budget exhausted \|/);
      expect(r.stdout).toMatch(/\| Δ vs inline \| span fetches \(cells\) \|/);
      expect(r.stdout).toMatch(/\| inline \(baseline\) \| 4\.0 \[4–4\] \| 0\/1 \(0%\) of 12 \|/);
      expect(mock.stats.requests).toBeGreaterThan(0);
      mock.resetStats();
      const again = await runCliAsync(
        [...args, '--provider', provider, '--out', join(dir, 'runs'), '--quiet'],
        opts,
      );
      expect(again.code, again.stderr).toBe(0);
      expect(mock.stats.requests).toBe(0);
    }, 180_000); // two CLI runs of five live cells each: ~45 s on a loaded 2-core machine
  },
);
