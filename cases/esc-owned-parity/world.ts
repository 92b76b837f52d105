import type { World } from '../../harness/core/index.ts';
import type { Design } from './designs.ts';
import type { Runner } from '../milk/runners.ts';

/** Where the session writes the design's tests (a Go package's tests sit beside the module). */
export function testFileOf(d: Design): string {
  return d.testPath.includes('/') && !d.testPath.startsWith('github.com')
    ? d.testPath
    : d.modulePath.replace(/\.go$/, '_test.go');
}

/**
 * An esc-owned-parity case's world (issue 29 item 2, docs/live.md): the repository as the owned
 * session found it — the approved design it implements, a CHANGELOG with an Unreleased section (the
 * session's later chore), a README saying how the tests run — writable, one copy per cell. The module
 * and its tests do not exist yet. Its tests are the project's runner emulated by a small Node script
 * outside the repository: no module or no tests → nothing to run (exit 1); the module with the
 * design's one slip still in → the recorded failing run; fixed → the recorded green run (the
 * session's own outputs, so what a live run prints is what the recording showed).
 */
export function ownedWorld(d: Design, runner: Runner, outputs: { red: string; green: string }): World {
  const testFile = testFileOf(d);
  const none = `${runner.command}: no test files found (${testFile} does not exist yet)`;
  const spec = {
    module: d.modulePath,
    testFile,
    slip: d.fix.old,
    fixed: d.fix.new,
    outputs: { none, ...outputs },
  };
  return {
    writable: true,
    files: {
      [d.docPath]: d.doc,
      'CHANGELOG.md': `# Changelog\n\n## Unreleased\n\n## 1.8.0\n\n- Earlier work.\n`,
      'README.md': `# ${d.repo}\n\nDesigns live under \`docs/design/\`. Run the tests with \`${runner.command}\`.\n`,
    },
    tests: {
      command: runner.command,
      output: none,
      exitCode: 1,
      run: {
        argv: ['{node}', '{runner}/check.cjs'],
        timeoutMs: 10_000,
        files: { 'check.cjs': CHECK, 'spec.json': JSON.stringify(spec) },
      },
    },
  };
}

const CHECK = `'use strict';
const fs = require('node:fs');
const path = require('node:path');
const spec = JSON.parse(fs.readFileSync(path.join(__dirname, 'spec.json'), 'utf8'));
const read = (p) => { try { return fs.readFileSync(p, 'utf8'); } catch { return undefined; } };
const mod = read(spec.module);
const tests = read(spec.testFile);
let out = spec.outputs.none, code = 1;
if (mod !== undefined && tests !== undefined) {
  if (mod.includes(spec.fixed)) { out = spec.outputs.green; code = 0; }
  else out = spec.outputs.red;
}
process.stdout.write(out + '\\n');
process.exit(code);
`;
