#!/usr/bin/env node
// `npm run bench -- [name] [args]`: loads the TypeScript benches through tsx (no build step) and runs
// one; the default is the throughput bench. A bench module exports `main(argv): Promise<number>`.
import { register } from 'tsx/esm/api';

register();
const benches = { throughput: '../bench/throughput.ts', render: '../bench/render.ts' };
const argv = process.argv.slice(2);
const name = argv[0] && !argv[0].startsWith('-') ? argv.shift() : 'throughput';
if (!(name in benches)) {
  process.stderr.write(`bench: unknown bench "${name}"; valid: ${Object.keys(benches).join(', ')}\n`);
  process.exit(2);
}
const mod = await import(benches[name]);
// A bench without main() did its work when imported.
process.exitCode = typeof mod.main === 'function' ? await mod.main(argv) : 0;
