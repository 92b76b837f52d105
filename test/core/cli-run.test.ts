import { describe, expect, it } from 'vitest';
import {
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  writeFileSync,
  cpSync,
  mkdirSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliPath, repoRoot, runCli, startCli } from '../support/cli.ts';
import { spawnSync } from 'node:child_process';
import type { ResultRow } from '../../harness/core/index.ts';

const fixtureCases = join(repoRoot, 'test/fixtures/cases');

/** A user project in a temp dir, with handoff-eval "installed" (linked) so its config can import it. */
function tempProject(configBody: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'he-cli-'));
  writeFileSync(join(dir, 'eval.config.ts'), configBody);
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(repoRoot, join(dir, 'node_modules', 'handoff-eval'), 'dir');
  return dir;
}

function rowsOf(runDir: string): ResultRow[] {
  return readFileSync(join(runDir, 'results.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as ResultRow);
}

const onlyRun = (out: string) => join(out, readdirSync(out)[0]!);

describe('handoff-eval run', () => {
  it('runs every case × arm × rep on the sim and writes the run directory', () => {
    const out = mkdtempSync(join(tmpdir(), 'he-out-'));
    const r = runCli(['run', '--config', 'test/fixtures/eval.config.ts', '--out', out]);
    expect(r.stderr).toContain('a simulation, not a measurement of any model');
    expect(r.code).toBe(0);
    const dir = onlyRun(out);
    for (const f of ['config.json', 'results.jsonl', 'calls.jsonl', 'report.md', 'results.csv'])
      expect(existsSync(join(dir, f)), f).toBe(true);
    const rows = rowsOf(dir);
    expect(rows).toHaveLength(1 * 3 * 2);
    expect(new Set(rows.map((x) => x.cell_id)).size).toBe(rows.length);
    expect(rows.every((x) => x.status === 'ok')).toBe(true);
    expect(readFileSync(join(dir, 'report.md'), 'utf8')).toContain(
      'Simulated — not a measurement of any model',
    );
    expect(r.stdout).toContain(`run directory: ${dir}`);
    const calls = readFileSync(join(dir, 'calls.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(calls.filter((c) => c.role === 'receiver')).toHaveLength(6);
    expect(calls.every((c) => typeof c.latencyMs === 'number' && c.inputTokens > 0)).toBe(true);
  });

  it('a reader that closes early (run | head) is not an error: no EPIPE, exit 0, the run written', () => {
    const out = mkdtempSync(join(tmpdir(), 'he-out-'));
    const cmd = `"${process.execPath}" "${cliPath}" run --config test/fixtures/eval.config.ts --out "${out}" --quiet`;
    const r = spawnSync(
      'bash',
      ['-c', `set -o pipefail; ${cmd} 2>"${join(out, 'stderr')}" | head -c 1 >/dev/null`],
      {
        cwd: repoRoot,
        encoding: 'utf8',
        env: { ...process.env, CI: 'true' },
      },
    );
    expect(readFileSync(join(out, 'stderr'), 'utf8')).not.toMatch(/EPIPE|Unhandled/);
    expect(r.status).toBe(0);
    expect(existsSync(join(onlyRun(out), 'report.md'))).toBe(true);
  });

  it('is deterministic for a seed', () => {
    const a = mkdtempSync(join(tmpdir(), 'he-a-'));
    const b = mkdtempSync(join(tmpdir(), 'he-b-'));
    runCli(['run', '--config', 'test/fixtures/eval.config.ts', '--out', a, '--quiet']);
    runCli(['run', '--config', 'test/fixtures/eval.config.ts', '--out', b, '--quiet']);
    const strip = (rows: ResultRow[]) =>
      rows.map(({ run_id: _r, ...rest }) => rest).sort((x, y) => x.cell_id.localeCompare(y.cell_id));
    expect(strip(rowsOf(onlyRun(a)))).toEqual(strip(rowsOf(onlyRun(b))));
  });

  it('records a failing cell as an error row and goes on', () => {
    const dir = tempProject(`
import { defineConfig, defineStrategy, strategies } from 'handoff-eval';
const boom = defineStrategy({ name: 'boom', description: 'fails on rep 1', seed: 'test', params: {},
  async prepare(ctx) { if (ctx.rep === 1) throw new Error('boom on rep 1'); return strategies.inline.prepare(ctx, {}); } });
export default defineConfig({ casesDir: ${JSON.stringify(fixtureCases)}, reps: 2, cache: false, strategies: { boom },
  suites: [{ id: 'mini', arms: ['boom', 'inline'], extraArms: [{ name: 'boom', strategy: 'boom', models: { source: 'large', receiver: 'large' } }] }] });
`);
    const r = runCli(['run', '--out', join(dir, 'runs'), '--quiet'], { cwd: dir });
    // The run goes on and finishes; 1 error row in 4 cells is over the default threshold (exit 3).
    expect(r.code).toBe(3);
    const rows = rowsOf(onlyRun(join(dir, 'runs')));
    expect(rows).toHaveLength(4);
    const failed = rows.filter((x) => x.status === 'error');
    expect(failed.map((x) => x.cell_id)).toEqual(['mini/deprecation-1/boom/1']);
    expect(failed[0]!.error).toBe('Error: boom on rep 1');
    expect(rows.filter((x) => x.status === 'ok')).toHaveLength(3);
  });

  it('leaves only complete rows in the journal when interrupted with Ctrl-C', async () => {
    // A deliberately slow strategy keeps the run going long enough to interrupt it at a known point.
    const dir = tempProject(`
import { defineConfig, defineStrategy, strategies } from 'handoff-eval';
const slow = defineStrategy({ name: 'slow', description: 'waits 100 ms', seed: 'test', params: {},
  async prepare(ctx) { await new Promise((r) => setTimeout(r, 100)); return strategies.inline.prepare(ctx, {}); } });
export default defineConfig({ casesDir: ${JSON.stringify(fixtureCases)}, reps: 200, concurrency: 2, cache: false, strategies: { slow },
  suites: [{ id: 'mini', arms: ['slow'], extraArms: [{ name: 'slow', strategy: 'slow', models: { source: 'large', receiver: 'large' } }] }] });
`);
    const out = join(dir, 'runs');
    const child = startCli(['run', '--out', out], { cwd: dir });
    let stderr = '';
    const code = await new Promise<number | null>((resolve) => {
      let sent = false;
      child.stderr.on('data', (d) => {
        stderr += String(d);
        if (!sent && /progress: [1-9]\d*\//.test(stderr)) {
          sent = true;
          child.kill('SIGINT');
        }
      });
      child.on('exit', (c) => resolve(c));
    });
    expect(code).toBe(130);
    expect(stderr).toContain('interrupted after');
    const text = readFileSync(join(onlyRun(out), 'results.jsonl'), 'utf8');
    const lines = text.split('\n').filter(Boolean);
    expect(text.endsWith('\n')).toBe(true);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.length).toBeLessThan(200);
    for (const l of lines) expect((JSON.parse(l) as ResultRow).status).toBe('ok');
  });
});

describe('bad input exits 2 with one line naming the file and the field', () => {
  it('an invalid config value', () => {
    const dir = tempProject('export default { reps: -1 };\n');
    const r = runCli(['run', '--quiet'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(
      `handoff-eval: ${join(dir, 'eval.config.ts')}: reps: must be a positive integer (got -1)`,
    );
  });

  it('an unknown suite lists the valid ones', () => {
    const r = runCli(['run', '--config', 'test/fixtures/eval.config.ts', '--suite', 'nope', '--quiet']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown suite "nope"; valid: mini/);
  });

  it('an unknown arm and an unknown provider list the valid ones', () => {
    const arm = runCli(['run', '--config', 'test/fixtures/eval.config.ts', '--arm', 'nope', '--quiet']);
    expect(arm.code).toBe(2);
    expect(arm.stderr).toMatch(/unknown arm "nope"; valid: brick, full-transcript, inline/);
    const prov = runCli(['run', '--config', 'test/fixtures/eval.config.ts', '--provider', 'nope', '--quiet']);
    expect(prov.code).toBe(2);
    expect(prov.stderr).toMatch(/unknown provider "nope"; valid: sim, anthropic, openai/);
  });

  it('a malformed case file, in run and in validate', () => {
    const dir = mkdtempSync(join(tmpdir(), 'he-bad-'));
    const cases = join(dir, 'cases');
    mkdirSync(cases);
    cpSync(join(fixtureCases, 'mini'), join(cases, 'mini'), { recursive: true });
    const file = join(cases, 'mini/cases/deprecation-1.json');
    const json = JSON.parse(readFileSync(file, 'utf8'));
    json.assertions[1].kind = 'maybe';
    writeFileSync(file, JSON.stringify(json));
    writeFileSync(join(dir, 'eval.config.ts'), 'export default { casesDir: "cases" };\n');
    const run = runCli(['run', '--quiet'], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `${join('cases', 'mini/cases/deprecation-1.json')} (case deprecation-1): assertions.1.kind: must be equal to one of the allowed values`,
    );
    const validate = runCli(['validate', 'cases'], { cwd: dir });
    expect(validate.code).toBe(2);
    expect(validate.stdout).toContain('assertions.1.kind');
  });

  it('a case whose hedge lost its qualifier is rejected by meaning, not only by schema', () => {
    const dir = mkdtempSync(join(tmpdir(), 'he-bad2-'));
    cpSync(join(fixtureCases, 'mini'), join(dir, 'mini'), { recursive: true });
    const file = join(dir, 'mini/cases/deprecation-1.json');
    const json = JSON.parse(readFileSync(file, 'utf8'));
    json.assertions[1].statement = 'The sandbox adapter uses the same version pin';
    writeFileSync(file, JSON.stringify(json));
    const r = runCli(['validate', join(dir, 'mini')]);
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/assertions\[1\]\.statement: must carry one of its qualifier cues/);
  });
});
