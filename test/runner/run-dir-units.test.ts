import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { resolveConfig } from '../../harness/config/resolve-config.ts';
import type { ResolvedConfig } from '../../harness/config/types.ts';
import { InputError } from '../../harness/core/errors.ts';
import { createRunDirectory, openResume, writeConfigRecord } from '../../harness/runner/run-dir.ts';
import { harnessVersion } from '../../harness/version.ts';

/**
 * The run directory in-process (issue 32 item 3): the CLI tests reach its messages only in a child
 * process, which the mutation runner cannot see. What a user reads when --out or --resume is wrong,
 * what config.json records, and what a resume takes from it.
 */
const made: string[] = [];
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));
const temp = () => {
  const d = mkdtempSync(join(tmpdir(), 'he-run-dir-'));
  made.push(d);
  return d;
};
const cfg = (user = {}) => resolveConfig({ cache: false, ...user }, {}, 'eval.config.ts');
const thrown = (f: () => unknown): InputError => {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(InputError);
    return err as InputError;
  }
  throw new Error('expected an InputError');
};

describe('createRunDirectory', () => {
  it('makes runs/<timestamp>-<4 hex>/, creating the parents', () => {
    const out = join(temp(), 'a', 'runs');
    const { runId, dir } = createRunDirectory({ ...cfg(), outDir: out });
    expect(runId).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}-[0-9a-f]{4}$/);
    expect(dir).toBe(join(out, runId));
    expect(statSync(dir).isDirectory()).toBe(true);
  });

  it('refuses an outDir that is a file, naming it', () => {
    const d = temp();
    const file = join(d, 'runs');
    writeFileSync(file, '');
    const err = thrown(() => createRunDirectory({ ...cfg(), outDir: file }));
    expect(err.code).toBe('bad_flag');
    expect(err.message).toBe(`--out / outDir: ${file}: is a file, not a directory for run directories`);
  });

  it('refuses an outDir below a file, naming the file on the way', () => {
    const d = temp();
    writeFileSync(join(d, 'f'), '');
    const out = join(d, 'f', 'deeper', 'runs');
    const err = thrown(() => createRunDirectory({ ...cfg(), outDir: out }));
    expect(err.code).toBe('bad_flag');
    expect(err.message).toBe(
      `--out / outDir: ${out}: ${join(d, 'f')} is a file, not a directory for run directories`,
    );
    expect(existsSync(join(d, 'f', 'deeper'))).toBe(false);
  });
});

describe('writeConfigRecord', () => {
  it('records the resolved config with names for code, env names only, secrets redacted', () => {
    const dir = temp();
    const config: ResolvedConfig = {
      ...cfg(),
      reporters: [
        'md',
        { name: 'mine', onRow: () => {} },
        { onRow: () => {} },
      ] as ResolvedConfig['reporters'],
      sources: {
        mine: {
          kind: 'command',
          command: ['agent', '--go'],
          format: 'claude-code',
          version: '1',
          env: { AGENT_KEY: 'sk-secret-value' },
        },
        fn: { kind: 'function', format: 'claude-code', version: '2' },
      } as unknown as ResolvedConfig['sources'],
      providers: { openai: { apiKey: 'sk-abc', concurrency: 2 } } as unknown as ResolvedConfig['providers'],
      checks: [{ name: 'cites-ids' }, { name: 'no-tbd' }] as unknown as ResolvedConfig['checks'],
    };
    writeConfigRecord(dir, config, 'run-1');
    const text = readFileSync(join(dir, 'config.json'), 'utf8');
    expect(text.endsWith('}\n')).toBe(true);
    const rec = JSON.parse(text);
    expect(rec.runId).toBe('run-1');
    expect(rec.harnessVersion).toBe(harnessVersion);
    expect(Date.parse(rec.createdAt)).not.toBeNaN();
    expect(rec.casesDirResolved).toBe(resolve(config.casesDir));
    expect(rec.reporters).toEqual(['md', 'mine', 'reporter']);
    expect(rec.sources).toEqual({
      mine: {
        kind: 'command',
        command: ['agent', '--go'],
        format: 'claude-code',
        version: '1',
        env: ['AGENT_KEY'],
      },
      fn: { kind: 'function', format: 'claude-code', version: '2' },
    });
    expect(rec.strategies).toEqual(Object.keys(config.strategies));
    expect(rec.criteria).toEqual(Object.keys(config.criteria));
    expect(rec.checks).toEqual(['cites-ids', 'no-tbd']);
    expect(rec.providers.openai).toEqual({ apiKey: '[redacted]', concurrency: 2 });
    expect(text).not.toContain('sk-secret-value');
    expect(rec.seed).toBe(config.seed);
  });

  it('a config without sources records an empty object', () => {
    const dir = temp();
    writeConfigRecord(dir, { ...cfg(), sources: undefined } as unknown as ResolvedConfig, 'r');
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).sources).toEqual({});
  });
});

