import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeReports } from '../../reports/write.ts';
import type { ResultRow } from '../../harness/core/index.ts';

/**
 * A child process for the atomic-write test: rewrites the reports of a run directory from its journal
 * over and over for `ms` milliseconds, printing `wrote <n>` at the end.
 *   node --import tsx test/support/report-writer.ts <run-dir> <ms>
 */
const [dir, ms] = process.argv.slice(2);
const rows = readFileSync(join(dir!, 'results.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as ResultRow);
const until = Date.now() + Number(ms);
let n = 0;
while (Date.now() < until) {
  await writeReports(dir!, rows);
  n++;
}
process.stdout.write(`wrote ${n}\n`);
