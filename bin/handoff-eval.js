#!/usr/bin/env node
// Loads the TypeScript sources (and the user's eval.config.ts) through tsx, so there is no build step.
import { register } from 'tsx/esm/api';

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

register();
const { main } = await import('../harness/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
