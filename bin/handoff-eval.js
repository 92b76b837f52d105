#!/usr/bin/env node
// Loads the TypeScript sources (and the user's eval.config.ts) through tsx, so there is no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../harness/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