describe('openResume', () => {
  const runDir = (record: unknown, raw?: string) => {
    const dir = temp();
    writeFileSync(join(dir, 'config.json'), raw ?? JSON.stringify(record));
    return dir;
  };

  it('a folder without config.json is not a run', () => {
    const dir = temp();
    const err = thrown(() => openResume(dir, cfg()));
    expect(err.code).toBe('not_a_run');
    expect(err.message).toBe(
      `${join(dir, 'config.json')}: not found; --resume takes a run directory written by handoff-eval run`,
    );
  });

  it('config.json that is not JSON, or has no runId', () => {
    const bad = runDir(null, '{ nope');
    const err = thrown(() => openResume(bad, cfg()));
    expect(err.code).toBe('not_a_run');
    expect(err.message).toMatch(new RegExp(`^${escape(join(bad, 'config.json'))}: not valid JSON \\(.+\\)$`));
    const noId = runDir({ seed: 3 });
    const e2 = thrown(() => openResume(noId, cfg()));
    expect(e2.code).toBe('not_a_run');
    expect(e2.message).toBe(`${join(noId, 'config.json')}: runId: missing`);
    expect(thrown(() => openResume(runDir({ runId: 5 }), cfg())).message).toMatch(/runId: missing$/);
  });

  it('takes the plan fields from the run, names those that differ, keeps the current operational ones', () => {
    const current: ResolvedConfig = { ...cfg({ seed: 1, reps: 2 }), concurrency: 9 };
    const dir = runDir({
      runId: 'the-run',
      seed: 5,
      reps: 2,
      arms: ['inline'],
      concurrency: 1,
      outDir: '/elsewhere',
    });
    const r = openResume(dir, current);
    expect(r.runId).toBe('the-run');
    expect(r.dir).toBe(dir);
    expect(r.config.seed).toBe(5);
    expect(r.config.reps).toBe(2);
    expect(r.config.arms).toEqual(['inline']);
    expect(r.differs).toEqual(['arms', 'seed']);
    expect(r.config.concurrency).toBe(9);
    expect(r.config.outDir).toBe(current.outDir);
    expect(r.config.batch).toBe(current.batch);
    expect(current.seed).toBe(1); // the current config is not changed
  });

  it('every plan field is taken from the run and named when it differs, in a fixed order', () => {
    const planFields = [
      'suites',
      'arms',
      'cases',
      'reps',
      'seed',
      'provider',
      'models',
      'judge',
      'budgetTokens',
      'mode',
      'modeForced',
      'sourceToolBudget',
      'liveInline',
      'livePrompts',
      'source',
      'sim',
      'prices',
      'shard',
    ];
    const stored: Record<string, unknown> = { runId: 'all', concurrency: 77, cache: { enabled: true } };
    for (const f of planFields) stored[f] = { from: f };
    const current = cfg();
    const r = openResume(runDir(stored), current);
    expect(r.differs).toEqual(planFields);
    for (const f of planFields)
      expect((r.config as unknown as Record<string, unknown>)[f]).toEqual({ from: f });
    expect(r.config.concurrency).toBe(current.concurrency);
    expect(r.config.cache).toEqual(current.cache);
    const same = openResume(runDir({ runId: 'same', seed: current.seed, reps: current.reps }), current);
    expect(same.differs).toEqual([]);
  });

  it('the resolved cases folder when it still exists, else the recorded one; batch once batch always', () => {
    const cases = temp();
    const there = openResume(
      runDir({ runId: 'a', casesDir: 'rel/cases', casesDirResolved: cases, batch: true }),
      cfg(),
    );
    expect(there.config.casesDir).toBe(cases);
    expect(there.config.batch).toBe(true);
    const gone = openResume(
      runDir({ runId: 'a', casesDir: 'rel/cases', casesDirResolved: join(cases, 'gone'), batch: false }),
      cfg(),
    );
    expect(gone.config.casesDir).toBe('rel/cases');
    expect(gone.config.batch).toBe(cfg().batch);
    const none = openResume(runDir({ runId: 'a' }), cfg());
    expect(none.config.casesDir).toBe(cfg().casesDir);
  });

  it('a model id no journalled row used is taken from the current config, and said so', () => {
    const current = cfg({ models: { large: { sim: 'sim-large' }, small: { sim: 'sim-small' } } });
    const stored = { large: { sim: 'sim-huge' }, small: { sim: 'sim-small' } };
    const dir = runDir({ runId: 'a', models: stored });
    const r = openResume(dir, current);
    expect(r.config.models.large!.sim).toBe('sim-large');
    expect(r.differs).toEqual([
      'models (taken from the current config, no journalled cell used the old id: models.large.sim sim-huge → sim-large)',
    ]);
    // Used by a journalled row: it stays, and models is named as differing.
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'results.jsonl'), `${JSON.stringify({ source_model: 'sim:sim-huge' })}\n`);
    const kept = openResume(dir, current);
    expect(kept.config.models.large!.sim).toBe('sim-huge');
    expect(kept.differs).toEqual(['models']);
    // Two ids taken: both named, in one entry.
    const two = runDir({ runId: 'b', models: { large: { sim: 'sim-huge' }, small: { sim: 'sim-tiny' } } });
    expect(openResume(two, current).differs).toEqual([
      'models (taken from the current config, no journalled cell used the old id: models.large.sim sim-huge → sim-large, models.small.sim sim-tiny → sim-small)',
    ]);
  });

  it('recorded models that are not an object are taken as they are, with no model check', () => {
    const r = openResume(runDir({ runId: 'a', models: 'odd' }), cfg());
    expect(r.config.models as unknown).toBe('odd');
    expect(r.differs).toEqual(['models']);
  });

  it('config.json that is not JSON keeps the parse error as the cause', () => {
    const dir = runDir(null, '{ nope');
    const err = thrown(() => openResume(dir, cfg()));
    expect(err.cause).toBeInstanceOf(SyntaxError);
  });
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
