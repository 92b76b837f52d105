#!/usr/bin/env node
// `node bin/canary.js --provider anthropic [--samples 3] [--config eval.config.ts] [--json]`: the judge
// canary (harness/cli/canary.ts, judges/canary.ts; docs/judges.md#canary). Exit 0 passed, 1 failed, 2 bad input or a failed call.
(await import('tsx/esm/api')).register();
const { canaryMain } = await import('../harness/cli/canary.ts');
try {
  process.exitCode = await canaryMain(process.argv.slice(2));
} catch (err) {
  process.stderr.write(`canary: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 2;
}
