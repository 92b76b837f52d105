import type { World } from '../../harness/core/index.ts';
import type { Bug, Project } from './project.ts';
import { Random } from '../lib/random.ts';
import { testFileOf, type MilkSession } from './session.ts';

/**
 * A milk case's world (issue 29 item 2, docs/live.md): the primary's repository as it stood before
 * the fix — the source file it read (bug still in, with its comments), the test file, a manifest and a
 * README saying how the tests run and what the slow ones need — writable, one copy per cell. Its
 * tests are the project's runner emulated by a small Node script (outside the repository, so the
 * tools never show it): it reads the copy's files and prints the runner's output for their state —
 * red once the failing test is written and the bug is still in, green once the fix is in, the suite
 * with the regression test once that is added. Those three are the recorded session's own outputs
 * (so the reference's evidence is what a live run prints); the suite before any change is drawn in
 * the same runner format (runners.ts) from its own seed.
 */
export function milkWorld(
  p: Project,
  bug: Bug,
  session: Pick<MilkSession, 'before' | 'outputs'>,
  seed: number,
  index: number,
): World {
  const before = session.before;
  const r = new Random('milk-world', seed, index);
  const testFile = testFileOf(p);
  const tests = r.shuffle(p.tests);
  const out = (names: string[]) => p.runner.run(r, p.testPath, names, null).output;
  const spec: CheckSpec = {
    src: p.srcPath,
    testFile,
    buggy: bug.buggy,
    fixed: bug.fixed,
    failing: testName(bug.failingTest),
    regression: testName(bug.regression.name),
    outputs: {
      base: out(tests),
      // The recorded session's own runs: the evidence its reference cites is what the copy prints.
      ...session.outputs,
      broken: `${p.runner.command}: ${p.srcPath} no longer builds: ${bug.fn} matches neither its old nor a working version`,
    },
  };
  const files: Record<string, string> = {
    [p.srcPath]: before,
    'README.md': readme(p, testFile),
    ...manifest(p),
  };
  if (testFile !== p.srcPath) files[testFile] = testStubs(p, tests);
  return {
    writable: true,
    files,
    tests: {
      command: p.runner.command,
      output: spec.outputs.base,
      exitCode: 0,
      run: {
        argv: ['{node}', '{runner}/check.cjs'],
        timeoutMs: 10_000,
        files: { 'check.cjs': CHECK, 'spec.json': JSON.stringify(spec) },
      },
    },
  };
}

interface CheckSpec {
  src: string;
  testFile: string;
  buggy: string;
  fixed: string;
  failing: string;
  regression: string;
  outputs: { base: string; red: string; green: string; final: string; broken: string };
}

/** The name a test is written under (vitest: the part after the last ' > '). */
function testName(name: string): string {
  return name.split(' > ').pop()!;
}

/** The emulated runner: the copy's state → the runner's output and exit code. */
const CHECK = `'use strict';
const fs = require('node:fs');
const path = require('node:path');
const spec = JSON.parse(fs.readFileSync(path.join(__dirname, 'spec.json'), 'utf8'));
const read = (p) => { try { return fs.readFileSync(p, 'utf8'); } catch { return ''; } };
const src = read(spec.src);
const tests = read(spec.testFile);
const fixed = src.includes(spec.fixed);
const buggy = src.includes(spec.buggy);
const failing = tests.includes(spec.failing);
const regression = tests.includes(spec.regression);
let out = spec.outputs.base, code = 0;
if (!fixed && !buggy) { out = spec.outputs.broken; code = 1; }
else if (!fixed && failing) { out = spec.outputs.red; code = 1; }
else if (fixed && failing) out = regression ? spec.outputs.final : spec.outputs.green;
process.stdout.write(out + '\\n');
process.exit(code);
`;

function readme(p: Project, testFile: string): string {
  return [
    `# ${p.repo}`,
    '',
    `Source: \`${p.srcPath}\`. Unit tests: \`${testFile}\`, run with \`${p.runner.command}\`.`,
    '',
    `The integration tests are not part of the unit run: ${p.integration.what} run separately because ${p.integration.why}.`,
    '',
  ].join('\n');
}

function manifest(p: Project): Record<string, string> {
  switch (p.id) {
    case 'durations':
      return {
        'pyproject.toml': '[project]\nname = "durations"\nversion = "1.4.0"\nrequires-python = ">=3.10"\n',
      };
    case 'orders':
      return {
        'package.json':
          '{\n  "name": "orders",\n  "private": true,\n  "scripts": { "test": "vitest run" }\n}\n',
      };
    case 'retry':
      return { 'go.mod': 'module github.com/acme/retry\n\ngo 1.22\n' };
    default:
      return { 'Cargo.toml': '[package]\nname = "csvmerge"\nversion = "0.4.2"\nedition = "2021"\n' };
  }
}

/** The existing tests, by name (bodies elided: the runner is emulated). */
function testStubs(p: Project, tests: string[]): string {
  if (p.language === 'Python')
    return [
      `from durations.core import *  # noqa: F403\n`,
      ...tests.map((t) => `def ${t}():\n    ...\n`),
    ].join('\n');
  if (p.language === 'Go')
    return [
      'package retry\n\nimport "testing"\n',
      ...tests.map((t) => `func ${t}(t *testing.T) { /* … */ }\n`),
    ].join('\n');
  const groups = new Map<string, string[]>();
  for (const t of tests) {
    const [g, name] = t.includes(' > ') ? t.split(' > ') : ['tests', t];
    groups.set(g!, [...(groups.get(g!) ?? []), name!]);
  }
  return [
    "import { describe, it } from 'vitest';\n",
    ...[...groups].map(
      ([g, names]) =>
        `describe('${g}', () => {\n${names.map((n) => `  it('${n}', () => { /* … */ });`).join('\n')}\n});\n`,
    ),
  ].join('\n');
}
