import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startMockLlmServer, type MockServer } from '../support/mock-llm-server.ts';
import type { MockReply } from '../support/mock-llm-wire.ts';
import { scriptedAgent } from '../support/mock-agent.ts';
import { repoRoot, runCliAsync, startCli } from '../support/cli.ts';
import { callsOf, exactlyOnce, mockEnv, rowsOf, tempDir, testModels } from '../support/mock-run.ts';

/**
 * `handoff-eval run --mode live` end to end through the real CLI: offline on the sim, and the same
 * config through the openai and anthropic providers against the loopback mock (a scripted agent
 * answers the source loop's turns with parallel tool calls). Cache and resume cover live cells.
 */
const liveCases = join(repoRoot, 'test/fixtures/live-cases');
let mock: MockServer;
const script: MockReply[] = [
  {
    text: 'Table and code first.',
    toolCalls: [
      {
        name: 'query',
        input: { sql: "SELECT merchant_id FROM merchant_config WHERE api_version = '2023-10'" },
      },
      { name: 'search_code', input: { query: 'FALLBACK' } },
    ],
  },
  { toolCall: { name: 'read_file', input: { path: 'adapters/../../outside.txt' } } },
  { toolCall: { name: 'read_file', input: { path: 'adapters/paylane.ts' } } },
];
beforeAll(async () => {
  mock = await startMockLlmServer({ latencyMs: 5, responder: scriptedAgent(script) });
});
afterAll(() => mock.close());
beforeEach(() => mock.resetStats());

function project(extra: Record<string, unknown> = {}): string {
  const dir = tempDir('live');
  const config = {
    casesDir: liveCases,
    reps: 2,
    seed: 5,
    models: testModels,
    cache: { dir: join(dir, 'cache') },
    ...extra,
  };
  writeFileSync(join(dir, 'eval.config.ts'), `export default ${JSON.stringify(config)};\n`);
  return dir;
}
const runDirOf = (dir: string) => join(dir, 'runs', readdirSync(join(dir, 'runs')).sort().at(-1)!);

