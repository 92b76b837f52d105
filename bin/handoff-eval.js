#!/usr/bin/env node
// Runs the bundled CLI (dist/, built by `npm ci` through `prepare`) when it is current, else the
// TypeScript sources through tsx (bin/dist.js).
import { freshDist } from './dist.js';

// Ctrl-C / SIGTERM: installed before tsx, whose own signal relay would otherwise end the process at
// once. A running experiment takes the first signal (stop scheduling, flush the journal); a second
// signal, or one with nobody listening, exits immediately.
const slot = Symbol.for('handoff-eval.interrupt');
globalThis[slot] = null; // present: the bin routes signals; null: no command is listening
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    const handler = globalThis[slot];
    if (typeof handler === 'function' && !handler.fired) {
      handler.fired = true;
      handler(signal);
    } else process.exit(130);
  });
}

const bundled = freshDist('cli');
if (!bundled) {
  (await import('tsx/esm/api')).register();
  // A config's `import 'handoff-eval'` binds to the sources this process runs, as the bundle binds it
  // to dist/index.js (harness/config/import-module.ts): never to a stale or missing dist/.
  const api = JSON.stringify(new URL('../harness/index.ts', import.meta.url).href);
  const hook = `export async function resolve(s, c, next) { return s === 'handoff-eval' ? { url: ${api}, shortCircuit: true } : next(s, c); }`;
  (await import('node:module')).register(`data:text/javascript,${encodeURIComponent(hook)}`);
}
const { main } = await import(bundled ?? '../harness/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
