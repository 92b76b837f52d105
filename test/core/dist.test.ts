import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
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

  describe('a bundle built by scripts/build.mjs', () => {
    // Built next to the repo's own dist/ (one level below the package root, as dist/ is), so the
    // tests that run the bin meanwhile are not disturbed.
    const out = join(repoRoot, `.dist-test-${process.pid}`);
    const scratch = mkdtempSync(join(tmpdir(), 'he-dist-runs-'));
    beforeAll(async () => {
      const { sources } = await buildDist(out);
      expect(sources).toBeGreaterThan(50);
    });
    afterAll(() => {
      rmSync(out, { recursive: true, force: true });
      rmSync(scratch, { recursive: true, force: true });
    });
    /** The bundled CLI (this test's build) or the sources (the bin, forced to them), in `cwd`. */
    const cli = (mode: 'bundle' | 'sources', args: string[], cwd = repoRoot) => {
      if (mode === 'sources') return runCli(args, { cwd, env: { HANDOFF_EVAL_FROM_SOURCE: '1' } });
      const script = `const { main } = await import(${JSON.stringify(pathToFileURL(join(out, 'cli.js')).href)}); process.exitCode = await main(process.argv.slice(1));`;
      const r = spawnSync(process.execPath, ['--input-type=module', '-e', script, ...args], {
        cwd,
        encoding: 'utf8',
        env: { ...process.env, CI: 'true' },
      });
      return { code: r.status, stdout: r.stdout, stderr: r.stderr };
    };

    it('lists every bundled source in its stamp', () => {
      const stamp = JSON.parse(readFileSync(join(out, 'stamp.json'), 'utf8')) as { sources: string[] };
      expect(stamp.sources).toContain('harness/runner/run.ts');
      expect(stamp.sources.every((s) => !s.includes('node_modules'))).toBe(true);
      expect(statSync(join(out, 'o200k-table.bin')).size).toBeGreaterThan(3_000_000); // the prebuilt token table
    });

    it('writes the same report as the sources', () => {
      const args = ['run', '--config', 'test/fixtures/eval.config.ts', '--no-cache', '--quiet'];
      const bundled = cli('bundle', [...args, '--out', join(scratch, 'bundled')]);
      expect(bundled.stderr).not.toMatch(/Error/);
      expect(bundled.code).toBe(0);
      expect(cli('sources', [...args, '--out', join(scratch, 'source')]).code).toBe(0);
      const report = (dir: string) => {
        const run = readdirSync(dir)[0]!;
        return readFileSync(join(dir, run, 'report.md'), 'utf8').replaceAll(run, 'RUN');
      };
      expect(report(join(scratch, 'bundled'))).toBe(report(join(scratch, 'source')));
      expect(report(join(scratch, 'bundled'))).toContain('Simulated — not a measurement of any model');
    });

    for (const mode of ['bundle', 'sources'] as const) {
      it(`loads a TypeScript config as written, from the ${mode}: relative imports, packages, import.meta.url`, () => {
        const project = mkdtempSync(join(scratch, `project-${mode}-`));
        mkdirSync(join(project, 'node_modules', 'tiny-lib'), { recursive: true });
        symlinkSync(repoRoot, join(project, 'node_modules', 'handoff-eval'), 'dir');
        writeFileSync(
          join(project, 'node_modules', 'tiny-lib', 'package.json'),
          '{"name":"tiny-lib","type":"module","exports":"./index.js"}',
        );
        writeFileSync(
          join(project, 'node_modules', 'tiny-lib', 'index.js'),
          'export const arms = ["inline", "brick"];\n',
        );
        writeFileSync(join(project, 'settings.ts'), 'export const reps: number = 2;\n');
        writeFileSync(
          join(project, 'eval.config.ts'),
          `import { fileURLToPath } from 'node:url';
import { defineConfig } from 'handoff-eval';
import { arms } from 'tiny-lib';
import { reps } from './settings.ts';
export default defineConfig({ casesDir: ${JSON.stringify(join(repoRoot, 'test/fixtures/cases'))}, reps, cache: false,
  outDir: fileURLToPath(new URL('./my-runs', import.meta.url)), suites: [{ id: 'mini', arms }] });
`,
        );
        const elsewhere = mkdtempSync(join(scratch, 'cwd-'));
        const r = cli(mode, ['run', '--config', join(project, 'eval.config.ts'), '--quiet'], elsewhere);
        expect(r.stderr).not.toMatch(/Error/);
        expect(r.code).toBe(0);
        const run = readdirSync(join(project, 'my-runs'))[0]!;
        const rows = readFileSync(join(project, 'my-runs', run, 'results.jsonl'), 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as { arm: string });
        expect(rows).toHaveLength(2 * 2);
        expect(new Set(rows.map((x) => x.arm))).toEqual(new Set(['inline', 'brick']));
      });

      it(`reports a config that does not compile in one line, exit 2, from the ${mode}`, () => {
        const project = mkdtempSync(join(scratch, `broken-${mode}-`));
        writeFileSync(join(project, 'eval.config.ts'), 'export default { reps: 2,, };\n');
        const r = cli(mode, ['run', '--quiet'], project);
        expect(r.code).toBe(2);
        expect(r.stderr.trim().split('\n')).toHaveLength(1);
        expect(r.stderr).toContain(`${join(project, 'eval.config.ts')}: (file): could not be loaded`);
      });
    }
  });
});
