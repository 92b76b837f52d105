import { afterEach, describe, expect, it } from 'vitest';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot, startCli } from '../support/cli.ts';
import type { ResultRow } from '../../harness/core/index.ts';

/**
 * SIGTERM is handled as the first Ctrl-C is (stop scheduling, flush, exit 130 with only complete
 * rows); a second signal ends the process at once, even with a cell that would never finish.
 */
const fixtureCases = join(repoRoot, 'test/fixtures/cases');

function tempProject(configBody: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'he-signals-'));
  writeFileSync(join(dir, 'eval.config.ts'), configBody);
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(repoRoot, join(dir, 'node_modules', 'handoff-eval'), 'dir');
  return dir;
}

/** A project whose strategy waits `ms` per cell (ignoring the abort) and marks each start in a file. */
const project = (ms: number, marker: string) =>
  tempProject(`
import { appendFileSync } from 'node:fs';
import { defineConfig, defineStrategy, strategies } from 'handoff-eval';
const slow = defineStrategy({ name: 'slow', description: 'waits ${ms} ms', seed: 'test', params: {},
  async prepare(ctx) { appendFileSync(${JSON.stringify(marker)}, 'x'); await new Promise((r) => setTimeout(r, ${ms})); return strategies.inline.prepare(ctx, {}); } });
export default defineConfig({ casesDir: ${JSON.stringify(fixtureCases)}, reps: 200, concurrency: 2, cache: false, strategies: { slow },
  suites: [{ id: 'mini', arms: ['slow'], extraArms: [{ name: 'slow', strategy: 'slow', models: { source: 'large', receiver: 'large' } }] }] });
`);

const started: ReturnType<typeof startCli>[] = [];
// A run the test could not stop (a regression) is killed, never left behind.
afterEach(() => {
  for (const c of started.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

function run(dir: string, onStderr: (all: string, child: ReturnType<typeof startCli>) => void) {
  const child = startCli(['run', '--out', join(dir, 'runs')], { cwd: dir });
  started.push(child);
  let stderr = '';
  const exit = new Promise<number | null>((resolve) => {
    child.stderr.on('data', (d) => {
      stderr += String(d);
      onStderr(stderr, child);
    });
    child.on('exit', (c) => resolve(c));
  });
  return { child, exit, stderr: () => stderr };
}

describe('signals during a run', () => {
  it('SIGTERM stops the run as Ctrl-C does: exit 130, only complete rows journalled', async () => {
    const dir = project(100, join(tmpdir(), `he-sig-${process.pid}-a`));
    let sent = false;
    const r = run(dir, (all, child) => {
      if (!sent && /progress: [1-9]\d*\//.test(all)) {
        sent = true;
        child.kill('SIGTERM');
      }
    });
    const code = await r.exit;
    expect(code, r.stderr()).toBe(130);
    expect(r.stderr()).toContain('interrupted after');
    const out = join(dir, 'runs');
    const text = readFileSync(join(out, readdirSync(out)[0]!, 'results.jsonl'), 'utf8');
    const lines = text.split('\n').filter(Boolean);
    expect(text.endsWith('\n')).toBe(true);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.length).toBeLessThan(200);
    for (const l of lines) expect((JSON.parse(l) as ResultRow).status).toBe('ok');
  });

  it('a second Ctrl-C exits at once (130) while a cell that would take minutes is still running', async () => {
    const marker = join(tmpdir(), `he-sig-${process.pid}-b`);
    const dir = project(600_000, marker);
    const r = run(dir, () => {});
    // Wait (bounded) until a cell has started, then interrupt twice.
    for (let i = 0; i < 600 && !existsSync(marker); i++) await new Promise((res) => setTimeout(res, 100));
    expect(existsSync(marker)).toBe(true);
    r.child.kill('SIGINT');
    await new Promise((res) => setTimeout(res, 300));
    expect(r.child.exitCode).toBeNull(); // the first signal waits for the cell in flight
    r.child.kill('SIGINT');
    const code = await Promise.race([
      r.exit,
      new Promise((res) => setTimeout(() => res('still running'), 30_000)),
    ]);
    expect(code).toBe(130);
  });
});
