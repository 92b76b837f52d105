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

// `handoff-eval run | head`: a reader that stops early is not the command's failure (the run's files
// are written either way); what it did not read is dropped instead of ending in an unhandled EPIPE.
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (err) => {
    if (err.code !== 'EPIPE' && err.code !== 'ERR_STREAM_DESTROYED') throw err;
  });

const bundled = freshDist('cli');
if (!bundled) (await import('tsx/esm/api')).register();
const { main } = await import(bundled ?? '../harness/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
