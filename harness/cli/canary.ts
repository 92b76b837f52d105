import { parseArgs } from 'node:util';
import { loadConfig } from '../config/load-config.ts';
import { createProviders } from '../providers/index.ts';
import { canaryConfig, formatCanary, runCanary } from '../runner/canary.ts';

/**
 * The judge canary's command line (the measurement is judges/canary.ts): its exit code is 0 when the
 * canary passes, 1 when an injected instruction moved a score, 2 on an error.
 *
 *   node bin/canary.js [--provider anthropic] [--config eval.config.ts] [--samples 3] [--json]
 *
 * It returns the exit code; bin/canary.js sets it (no process.exitCode outside the bins).
 */
export async function canaryMain(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      provider: { type: 'string' },
      config: { type: 'string' },
      samples: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  const config = canaryConfig(
    await loadConfig(values.config, { provider: values.provider, cache: false, quiet: true }),
  );
  const providers = await createProviders(config);
  try {
    const report = await runCanary(
      config,
      providers,
      values.samples ? Number(values.samples) : config.judge.samples,
    );
    process.stdout.write(`${values.json ? JSON.stringify(report, null, 2) : formatCanary(report)}\n`);
    return report.passed ? 0 : 1;
  } finally {
    for (const p of Object.values(providers)) await p.close?.();
  }
}
