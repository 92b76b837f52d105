#!/usr/bin/env node
// `npm run bench -- [name] [args]`: runs one bench, the default being the throughput bench, from the
// bundle in dist/ when it is current (as the CLI runs), else from the sources through tsx (bin/dist.js).
// A bench module exports `main(argv): Promise<number>`.
import { freshDist } from './dist.js';

const benches = { throughput: '../bench/throughput.ts', render: '../bench/render.ts' };
const argv = process.argv.slice(2);
const name = argv[0] && !argv[0].startsWith('-') ? argv.shift() : 'throughput';
if (!(name in benches)) {
  process.stderr.write(`bench: unknown bench "${name}"; valid: ${Object.keys(benches).join(', ')}\n`);
  process.exit(2);
}
const bundled = freshDist(`bench-${name}`);
if (!bundled) (await import('tsx/esm/api')).register();
const mod = await import(bundled ?? benches[name]);
// A bench without main() did its work when imported.
process.exitCode = typeof mod.main === 'function' ? await mod.main(argv) : 0;
