#!/usr/bin/env node
// `npm run mutate [-- <module>...]`: runs StrykerJS once per module (default: all of them, in the
// order of scripts/mutation-modules.mjs), one after another. Slow: not part of CI (docs/testing.md).
import { spawnSync } from 'node:child_process';
import { MODULES } from './mutation-modules.mjs';

// Module names first; from the first option on, everything goes to `stryker run` (--concurrency 1 ...).
const args = process.argv.slice(2);
const firstOption = args.findIndex((a) => a.startsWith('-'));
const asked = firstOption < 0 ? args : args.slice(0, firstOption);
const passThrough = firstOption < 0 ? [] : args.slice(firstOption);
const names = asked.length > 0 ? asked : Object.keys(MODULES);
for (const name of names) {
  if (!MODULES[name]) {
    console.error(`mutate: unknown module ${name}; one of ${Object.keys(MODULES).join(', ')}`);
    process.exit(2);
  }
}
let failed = 0;
for (const name of names) {
  console.log(`\n== mutate ${name}`);
  const result = spawnSync('npx', ['stryker', 'run', ...passThrough], {
    stdio: 'inherit',
    env: { ...process.env, MUTATION_MODULE: name },
  });
  if (result.status !== 0) failed = 1;
}
process.exit(failed);
