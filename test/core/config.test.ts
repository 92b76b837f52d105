import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveConfig } from '../../harness/config/resolve-config.ts';
import { loadConfig } from '../../harness/config/load-config.ts';
import { ConfigError } from '../../harness/core/errors.ts';

describe('resolveConfig', () => {
  it('fills defaults when nothing is given', () => {
    const c = resolveConfig({});
    expect(c.reps).toBe(3);
    expect(c.seed).toBe(1);
    expect(c.provider).toEqual({ source: 'sim', receiver: 'sim', judge: 'sim' });
    expect(c.suites).toBe('all');
    expect(c.models.large?.sim).toBe('sim-large');
  });

  it('applies precedence: defaults < file < CLI flags', () => {
    const c = resolveConfig({ reps: 5, seed: 9, concurrency: 4 }, { reps: 2, provider: 'openai' });
    expect(c.reps).toBe(2);
    expect(c.seed).toBe(9);
    expect(c.concurrency).toBe(4);
    expect(c.provider).toEqual({ source: 'openai', receiver: 'openai', judge: 'openai' });
  });

  it('resolves a provider per role with a default', () => {
    const c = resolveConfig({ provider: { default: 'sim', judge: 'anthropic' } });
    expect(c.provider).toEqual({ source: 'sim', receiver: 'sim', judge: 'anthropic' });
  });

  it('names the file and the field of a bad value', () => {
    expect(() => resolveConfig({ reps: 0 }, {}, 'eval.config.ts')).toThrow(
      'eval.config.ts: reps: must be a positive integer (got 0)',
    );
    expect(() => resolveConfig({ seed: 1.5 }, {}, 'x.ts')).toThrow('x.ts: seed: must be an integer');
    expect(() => resolveConfig({ sim: { paraphrase: 'no' } } as never, {}, 'x.ts')).toThrow(
      'x.ts: sim.paraphrase: must be true or false (got "no")',
    );
    expect(resolveConfig({ sim: { paraphrase: false } }, {}, 'x.ts').sim).toEqual({ paraphrase: false });
    expect(() => resolveConfig({ judge: { model: 'nope' } }, {}, 'x.ts')).toThrow(
      /x\.ts: judge\.model: unknown model alias "nope"; valid: small, large, judge/,
    );
  });

  it('rejects unknown fields and providers, listing the valid ones', () => {
    expect(() => resolveConfig({ rep: 3 } as never, {}, 'c.ts')).toThrow(
      /c\.ts: rep: unknown field; valid: suites, arms, reps/,
    );
    expect(() => resolveConfig({ provider: 'bedrock' }, {}, 'c.ts')).toThrow(
      'c.ts: provider: unknown provider "bedrock"; valid: sim, anthropic, openai',
    );
    expect(() => resolveConfig({}, { provider: 'x' }, 'c.ts')).toThrow(/--provider: unknown provider "x"/);
  });

  it('parses --shard i/n and rejects nonsense', () => {
    expect(resolveConfig({}, { shard: '2/3' }).shard).toEqual({ index: 2, count: 3 });
    expect(() => resolveConfig({}, { shard: '4/3' })).toThrow(ConfigError);
    expect(() => resolveConfig({}, { shard: 'a/b' })).toThrow(/--shard: must be i\/n/);
  });
});

describe('loadConfig', () => {
  const dir = mkdtempSync(join(tmpdir(), 'he-config-'));

  it('loads a TypeScript config file', async () => {
    const file = join(dir, 'eval.config.ts');
    writeFileSync(file, 'const reps: number = 4;\nexport default { reps, seed: 11 };\n');
    const c = await loadConfig(undefined, {}, dir);
    expect(c.configFile).toBe(file);
    expect(c.reps).toBe(4);
    expect(c.seed).toBe(11);
  });

  it('fails naming the file when the default export is missing', async () => {
    const file = join(dir, 'no-default.config.ts');
    writeFileSync(file, 'export const reps = 3;\n');
    await expect(loadConfig(file, {}, dir)).rejects.toThrow(`${file}: default export: missing`);
  });

  it('fails naming the file when it does not exist', async () => {
    await expect(loadConfig('missing.config.ts', {}, dir)).rejects.toThrow(
      'missing.config.ts: (file): config file not found',
    );
  });
});

describe('gate thresholds in the config', () => {
  it('are checked when the config is resolved, naming the field', () => {
    expect(() => resolveConfig({ gate: { maxErrorRate: 2 } }, {}, 'g.ts')).toThrow(
      'g.ts: gate.maxErrorRate: must be a number from 0 to 1 (got 2)',
    );
    expect(() => resolveConfig({ gate: { minMean: { correctness: 9 } } }, {}, 'g.ts')).toThrow(
      /gate\.minMean\.correctness: must be a number from 1 to 5/,
    );
    expect(resolveConfig({ gate: { maxDrop: 0.5 } }).gate.maxDrop).toBe(0.5);
  });
});
