#!/usr/bin/env node
// `npm run calibrate -- [args]`: the statistics' calibration on cases resampled from the suite
// generators (harness/calibrate/, docs/results.md#calibration). Runs the sources through tsx.
(await import('tsx/esm/api')).register();
const { main } = await import('../harness/calibrate/main.ts');
process.exitCode = await main(process.argv.slice(2));