describe('run --mode live on the sim', () => {
  it('re-runs the source over the world and shows effort, budget, latency and span fetches per arm; a re-run calls nothing', async () => {
    const dir = project();
    const r = await runCliAsync(['run', '--mode', 'live', '--out', join(dir, 'runs'), '--quiet'], {
      cwd: dir,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('### Live source');
    expect(r.stdout).toMatch(
      /\| arm \| source tool calls: median \[min–max\] \| budget exhausted \| source output tokens \(median\) \| e2e latency p50 \| Δ vs inline \| span fetches \(cells\) \|/,
    );
    expect(r.stdout).toMatch(/extraLookWithCoverage = 0\.7 — set from the seed/);
    const run = runDirOf(dir);
    const rows = rowsOf(run);
    expect(rows).toHaveLength(6);
    for (const row of rows) {
      expect(row).toMatchObject({
        status: 'ok',
        source_mode: 'live',
        source_tool_budget: 12,
        budget_exhausted: false,
      });
      expect(row.source_tool_calls).toBeGreaterThanOrEqual(3);
      expect(row.source_loop_latency_ms).toBeGreaterThan(0);
      expect(row.latency_ms).toBeGreaterThan(row.source_loop_latency_ms!);
    }
    // Every cell's source ran its own loop turns (the contract's first-turn notice is checked in live-cell.test.ts).
    const acts = callsOf(run).filter((c) => c.purpose === 'act');
    expect(acts.length).toBeGreaterThan(12);
    const csv = readFileSync(join(run, 'results.csv'), 'utf8').split('\n')[0]!;
    expect(csv).toContain('source_tool_calls,source_tool_budget');
    const report = JSON.parse(readFileSync(join(run, 'report.json'), 'utf8'));
    expect(report.suites[0].arms[0].live.toolCalls.median).toBeGreaterThanOrEqual(3);
    expect(report.liveSim.rates.map((x: { name: string }) => x.name)).toContain('extraLookWithCoverage');
    expect(readFileSync(join(run, 'report.html'), 'utf8')).toContain('Live source (tool loop over each case');
    // The same experiment again: every call served by the cache.
    const again = await runCliAsync(['run', '--mode', 'live', '--out', join(dir, 'runs'), '--quiet'], {
      cwd: dir,
    });
    expect(again.code, again.stderr).toBe(0);
    const second = callsOf(runDirOf(dir));
    expect(second.length).toBe(callsOf(run).length);
    expect(second.filter((c) => !c.cached)).toEqual([]);
    expect(rowsOf(runDirOf(dir)).map((x) => x.source_tool_calls)).toEqual(
      rows.map((x) => x.source_tool_calls),
    );
  });

  it('bad input exits 2 naming the field: an unknown mode, a live suite without a single world', async () => {
    const dir = project();
    const bad = await runCliAsync(['run', '--mode', 'replay', '--quiet'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim()).toBe(
      `handoff-eval: ${join(dir, 'eval.config.ts')}: --mode: must be 'recorded' or 'live' (got "replay")`,
    );
    const none = project({ casesDir: join(repoRoot, 'test/fixtures/cases') });
    const r = await runCliAsync(['run', '--mode', 'live', '--quiet'], { cwd: none });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--mode: suite mini \(arm inline\) is live, but none of its cases has a world/);
    expect(existsSync(join(none, 'runs'))).toBe(false);
    // A case whose world would put a file outside it is refused when it loads.
    const fixture = JSON.parse(readFileSync(join(liveCases, 'minilive/cases/live-1.json'), 'utf8'));
    fixture.world.files['../escape.ts'] = 'x';
    const file = join(tempDir('bad-world'), 'bad.json');
    writeFileSync(file, JSON.stringify(fixture));
    const v = await runCliAsync(['validate', file]);
    expect(v.code).toBe(2);
    expect(v.stdout).toContain(
      `ERR ${file} (case live-1): world.files["../escape.ts"]: path "../escape.ts" is outside the world`,
    );
  });
});

describe.each(['openai', 'anthropic'] as const)(
  'run --mode live through the %s provider (loopback mock)',
  (provider) => {
    it('runs the source loop over the wire — parallel calls, an error result — and a re-run makes zero provider calls', async () => {
      const dir = project({ provider });
      const r = await runCliAsync(['run', '--mode', 'live', '--out', join(dir, 'runs'), '--quiet'], {
        cwd: dir,
        env: mockEnv(mock),
      });
      expect(r.code, r.stderr).toBe(0);
      const rows = rowsOf(runDirOf(dir));
      expect(rows).toHaveLength(6);
      for (const row of rows)
        expect(row).toMatchObject({
          status: 'ok',
          source_mode: 'live',
          source_tool_calls: 4,
          source_tool_errors: 1,
          budget_exhausted: false,
          source_loop_turns: 4,
        });
      expect(r.stdout).toContain('### Live source');
      const requests = mock.stats.requests;
      expect(requests).toBeGreaterThan(0);
      mock.resetStats();
      const again = await runCliAsync(['run', '--mode', 'live', '--out', join(dir, 'runs'), '--quiet'], {
        cwd: dir,
        env: mockEnv(mock),
      });
      expect(again.code, again.stderr).toBe(0);
      expect(mock.stats.requests).toBe(0);
    });
  },
);

describe('a killed live run resumes without redoing finished cells', () => {
  it('re-runs only the missing live cells; a second resume calls nothing', async () => {
    const reps = 24;
    const dir = project({
      provider: 'openai',
      reps,
      concurrency: 3,
      providers: { openai: { concurrency: 3 } },
    });
    const child = startCli(['run', '--mode', 'live', '--out', join(dir, 'runs'), '--quiet'], {
      cwd: dir,
      env: mockEnv(mock),
    });
    const exited = new Promise((resolve) => child.on('exit', (_c, signal) => resolve(signal)));
    const journal = () => {
      const runs = existsSync(join(dir, 'runs')) ? readdirSync(join(dir, 'runs')) : [];
      return runs.length ? join(dir, 'runs', runs[0]!, 'results.jsonl') : undefined;
    };
    await new Promise<void>((resolve, reject) => {
      const tick = () => {
        const j = journal();
        const n = j && existsSync(j) ? readFileSync(j, 'utf8').split('\n').filter(Boolean).length : 0;
        if (n >= 6) return resolve();
        if (child.exitCode !== null) return reject(new Error('the run finished before it could be killed'));
        setTimeout(tick, 5);
      };
      tick();
    });
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    const run = runDirOf(dir);
    const before = rowsOf(run);
    expect(before.length).toBeLessThan(3 * reps);
    const resumed = await runCliAsync(['run', '--resume', run, '--quiet'], { cwd: dir, env: mockEnv(mock) });
    expect(resumed.code, resumed.stderr).toBe(0);
    const after = rowsOf(run);
    const expected = ['inline', 'full-transcript', 'structured-contract'].flatMap((arm) =>
      Array.from({ length: reps }, (_, rep) => `minilive/live-1/${arm}/${rep}`),
    );
    expect(
      exactlyOnce(
        after.map((x) => x.cell_id),
        expected,
      ),
    ).toEqual({ missing: [], duplicated: [] });
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.every((x) => x.source_mode === 'live' && x.status === 'ok')).toBe(true);
    mock.resetStats();
    const again = await runCliAsync(['run', '--resume', run, '--quiet'], { cwd: dir, env: mockEnv(mock) });
    expect(again.code, again.stderr).toBe(0);
    expect(mock.stats.requests).toBe(0);
    // 72 live cells, each with its source loop and five classify reads (three transcript sections, payload,
    // answer) over the wire, twice (killed run + resume): ~60 s on a loaded 2-core machine.
  }, 180_000);
});
