import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, runCliAsync } from '../support/cli.ts';
import { rowsOf, tempDir } from '../support/mock-run.ts';

/**
 * Issue 29's "done when": a user's agent given as a command — examples/own-agent/agent.mjs, a script
 * that reads the world and writes an OpenAI-messages session — runs as the live source of
 * `run --mode live --suite ledgerline` through the shipped eval.config.ts plus a `sources` entry.
 * Its tool calls are the row's, final-message hands on its own report, and an agent that fails,
 * hangs or writes garbage gives error rows with its stderr's tail while the other cells run.
 */
const agent = join(repoRoot, 'examples/own-agent/agent.mjs');
const agentArgv = ['--world', '{world}', '--brief', '{brief}', '--out', '{out}', '--budget', '{budget}'];

/** The shipped config, spread, plus the test's own cache and `sources`. */
function project(sources: Record<string, unknown>): string {
  const dir = tempDir('own-source');
  writeFileSync(
    join(dir, 'eval.config.ts'),
    [
      `import shipped from ${JSON.stringify(join(repoRoot, 'eval.config.ts'))};`,
      `export default { ...shipped, cache: { dir: ${JSON.stringify(join(dir, 'cache'))} }, sources: ${JSON.stringify(sources)} };`,
      '',
    ].join('\n'),
  );
  return dir;
}

async function runLive(dir: string, source: string, extra: string[] = [], env: NodeJS.ProcessEnv = {}) {
  const args = ['run', '--mode', 'live', '--source', source, '--suite', 'ledgerline'];
  const r = await runCliAsync(
    [...args, '--case', 'ledgerline-01', '--reps', '1', '--out', join(dir, 'runs'), '--quiet', ...extra],
    { cwd: dir, env },
  );
  const runs = existsSync(join(dir, 'runs')) ? readdirSync(join(dir, 'runs')).sort() : [];
  const runDir = runs.length ? join(dir, 'runs', runs.at(-1)!) : '';
  return { ...r, runDir, rows: runDir ? rowsOf(runDir) : [] };
}

/** The sessions the agent wrote, as kept in the source cache (read straight from the agent's output). */
function cachedSessions(dir: string): { role: string; content?: string | null; tool_calls?: unknown[] }[][] {
  const root = join(dir, 'cache', 'sources');
  return readdirSync(root).map(
    (k) => JSON.parse(readFileSync(join(root, k, 'session'), 'utf8')).messages as never,
  );
}

