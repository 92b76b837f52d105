import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '../support/cli.ts';

/**
 * The public API as an installed user gets it: `npm pack` (its prepack and prepare build the types
 * and the bundle), `npm install <tarball>` into a project outside the repository, then each example
 * copied out of the installed package and driven through the installed CLI (`npx handoff-eval …`, or
 * the bin link npx runs).
 *
 * The checkout is packed from a copy (tracked and new files, node_modules linked), so the build that
 * packing runs never rewrites the dist/ other tests are running. npm installs from its cache
 * (--prefer-offline). better-sqlite3's own install script (prebuild-install) runs as it does for any
 * user; instead of downloading the release binary from GitHub (not reachable here) it is pointed at a
 * prebuilt archive of the binary `npm ci` compiled for this checkout (prebuild-install's documented
 * local-prebuilds option, set in a .prebuild-installrc): the same package version for the same Node ABI, without a two-minute
 * compile. Without that binary, the install compiles it.
 */
const work = mkdtempSync(join(tmpdir(), 'he-pack-'));
const project = join(work, 'project');
const installed = join(project, 'node_modules', 'handoff-eval');
const timings: Record<string, number> = {};

function sh(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): SpawnSyncReturns<string> {
  const t0 = performance.now();
  const r = spawnSync(cmd, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, CI: 'true', npm_config_update_notifier: 'false', ...env },
    timeout: 300_000,
    maxBuffer: 64 << 20,
  });
  const key = `${basename(cmd)} ${args
    .filter((a) => !a.startsWith('-') && !a.includes('/'))
    .slice(0, 3)
    .join(' ')}`;
  timings[key] = (timings[key] ?? 0) + (performance.now() - t0);
  return r;
}

/** Like `npx handoff-eval …` in a user's shell: the bin the project installed, never a download. */
const npx = (cwd: string, ...args: string[]) => sh('npx', ['--no-install', 'handoff-eval', ...args], cwd);
/**
 * The same bin npx runs — the link npm made in the project's node_modules/.bin, started through its
 * shebang — without npx's own start (seconds per call here); `npx` itself is exercised by the first test.
 */
const cli = (cwd: string, ...args: string[]) =>
  sh(join(project, 'node_modules', '.bin', 'handoff-eval'), args, cwd);

function packCheckout(): string {
  const copy = join(work, 'checkout');
  const listed = spawnSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  expect(listed.status).toBe(0);
  for (const f of listed.stdout.split('\0').filter(Boolean)) {
    if (!existsSync(join(repoRoot, f))) continue; // deleted in the working tree
    // A node_modules that is a symlink (a git worktree's) is not matched by `node_modules/` in
    // .gitignore, so git lists it; it is linked below like any other.
    if (f === 'node_modules' || f.startsWith('node_modules/')) continue;
    mkdirSync(dirname(join(copy, f)), { recursive: true });
    cpSync(join(repoRoot, f), join(copy, f));
  }
  symlinkSync(join(repoRoot, 'node_modules'), join(copy, 'node_modules'), 'dir');
  const r = sh('npm', ['pack', '--pack-destination', work], copy);
  expect(r.status, r.stderr).toBe(0);
  const { name, version } = JSON.parse(readFileSync(join(copy, 'package.json'), 'utf8'));
  const tarball = join(work, `${name}-${version}.tgz`);
  expect(existsSync(tarball), r.stdout).toBe(true);
  return tarball;
}

function install(tarball: string): void {
  mkdirSync(project, { recursive: true });
  writeFileSync(
    join(project, 'package.json'),
    '{"name":"handoff-eval-user","private":true,"type":"module"}\n',
  );
  const binary = join(repoRoot, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node');
  if (existsSync(binary)) {
    const version = JSON.parse(
      readFileSync(join(repoRoot, 'node_modules/better-sqlite3/package.json'), 'utf8'),
    ).version;
    const prebuilds = join(work, 'prebuilds');
    mkdirSync(prebuilds);
    const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
    const tar = sh(
      'tar',
      [
        '-czf',
        join(prebuilds, name),
        '-C',
        join(repoRoot, 'node_modules/better-sqlite3'),
        'build/Release/better_sqlite3.node',
      ],
      work,
    );
    expect(tar.status, tar.stderr).toBe(0);
    // prebuild-install's rc file, found from the package's install directory upwards.
    writeFileSync(join(project, '.prebuild-installrc'), `local-prebuilds=${prebuilds}\n`);
  }
  const r = sh('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], project);
  expect(r.status, r.stderr).toBe(0);
}

beforeAll(() => {
  install(packCheckout());
}, 600_000);

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
  const total = Object.values(timings).reduce((a, b) => a + b, 0);
  // The wall time of this test, step by step (figures in the helper's report, not asserted).
  process.stdout.write(
    `pack-install timings (ms): ${JSON.stringify(Object.fromEntries(Object.entries(timings).map(([k, v]) => [k, Math.round(v)])))} total ${Math.round(total)}\n`,
  );
});

