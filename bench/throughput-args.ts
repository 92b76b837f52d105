import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { resolveConfig } from '../harness/config/resolve-config.ts';
import type { ResolvedConfig } from '../harness/config/types.ts';

/** The throughput bench's flags (bench/throughput.ts documents them) and the config each run uses. */
export interface BenchArgs {
  n: number;
  concurrency: number;
  latency: number;
  baseUrl?: string;
  cache: boolean;
  warmup: number;
  keep: boolean;
  profile?: string;
  floor: boolean;
  providerOnly: boolean;
  transport: 'node' | 'fetch';
  rps?: number;
  burst?: number;
  rateLimits: 'adaptive' | 'off';
  /** The mock's x-ratelimit-* headers: on every response (default), on 429s only, or never. */
  rateHeaders: 'all' | 'on429' | 'off';
}

export function parse(argv: string[]): BenchArgs {
  const { values } = parseArgs({
    args: argv,
    options: {
      n: { type: 'string', default: '500' },
      concurrency: { type: 'string', default: '16' },
      latency: { type: 'string', default: '200' },
      'base-url': { type: 'string' },
      'no-cache': { type: 'boolean', default: false },
      warmup: { type: 'string', default: '50' },
      keep: { type: 'boolean', default: false },
      profile: { type: 'string' },
      floor: { type: 'boolean', default: false },
      'provider-only': { type: 'boolean', default: false },
      transport: { type: 'string', default: 'node' },
      rps: { type: 'string' },
      burst: { type: 'string' },
      'rate-limits': { type: 'string', default: 'adaptive' },
      'rate-headers': { type: 'string', default: 'all' },
    },
  });
  return {
    n: Number(values.n),
    concurrency: Number(values.concurrency),
    latency: Number(values.latency),
    baseUrl: values['base-url'],
    cache: !values['no-cache'],
    warmup: Number(values.warmup),
    keep: values.keep!,
    profile: values.profile,
    floor: values.floor!,
    providerOnly: values['provider-only']!,
    transport: values.transport === 'fetch' ? 'fetch' : 'node',
    rps: values.rps === undefined ? undefined : Number(values.rps),
    burst: values.burst === undefined ? undefined : Number(values.burst),
    rateLimits: values['rate-limits'] === 'off' ? 'off' : 'adaptive',
    rateHeaders:
      values['rate-headers'] === 'on429' ? 'on429' : values['rate-headers'] === 'off' ? 'off' : 'all',
  };
}

/**
 * The config of one measured or warm-up run: the bench suite's one-call cells through the real
 * `openai` provider, the criterion judge off, the cache in `work` when on.
 */
export function benchConfig(
  a: BenchArgs,
  root: string,
  work: string,
  seed: number,
  reps: number,
  concurrency: number,
): ResolvedConfig {
  return resolveConfig(
    {
      casesDir: join(root, 'bench', 'cases'),
      suites: ['throughput'],
      reps,
      seed,
      provider: 'openai',
      models: { bench: { sim: 'sim-large', openai: 'bench-model' } },
      judge: { model: 'bench', criteria: false, classify: 'off' },
      concurrency,
      providers: {
        openai: {
          concurrency,
          // Under a rate limit: the default retries (4), as a user's run has them.
          maxRetries: a.rps ? 4 : 2,
          timeoutMs: 60_000,
          transport: a.transport,
          rateLimits: a.rateLimits,
        },
      },
      cache: a.cache ? { dir: join(work, 'cache') } : false,
      outDir: join(work, 'runs'),
    },
    { quiet: true },
  );
}