describe('run --mode live --source <your agent> on the shipped ledgerline suite', () => {
  it('runs the example agent per cell: its tool calls are counted, final-message carries its report, a re-run is served from the cache', async () => {
    const dir = project({
      'example-agent': { command: ['node', agent, ...agentArgv], format: 'openai', version: '1' },
    });
    const r = await runLive(dir, 'example-agent');
    expect(r.code, r.stderr).toBe(0);
    expect(r.rows.map((x) => x.arm).sort()).toEqual(
      ['final-message', 'full-transcript', 'inline', 'structured-contract', 'summary'].sort(),
    );
    // Two briefs: the structured contract's source is told how it will return (its notice); the rest share one.
    const sessions = cachedSessions(dir);
    expect(sessions).toHaveLength(2);
    const callsIn = (s: (typeof sessions)[number]) => s.flatMap((m) => m.tool_calls ?? []).length;
    const reportOf = (s: (typeof sessions)[number]) => s.at(-1)!.content!;
    const plain = sessions.find((s) => !s[1]!.content!.includes('research_result'))!;
    const contract = sessions.find((s) => s[1]!.content!.includes('research_result'))!;
    expect(plain).toBeDefined();
    expect(contract).toBeDefined();
    for (const row of r.rows) {
      expect(row.status, row.error ?? '').toBe('ok');
      expect(row).toMatchObject({ source_mode: 'live', budget_exhausted: false, source_tool_refused: 0 });
      expect((row.detail!.artifacts as { live: { ownSource: string }[] }).live[0]!.ownSource).toBe(
        'example-agent',
      );
      const session = row.arm === 'structured-contract' ? contract : plain;
      expect(session, row.arm).toBeDefined();
      expect(row.source_tool_calls, row.arm).toBe(callsIn(session));
      expect(row.source_loop_turns).toBe(session.filter((m) => m.role === 'assistant').length);
      expect(row.source_loop_latency_ms).toBeGreaterThan(0);
    }
    expect(callsIn(plain)).toBeGreaterThan(3);
    // final-message hands the receiver the agent's own last message, word for word.
    const fm = r.rows.find((x) => x.arm === 'final-message')!;
    expect(reportOf(plain)).toContain('merchant_config.api_version');
    expect(fm.detail!.seen).toContain(reportOf(plain));
    // The report does not call an own agent the sim's tool policy.
    expect(r.stdout).not.toContain('seeded tool policy');
    // …and says whose session the live columns were read from, and which column is not the agent's.
    expect(r.stdout).toContain('Source: your own agent `example-agent`');
    expect(r.stdout).toMatch(
      /source output tokens are the strategy's own source-role calls, not the agent's/,
    );
    // The HTML report says it too, under its live table.
    const page = readFileSync(join(r.runDir, 'report.html'), 'utf8');
    expect(page).toContain(
      '<p class="note">Source: your own agent <code>example-agent</code> (<code>--source</code>)',
    );
    expect(page).not.toContain('Live inline (');
    // Same world, brief, command and version: the re-run imports the kept sessions, the agent does not run.
    const again = await runLive(dir, 'example-agent');
    expect(again.code, again.stderr).toBe(0);
    expect(cachedSessions(dir)).toHaveLength(2);
    for (const row of again.rows)
      expect(
        (row.detail!.artifacts as { live: { ownSourceCached: boolean }[] }).live[0]!.ownSourceCached,
      ).toBe(true);
  }, 180_000);

  it('an agent that fails on one brief gives that cell an error row with its stderr tail; the other cells run', async () => {
    // A wrapper around the example agent that breaks on the contract arm's brief only.
    const dir = project({});
    const wrapper = join(dir, 'flaky.mjs');
    writeFileSync(
      wrapper,
      [
        "import { readFileSync } from 'node:fs';",
        "const brief = readFileSync(process.argv[process.argv.indexOf('--brief') + 1], 'utf8');",
        "if (brief.includes('research_result')) { process.stderr.write('step 1 ok\\nTypeError: cannot read research_result\\n    at flaky.mjs:3\\n'); process.exit(3); }",
        `await import(${JSON.stringify(agent)});`,
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(dir, 'eval.config.ts'),
      readFileSync(join(dir, 'eval.config.ts'), 'utf8').replace(
        'sources: {}',
        `sources: ${JSON.stringify({ flaky: { command: ['node', wrapper, ...agentArgv] } })}`,
      ),
    );
    const r = await runLive(dir, 'flaky');
    expect(r.code).toBe(3); // the run is complete; its error rate is over the gate's maximum
    expect(r.rows).toHaveLength(5);
    const failed = r.rows.filter((x) => x.status === 'error');
    expect(failed.map((x) => x.arm)).toEqual(['structured-contract']);
    expect(failed[0]).toMatchObject({ error_code: 'source_failed' });
    expect(failed[0]!.error).toMatch(
      /source "flaky" \(case ledgerline-01\): exited with code 3; stderr: .*TypeError: cannot read research_result/,
    );
    for (const row of r.rows.filter((x) => x.status === 'ok'))
      expect(row.source_tool_calls).toBeGreaterThan(3);
  }, 180_000);

  it('a hanging agent is killed with its process group; garbage in {out} and a non-zero exit are error rows naming why; the environment holds only what is declared', async () => {
    const dir = project({});
    const pidFile = join(dir, 'grandchild.pid');
    const hang = `const c = require('child_process').spawn('sleep', ['60'], { stdio: 'ignore' }); require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(c.pid)); process.stderr.write('looking...\\n'); setInterval(() => {}, 1000);`;
    const garbage =
      "require('fs').writeFileSync(process.argv[1], 'this is not a session'); process.stderr.write('done, I think\\n');";
    const env = "process.stderr.write(Object.keys(process.env).sort().join(',') + '\\n'); process.exit(4);";
    const sources = {
      hang: { command: ['node', '-e', hang, '{out}'], timeoutMs: 1500 },
      garbage: { command: ['node', '-e', garbage, '{out}'], format: 'openai' },
      env: { command: ['node', '-e', env, '{out}'], env: { DECLARED: 'yes', PASSED_ON: true } },
    };
    writeFileSync(
      join(dir, 'eval.config.ts'),
      readFileSync(join(dir, 'eval.config.ts'), 'utf8').replace(
        'sources: {}',
        `sources: ${JSON.stringify(sources)}`,
      ),
    );
    const one = ['--arm', 'final-message'];
    const hung = await runLive(dir, 'hang', one);
    expect(hung.rows).toHaveLength(1);
    expect(hung.rows[0]).toMatchObject({ status: 'error', error_code: 'source_failed' });
    expect(hung.rows[0]!.error).toMatch(
      /timed out after 1500 ms \(process group killed\); stderr: looking\.\.\./,
    );
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(await exits(pid), 'the agent’s own child outlived the timeout').toBe(true);

    const bad = await runLive(dir, 'garbage', one);
    expect(bad.rows[0]).toMatchObject({ status: 'error', error_code: 'source_failed' });
    expect(bad.rows[0]!.error).toMatch(
      /wrote nothing importable to \{out\} \(format openai\).*; stderr: done, I think/,
    );

    const secret = { OPENAI_API_KEY: 'sk-should-not-leak', ANTHROPIC_API_KEY: 'sk-nor-this', PASSED_ON: 'x' };
    const envRow = (await runLive(dir, 'env', one, secret)).rows[0]!;
    expect(envRow.error).toMatch(/exited with code 4; stderr: /);
    const names = envRow.error!.split('stderr: ')[1]!.split(',');
    expect(names).toEqual(expect.arrayContaining(['DECLARED', 'PASSED_ON', 'PATH']));
    expect(names.filter((n) => !['DECLARED', 'PASSED_ON', 'PATH', 'HOME'].includes(n))).toEqual([]);
  }, 180_000);
});

/**
 * Whether a process is gone within a few seconds: no /proc entry, or a zombie (killed, waiting for
 * init to reap it — the grandchild's parent died first). Bounded: 30 looks, 100 ms apart.
 */
async function exits(pid: number): Promise<boolean> {
  for (let i = 0; i < 30; i++) {
    let state: string | undefined;
    try {
      state = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0];
    } catch {
      return true;
    }
    if (state === 'Z' || state === 'X') return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}
