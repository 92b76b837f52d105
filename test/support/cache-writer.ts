import { SqliteCache } from '../../harness/cache/sqlite-cache.ts';
import type { ModelResponse } from '../../harness/core/index.ts';

/**
 * A child process for the cache's crash and concurrency tests: writes `count` responses under
 * `<prefix>-<i>` (and `shared-<i>`, which every writer also writes) into the cache at `dir`, flushing
 * every `batch`, and prints `committed <n>` after each flush so a parent knows what is on disk.
 *   node --import tsx test/support/cache-writer.ts <dir> <prefix> <count> <batch> [forever]
 */
const [dir, prefix, countArg, batchArg, forever] = process.argv.slice(2);
const count = Number(countArg);
const batch = Number(batchArg);
const cache = new SqliteCache(dir!, { batchSize: 1_000_000, flushMs: 60_000 });
const response = (text: string): ModelResponse => ({
  text,
  toolCalls: [],
  stopReason: 'end_turn',
  usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 },
  latencyMs: 1,
  model: 'm',
  cached: false,
  retries: 0,
  costUsd: 0,
});
let i = 0;
do {
  for (let k = 0; k < batch && (forever || i < count); k++, i++) {
    cache.set(`${prefix}-${i}`, response(`${prefix} ${i} ${'x'.repeat(200)}`));
    if (i % 3 === 0) cache.set(`shared-${i}`, response(`shared ${i} from ${prefix}`));
  }
  const failedBefore = cache.writeErrors;
  cache.flush();
  process.stdout.write(cache.writeErrors > failedBefore ? 'flush-failed\n' : `committed ${i}\n`);
  await new Promise((r) => setImmediate(r));
} while (forever || i < count);
cache.close();
process.stdout.write('done\n');
