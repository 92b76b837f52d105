import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { resolveConfig } from '../../harness/config/resolve-config.ts';
import { runExperiment } from '../../harness/runner/run.ts';
import { startMockLlmServer, type MockServer } from '../support/mock-llm-server.ts';
import { fixtureCases, mockEnv, tempDir, testModels } from '../support/mock-run.ts';

/**
 * A server that echoes the configured key inside a 200 answer (issue 28 #11): no file the run writes
 * holds the key — results.jsonl, calls.jsonl, report.html / report.md, results.csv, config.json, and the
 * response cache's SQLite file, read as raw bytes.
 */
const KEY = 'sk-test-echoed-secret-key-4242';
let mock: MockServer;
const isJudge = (body: any) => body.tool_choice?.type === 'tool' || body.tool_choice?.type === 'function';
beforeAll(async () => {
  mock = await startMockLlmServer({
    responder: (body) =>
      isJudge(body) ? undefined : { text: `Debug: your key is ${KEY}. The answer is 2023-10.` },
  });
});
afterAll(() => mock.close());

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

describe.each(['anthropic', 'openai'] as const)('a key echoed by %s', (provider) => {
  it('is in no file the run writes, the cache included', async () => {
    const dir = tempDir('key-echo');
    const old = { ...process.env };
    Object.assign(process.env, mockEnv(mock, KEY));
    try {
      const config = resolveConfig(
        {
          casesDir: fixtureCases,
          reps: 1,
          seed: 5,
          provider,
          models: testModels,
          cache: { dir: join(dir, 'cache') },
          outDir: join(dir, 'runs'),
        },
        { quiet: true },
      );
      const { dir: runDir, rows } = await runExperiment({ config });
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every((r) => r.status === 'ok')).toBe(true);
      expect(JSON.stringify(rows[0]!.detail)).toContain('your key is [redacted]');
      const written = files(dir);
      expect(written.some((f) => f.endsWith('results.jsonl'))).toBe(true);
      expect(written.some((f) => /cache/.test(f))).toBe(true);
      expect(written.some((f) => f.endsWith('report.html'))).toBe(true);
      for (const f of written) expect(readFileSync(f).includes(KEY), f).toBe(false);
      void runDir;
    } finally {
      process.env = old;
    }
  });
});
