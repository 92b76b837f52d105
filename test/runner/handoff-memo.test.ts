import { describe, it, expect } from 'vitest';
import { join } from 'node:path';
import { resolveConfig } from '../../harness/config/resolve-config.ts';
import { runExperiment } from '../../harness/runner/run.ts';
import { defineStrategy } from '../../strategies/define.ts';
import { strategies } from '../../strategies/index.ts';
import type { ResultRow, Strategy } from '../../harness/core/index.ts';
import { fixtureCases, tempDir } from '../support/mock-run.ts';

// A deterministic strategy's handoff is built once per case × arm and shared by every rep; any other
// strategy is prepared per cell. Both must end in the same rows.
function counted(
  name: string,
  deterministic: boolean,
  counter: { n: number },
): Strategy<Record<string, unknown>> {
  return defineStrategy({
    name,
    description: 'inline, counting its preparations',
    seed: 'test',
    params: {},
    deterministic,
    async prepare(ctx) {
      counter.n++;
      return strategies.inline.prepare(ctx, { replay: 'full' });
    },
  });
}

async function run(extra: Record<string, Strategy<any>>, reps: number): Promise<ResultRow[]> {
  const arms = Object.keys(extra);
  const config = resolveConfig(
    {
      casesDir: fixtureCases,
      reps,
      seed: 3,
      concurrency: 4,
      cache: false,
      outDir: join(tempDir('memo'), 'runs'),
      strategies: extra,
      suites: [
        {
          id: 'mini',
          arms,
          extraArms: arms.map((name) => ({
            name,
            strategy: name,
            models: { source: 'large', receiver: 'large' },
          })),
        },
      ],
    },
    { quiet: true },
  );
  return (await runExperiment({ config })).rows;
}

const comparable = (r: ResultRow) => ({
  ...r,
  run_id: '',
  cell_id: r.cell_id.replace(/\/(shared|own)\//, '/'),
  arm: '',
  strategy: '',
  latency_ms: 0,
});

describe('handoffs of deterministic strategies', () => {
  it('are prepared once per case × arm, and give the rows per-cell preparation gives', async () => {
    const shared = { n: 0 };
    const own = { n: 0 };
    const rows = await run({ shared: counted('shared', true, shared), own: counted('own', false, own) }, 6);
    expect(rows).toHaveLength(12);
    expect(rows.every((r) => r.status === 'ok')).toBe(true);
    expect(shared.n).toBe(1);
    expect(own.n).toBe(6);
    const byArm = (arm: string) =>
      rows
        .filter((r) => r.arm === arm)
        .sort((a, b) => a.rep - b.rep)
        .map(comparable);
    expect(byArm('shared')).toEqual(byArm('own'));
  });

  it('may not ask for a model call: the cell becomes an error row saying why', async () => {
    const caller = defineStrategy({
      name: 'caller',
      description: 'claims determinism, then calls the source model',
      seed: 'test',
      params: {},
      deterministic: true,
      async prepare(ctx) {
        await ctx.call('source', {
          purpose: 'summarize',
          messages: [{ role: 'user', text: 'sum up' }],
          maxTokens: 10,
        });
        return strategies.inline.prepare(ctx, { replay: 'full' });
      },
    });
    const rows = await run({ caller }, 2);
    expect(rows.map((r) => r.status)).toEqual(['error', 'error']);
    expect(rows[0]!.error).toContain(
      'strategy "caller" is declared deterministic but asked for a model call',
    );
    expect(rows.every((r) => r.model_calls === 0)).toBe(true);
  });
});
