import { afterAll, describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveConfig } from '../../harness/config/resolve-config.ts';
import type { ResolvedConfig } from '../../harness/config/types.ts';
import { InputError, UnknownNameError } from '../../harness/core/errors.ts';
import { checkArm, loadExperiment } from '../../harness/runner/experiment.ts';

/**
 * What a config selects, in process (issue 32 item 2): `--case` and `--arm` across suites, the
 * filters applied per suite, and each kept arm checked. Before this, the CLI tests were the only ones
 * to read these messages.
 */
const mini = fileURLToPath(new URL('../fixtures/cases/mini', import.meta.url));
const made: string[] = [];
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** Two suites: `mini` (case deprecation-1; arms inline, full-transcript, brick) and `two` (cases deprecation-1 and -2; arms inline, other). */
function casesDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'he-experiment-'));
  made.push(dir);
  cpSync(mini, join(dir, 'mini'), { recursive: true });
  cpSync(mini, join(dir, 'two'), { recursive: true });
  const suite = JSON.parse(readFileSync(join(mini, 'suite.json'), 'utf8'));
  suite.id = 'two';
  suite.arms = [suite.arms[0], { ...suite.arms[1], name: 'other' }];
  writeFileSync(join(dir, 'two', 'suite.json'), JSON.stringify(suite));
  const c = JSON.parse(readFileSync(join(mini, 'cases', 'deprecation-1.json'), 'utf8'));
  writeFileSync(
    join(dir, 'two', 'cases', 'deprecation-2.json'),
    JSON.stringify({ ...c, id: 'deprecation-2' }),
  );
  return dir;
}

const cfg = (user: Record<string, unknown> = {}): ResolvedConfig =>
  ({
    ...resolveConfig({ cache: false, ...user }, {}, 'eval.config.ts'),
    casesDir: casesDir(),
  }) as ResolvedConfig;
const shape = (suites: Awaited<ReturnType<typeof loadExperiment>>) =>
  suites.map((s) => ({ id: s.id, arms: s.arms.map((a) => a.name), cases: s.cases.map((c) => c.id) }));
const rejection = async (p: Promise<unknown>): Promise<InputError> => {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(InputError);
    return err as InputError;
  }
  throw new Error('expected an InputError');
};

describe('loadExperiment', () => {
  it('every suite, arm and case when nothing is selected', async () => {
    expect(shape(await loadExperiment(cfg()))).toEqual([
      { id: 'mini', arms: ['inline', 'full-transcript', 'brick'], cases: ['deprecation-1'] },
      { id: 'two', arms: ['inline', 'other'], cases: ['deprecation-1', 'deprecation-2'] },
    ]);
  });

  it('--case and arms filter every suite (a suite may keep none)', async () => {
    expect(
      shape(await loadExperiment({ ...cfg(), cases: ['deprecation-2'], arms: ['inline', 'brick'] })),
    ).toEqual([
      { id: 'mini', arms: ['inline', 'brick'], cases: [] },
      { id: 'two', arms: ['inline'], cases: ['deprecation-2'] },
    ]);
  });

  it('an unknown case names the valid ones, each once and sorted, and the flag', async () => {
    const err = await rejection(loadExperiment({ ...cfg(), cases: ['deprecation-1', 'nope'] }));
    expect(err).toBeInstanceOf(UnknownNameError);
    expect(err.code).toBe('unknown_case');
    expect(err.message).toBe('--case: unknown case "nope"; valid: deprecation-1, deprecation-2');
  });

  it('an unknown arm names the valid ones across suites, sorted', async () => {
    const err = await rejection(loadExperiment({ ...cfg(), arms: ['inline', 'gone'] }));
    expect(err.code).toBe('unknown_arm');
    expect(err.message).toBe('arms: unknown arm "gone"; valid: brick, full-transcript, inline, other');
  });

  it('a kept arm with an unknown model alias fails naming the suite, arm and role; an arm left out is not checked', async () => {
    const base = cfg();
    const { large: _large, ...models } = base.models;
    const noLarge = { ...base, models } as ResolvedConfig;
    const err = await rejection(loadExperiment(noLarge));
    expect(err.code).toBe('unknown_model alias');
    expect(err.message).toBe(
      `suite mini, arm inline, models.source: unknown model alias "large"; valid: ${Object.keys(models).join(', ')}`,
    );
    // Only arms whose models exist are kept: no error.
    const suite = JSON.parse(readFileSync(join(base.casesDir, 'two', 'suite.json'), 'utf8'));
    suite.arms.push({ ...suite.arms[0], name: 'ok-arm', models: { source: 'small', receiver: 'small' } });
    writeFileSync(join(base.casesDir, 'two', 'suite.json'), JSON.stringify(suite));
    expect(
      shape(
        await loadExperiment({ ...noLarge, suites: [{ id: 'two' }], arms: ['ok-arm'] } as ResolvedConfig),
      ),
    ).toEqual([{ id: 'two', arms: ['ok-arm'], cases: ['deprecation-1', 'deprecation-2'] }]);
  });
});

describe('checkArm', () => {
  const suite = { id: 's1' } as Parameters<typeof checkArm>[1];
  const arm = (strategy: string, models = { source: 'large', receiver: 'small' }, params = {}) =>
    ({ name: 'a1', strategy, models, params }) as Parameters<typeof checkArm>[0];

  it("returns the strategy's resolved params", () => {
    const p = checkArm(arm('brick-only', undefined, { markers: true }), suite, cfg());
    expect(p.markers).toBe(true);
  });

  it('an unknown strategy, or a receiver alias the config lacks, names where', () => {
    const c = cfg();
    expect(() => checkArm(arm('no-such-strategy'), suite, c)).toThrow(/suite s1, arm a1/);
    expect(() => checkArm(arm('inline', { source: 'large', receiver: 'huge' }), suite, c)).toThrow(
      `suite s1, arm a1, models.receiver: unknown model alias "huge"; valid: ${Object.keys(c.models).join(', ')}`,
    );
  });
});
