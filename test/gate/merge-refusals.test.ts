import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkSameExperiment, mergeRuns } from '../../harness/gate/index.ts';
import { resolveConfig } from '../../harness/config/resolve-config.ts';
import { InputError } from '../../harness/core/errors.ts';
import { removeTempDirs, tempDir } from './helpers.ts';

/**
 * merge refuses runs of different experiments before it writes anything, whatever --allow-missing
 * says (issue 27 item 1): another mode (live vs recorded), another config apart from the shard, seed,
 * harness version, or shard count — an unsharded run included — each named with both values.
 */
afterAll(removeTempDirs);

const base = {
  harnessVersion: '0.1.0',
  suites: 'all',
  arms: 'all',
  cases: 'all',
  reps: 2,
  seed: 11,
  provider: { source: 'sim', receiver: 'sim', judge: 'sim' },
  models: { large: { sim: 'sim-large' } },
  judge: { model: 'judge', samples: 1 },
  budgetTokens: 200000,
  mode: 'recorded',
  modeForced: false,
  sourceToolBudget: 12,
  sim: {},
  prices: {},
  primaryCriterion: {},
  strategies: [],
  criteria: [],
  checks: [],
};

/** A run directory with config.json and an empty journal: enough for merge's experiment check. */
function shardDir(
  name: string,
  over: Record<string, unknown>,
  shard: { index: number; count: number } | null,
) {
  const dir = join(tempDir('refuse'), name);
  mkdirSync(dir, { recursive: true });
  const config = { ...base, runId: name, createdAt: 'x', outDir: 'runs', concurrency: 4, shard, ...over };
  writeFileSync(join(dir, 'config.json'), JSON.stringify(config));
  writeFileSync(join(dir, 'results.jsonl'), '');
  return dir;
}

async function refusal(dirs: string[]): Promise<{ error: unknown; out: string }> {
  const out = join(tempDir('out'), 'merged');
  try {
    await mergeRuns(dirs, { out, config: resolveConfig({}), allowMissing: true });
  } catch (error) {
    return { error, out };
  }
  return { error: null, out };
}

describe('merge refuses runs of different experiments (even with --allow-missing)', () => {
  it('a live shard among recorded shards: mode, both values', async () => {
    const { error, out } = await refusal([
      shardDir('a', {}, { index: 1, count: 2 }),
      shardDir('b', { mode: 'live', modeForced: true }, { index: 2, count: 2 }),
    ]);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toMatch(
      /b is not the same experiment as .*a: mode \(recorded vs live\), modeForced \(false vs true\)$/,
    );
    expect(existsSync(out)).toBe(false);
  });

  it('an unsharded run with a shard 1/3: shard count (unsharded vs 3)', async () => {
    const { error } = await refusal([
      shardDir('whole', {}, null),
      shardDir('s1', {}, { index: 1, count: 3 }),
    ]);
    expect((error as Error).message).toMatch(/shard count \(unsharded vs 3\)/);
  });

  it('seed and harness version with both values; any other experiment field by name with both values', async () => {
    const { error } = await refusal([
      shardDir('a', {}, { index: 1, count: 2 }),
      shardDir('b', { seed: 12, harnessVersion: '0.2.0', cases: ['x'] }, { index: 2, count: 2 }),
    ]);
    expect((error as Error).message).toMatch(
      /harnessVersion \(0\.1\.0 vs 0\.2\.0\), cases \(all vs \["x"\]\), seed \(11 vs 12\)$/,
    );
  });

  it('operational settings and the shard index may differ', () => {
    const a = { dir: 'a', config: { ...base, concurrency: 4, outDir: '/m1' }, shard: { index: 1, count: 2 } };
    const b = {
      dir: 'b',
      config: { ...base, concurrency: 64, outDir: '/m2' },
      shard: { index: 2, count: 2 },
    };
    expect(() => checkSameExperiment([a, b])).not.toThrow();
    const inline = { ...b, config: { ...b.config, strategies: ['mine'] } };
    expect(() => checkSameExperiment([a, inline])).toThrow(/strategies \(\[\] vs \["mine"\]\)/);
  });
});
