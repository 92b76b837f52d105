import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startMockLlmServer } from '../support/mock-llm-server.ts';
import { runCliAsync } from '../support/cli.ts';
import { fixtureCases, mockEnv, rowsOf, tempDir, testModels } from '../support/mock-run.ts';

/**
 * A planted key must not reach any file a run writes: config.json, the journals, the reports, the
 * response cache — even when the server echoes the credentials back in an error message.
 */
const planted = 'sk-PLANTED-4f1c9e7a2b3d4e5f6a7b8c9d';
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((f) =>
    statSync(join(dir, f)).isDirectory() ? filesUnder(join(dir, f)) : [join(dir, f)],
  );
}

describe.each(['anthropic', 'openai'] as const)('%s: no API key in any written file', (provider) => {
  it('searches every file of the run directory and the cache directory', async () => {
    const dir = tempDir('keys');
    const echo = await startMockLlmServer({
      faults: ({ n }) => (n % 5 === 0 ? { type: 'echo-auth' } : undefined),
    });
    try {
      writeFileSync(
        join(dir, 'eval.config.ts'),
        `export default ${JSON.stringify({ casesDir: fixtureCases, reps: 2, provider, models: testModels, cache: { dir: join(dir, 'cache') }, providers: { [provider]: { maxRetries: 0 } } })};\n`,
      );
      const r = await runCliAsync(['run', '--out', join(dir, 'runs'), '--quiet'], {
        cwd: dir,
        env: mockEnv(echo, planted),
      });
      expect(r.code, r.stderr).toBe(0);
      const runDir = join(dir, 'runs', readdirSync(join(dir, 'runs'))[0]!);
      // The echo fault really put the key into an error message the harness handled.
      expect(echo.stats.faults['echo-auth']).toBeGreaterThan(0);
      const rows = rowsOf(runDir);
      expect(
        rows.some((row) => row.status === 'error' && /rejected credentials/.test(row.error ?? '')) ||
          readFileSync(join(runDir, 'calls.jsonl'), 'utf8').includes('rejected credentials'),
      ).toBe(true);
      const written = [...filesUnder(runDir), ...filesUnder(join(dir, 'cache'))];
      expect(written.map((f) => f.split('/').pop())).toEqual(
        expect.arrayContaining([
          'config.json',
          'results.jsonl',
          'calls.jsonl',
          'report.md',
          'results.csv',
          'responses.sqlite',
        ]),
      );
      for (const f of written) expect(readFileSync(f).includes(planted), f).toBe(false);
      // Neither in the output a user might paste into a ticket.
      expect(r.stdout.includes(planted) || r.stderr.includes(planted)).toBe(false);
    } finally {
      await echo.close();
    }
  });
});