describe('npm pack → npm install → the examples through the installed CLI', () => {
  it('installs a package that runs its bundle, exports the API to plain Node, and types it', async () => {
    const { freshDist } = (await import(pathToFileURL(join(installed, 'bin/dist.js')).href)) as {
      freshDist: (entry: string, root?: string) => string | null;
    };
    expect(freshDist('cli', installed)).toBe(join(installed, 'dist', 'cli.js'));
    expect(existsSync(join(installed, 'test/fixtures/transcripts/LICENSES.md'))).toBe(true);
    expect(existsSync(join(installed, 'test/core'))).toBe(false);
    const api = sh(
      'node',
      [
        '--input-type=module',
        '-e',
        "import { sweep, checkStrategy, finishHandoff } from 'handoff-eval'; console.log(typeof checkStrategy, typeof finishHandoff, sweep('brick-only', { resultCap: [250, 500], markers: [false] }).map((a) => a.name).join(' '))",
      ],
      project,
    );
    expect(api.stderr).toBe('');
    expect(api.stdout.trim()).toBe(
      'function function brick-only[resultCap=250,markers=false] brick-only[resultCap=500,markers=false]',
    );
    // A project without suites of its own sees the shipped ones.
    const suites = JSON.parse(npx(project, 'list', 'suites', '--json').stdout) as { id: string }[];
    expect(suites.map((x) => x.id)).toEqual(expect.arrayContaining(['ledgerline', 'milk', 'spawn-context']));
    expect(npx(project, '--version').stdout.trim()).toBe(
      JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).version,
    );
  });

  for (const example of [
    {
      name: 'first-and-last-n',
      strategy: 'first-and-last-n',
      case: 'retry-budget',
      arm: 'first-and-last-n[n=1]',
      marker: /\(… \d+ messages of the session omitted …\)/,
      arms: 5,
    },
    {
      name: 'tool-results-only',
      strategy: 'tool-results-only',
      case: 'lockfile-drift',
      arm: 'tool-results-only[resultCap=300]',
      marker: /… \(\d+ of \d+ characters of this result cut\)/,
      arms: 4,
    },
  ])
    describe(example.name, () => {
      const dir = join(project, example.name);
      beforeAll(() => cpSync(join(installed, 'examples', example.name), dir, { recursive: true }));

      it('validates, lists its strategy and arms, and renders a case under a swept arm', () => {
        const v = cli(dir, 'validate');
        expect(v.status, v.stdout + v.stderr).toBe(0);
        expect(v.stdout).toMatch(new RegExp(`ok  cases/.*suite.json \\(2 cases, ${example.arms} arms\\)`));
        const list = cli(dir, 'list', 'strategies', '--json');
        const strategies = JSON.parse(list.stdout) as { id: string; source: string }[];
        expect(strategies.find((s) => s.id === example.strategy)?.source).toBe('config');
        const r = cli(dir, 'render', '--case', example.case, '--arm', example.arm);
        expect(r.status, r.stderr).toBe(0);
        expect(r.stdout).toContain(`=== ${example.strategy} `);
        expect(r.stdout).toMatch(example.marker);
        expect(r.stdout).toMatch(/markers: 1\n/);
      });

      it('passes check-strategy over the shipped transcripts, the suites and generated sessions', () => {
        const r = cli(dir, 'check-strategy', '--strategy', example.strategy);
        expect(r.status, r.stdout + r.stderr).toBe(0);
        expect(r.stdout).toMatch(/15 real transcripts, 71 suite cases, 12 generated sessions/);
        expect(r.stdout).toContain(`passed: ${example.strategy} holds every invariant`);
      });

      it('runs and reports, with a parameter-response section for its sweep', () => {
        const r = cli(dir, 'run', '--quiet');
        expect(r.status, r.stderr).toBe(0);
        const run = join(dir, 'runs', readdirSync(join(dir, 'runs'))[0]!);
        const rows = readFileSync(join(run, 'results.jsonl'), 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l));
        expect(rows).toHaveLength(2 * example.arms * 2);
        expect(rows.every((x: { status: string }) => x.status === 'ok')).toBe(true);
        expect(existsSync(join(dir, '.handoff-cache'))).toBe(true); // better-sqlite3 loaded in the installed copy
        rmSync(join(run, 'report.md'));
        const rep = cli(dir, 'report', run);
        expect(rep.status, rep.stderr).toBe(0);
        const md = readFileSync(join(run, 'report.md'), 'utf8');
        expect(md).toContain(`### Parameter response: \`${example.strategy}\``);
        expect(md).toContain(`| ${example.arm} |`);
        expect(readFileSync(join(run, 'report.html'), 'utf8')).toContain('Parameter response');
      });
    });

  it("type-checks both examples against the installed package's declarations", () => {
    const ts = sh(
      'npm',
      [
        'install',
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        '--no-save',
        'typescript@5.9.3',
        '@types/node@20.19.43',
      ],
      project,
    );
    expect(ts.status, ts.stderr).toBe(0);
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2023',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
          allowImportingTsExtensions: true,
          types: ['node'],
        },
        include: ['first-and-last-n', 'tool-results-only'],
      }),
    );
    const tsc = sh(join(project, 'node_modules', '.bin', 'tsc'), ['-p', '.'], project);
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  }, 300_000); // an npm install and a tsc run over @types/node: past the default minute on a loaded machine
});
