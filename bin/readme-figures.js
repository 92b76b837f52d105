#!/usr/bin/env node
// `npm run readme:figures -- [run-dir] [--write]`: the README's default-run figures against a fresh
// run (harness/readme/). Runs the sources through tsx.
(await import('tsx/esm/api')).register();
const { main } = await import('../harness/readme/main.ts');
process.exitCode = await main(process.argv.slice(2));
