import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { freshDist } from '../../bin/dist.js';
import { buildDist } from '../../scripts/build.mjs';
import { repoRoot, runCli } from '../support/cli.ts';

/** A package root with dist/cli.js built at `builtAt` from one source file. */
function fakePackage(builtAt: number): { root: string; source: string } {
  const root = mkdtempSync(join(tmpdir(), 'he-dist-'));
  mkdirSync(join(root, 'dist'));
  mkdirSync(join(root, 'harness'));
  const source = join(root, 'harness', 'a.ts');
  writeFileSync(source, 'export {};\n');
  writeFileSync(join(root, 'dist', 'cli.js'), 'export {};\n');
  writeFileSync(join(root, 'dist', 'stamp.json'), JSON.stringify({ builtAt, sources: ['harness/a.ts'] }));
  return { root, source };
}

describe('bin/dist.js: bundle or sources', () => {
  it('runs the bundle only while no source it was built from is newer', () => {
    const now = Date.now();
    const { root, source } = fakePackage(now);
    utimesSync(source, new Date(now - 60_000), new Date(now - 60_000));
    expect(freshDist('cli', root)).toBe(join(root, 'dist', 'cli.js'));
    expect(freshDist('bench-render', root)).toBeNull(); // an entry that was not built
    utimesSync(source, new Date(now + 60_000), new Date(now + 60_000)); // edited after the build
    expect(freshDist('cli', root)).toBeNull();
    rmSync(source); // a source that is gone
    expect(freshDist('cli', root)).toBeNull();
    rmSync(root, { recursive: true, force: true });
  });

  it('falls back to the sources without a build, with a broken stamp, or when asked to', () => {
    const { root } = fakePackage(Date.now() + 60_000);
    expect(freshDist('cli', root)).not.toBeNull();
    process.env.HANDOFF_EVAL_FROM_SOURCE = '1';
    try {
      expect(freshDist('cli', root)).toBeNull();
    } finally {
      delete process.env.HANDOFF_EVAL_FROM_SOURCE;
    }
    writeFileSync(join(root, 'dist', 'stamp.json'), '{"builtAt":');
    expect(freshDist('cli', root)).toBeNull();
    rmSync(join(root, 'dist'), { recursive: true });
    expect(freshDist('cli', root)).toBeNull();
    rmSync(root, { recursive: true, force: true });
  });

  it('the bundled CLI writes the same report as the sources', async () => {
    // Built next to the repo's own dist/ (one level below the package root, as dist/ is), so the
    // tests that run the bin meanwhile are not disturbed.
    const out = join(repoRoot, `.dist-test-${process.pid}`);
    const runs = mkdtempSync(join(tmpdir(), 'he-dist-runs-'));
    try {
      const { sources } = await buildDist(out);
      expect(sources).toBeGreaterThan(50);
      const stamp = JSON.parse(readFileSync(join(out, 'stamp.json'), 'utf8')) as { sources: string[] };
      expect(stamp.sources).toContain('harness/runner/run.ts');
      expect(stamp.sources.every((s) => !s.includes('node_modules'))).toBe(true);
      const args = ['run', '--config', 'test/fixtures/eval.config.ts', '--no-cache', '--quiet'];
      const script = `const { main } = await import(${JSON.stringify(pathToFileURL(join(out, 'cli.js')).href)}); process.exitCode = await main(process.argv.slice(1));`;
      const bundled = spawnSync(process.execPath, ['--input-type=module', '-e', script, ...args, '--out', join(runs, 'bundled')], { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, CI: 'true' } });
      expect(bundled.stderr).not.toMatch(/Error/);
      expect(bundled.status).toBe(0);
      const source = runCli([...args, '--out', join(runs, 'source')], { env: { HANDOFF_EVAL_FROM_SOURCE: '1' } });
      expect(source.code).toBe(0);
      const report = (dir: string) => {
        const run = readdirSync(dir)[0]!;
        return readFileSync(join(dir, run, 'report.md'), 'utf8').replaceAll(run, 'RUN');
      };
      expect(report(join(runs, 'bundled'))).toBe(report(join(runs, 'source')));
      expect(report(join(runs, 'bundled'))).toContain('Simulated — not a measurement of any model');
    } finally {
      rmSync(out, { recursive: true, force: true });
      rmSync(runs, { recursive: true, force: true });
    }
  });
});
