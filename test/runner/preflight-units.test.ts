import { afterEach, describe, expect, it, vi } from 'vitest';
import { createServer, type Server } from 'node:http';
import { resolveConfig } from '../../harness/config/resolve-config.ts';
import type { UserConfig } from '../../harness/config/types.ts';
import { preflight } from '../../harness/runner/preflight.ts';
import { listVendorModels, type ModelList } from '../../harness/runner/preflight-models.ts';

/**
 * preflight's branches the config tests (test/config/preflight.test.ts) leave out (issue 32 item 3):
 * a plan that cannot be built, a provider whose list is a problem, several providers in one config,
 * one id named by two aliases, an alias without an id at the provider (once, not per cell), the
 * "listed:" hint's cut at five; and listVendorModels' notes for a provider it cannot list. On the one-case
 * fixture suite (3 arms, all `large`), so each preflight is quick.
 */
const mini = {
  casesDir: 'test/fixtures/cases',
  suites: ['mini'],
  reps: 1,
  cache: false,
} satisfies UserConfig;
const cfg = (user: UserConfig = {}, flags = {}) =>
  resolveConfig({ ...mini, ...user }, flags, 'eval.config.ts');
const lists =
  (ids: string[], at = 'http://x/v1') =>
  async (): Promise<ModelList> => ({ ids: new Set(ids), at });

describe('preflight', () => {
  it('a clean plan: no problems, no notes, the number of cells', async () => {
    expect(await preflight(cfg())).toEqual({ problems: [], notes: [], cells: 3 });
    expect((await preflight(cfg({ reps: 2 }))).cells).toBe(6);
  });

  it('a plan that cannot be built: a note, no model check, no cell count', async () => {
    let asked = 0;
    const r = await preflight(cfg({ arms: ['nope'], provider: 'openai' }), {
      listModels: async () => (asked++, { ids: new Set(), at: 'x' }),
    });
    expect(r).toEqual({
      problems: [],
      notes: ['model ids not checked: the plan could not be built (its problem is reported on its own)'],
      cells: null,
    });
    expect(asked).toBe(0);
  });

  it('a bad cases folder stops before the plan, with the reporters still checked', async () => {
    const r = await preflight(cfg({ casesDir: 'test/fixtures/no-such', reporters: ['md', 'nope'] }));
    expect(r.cells).toBeNull();
    expect(r.notes).toEqual([]);
    expect(r.problems).toEqual([
      'eval.config.ts: casesDir: no such folder "test/fixtures/no-such"',
      'eval.config.ts: reporters[1]: unknown reporter "nope"; valid: progress, md, csv, json, html, or a reporter object',
    ]);
  });

  it('a config without a file is named "config"', async () => {
    const r = await preflight({ ...cfg(), configFile: null, casesDir: 'test/fixtures/no-such' });
    expect(r.problems).toEqual(['config: casesDir: no such folder "test/fixtures/no-such"']);
    const model = await preflight({ ...cfg({ models: { large: { sim: 'sim-huge' } } }), configFile: null });
    expect(model.problems).toEqual([
      'config: models.large.sim: unknown sim model "sim-huge"; valid: sim-small, sim-large, sim-judge',
    ]);
  });

  it('an alias with no id at its provider: once, however many cells and roles use it', async () => {
    const r = await preflight(cfg({ provider: 'openai', models: { large: { sim: 'sim-large' } } }), {
      listModels: lists(['gpt-4o']),
    });
    expect(r.problems).toEqual([
      'eval.config.ts: models.large.openai: no model id for alias "large" under provider "openai"',
    ]);
    expect(r.cells).toBe(3);
  });

  it('one id under two aliases is named by both fields, sorted', async () => {
    const r = await preflight(
      cfg({ provider: 'openai', models: { large: { openai: 'gpt-x' }, judge: { openai: 'gpt-x' } } }),
      { listModels: lists(['gpt-4o']) },
    );
    expect(r.problems).toEqual([
      'eval.config.ts: models.judge.openai, models.large.openai: "gpt-x" is not a model openai lists at http://x/v1; listed: gpt-4o',
    ]);
  });

  it('the "listed:" hint: ids sharing the first word, sorted, at most five then "…"; none when nothing is close', async () => {
    const many = ['gpt-5', 'gpt-4o', 'gpt-4.1', 'gpt-3.5', 'gpt-4o-mini', 'gpt-4-turbo', 'o3'];
    const five = await preflight(cfg({ provider: 'openai', models: { large: { openai: 'gpt-4q' } } }), {
      listModels: lists(many),
    });
    expect(five.problems).toEqual([
      'eval.config.ts: models.large.openai: "gpt-4q" is not a model openai lists at http://x/v1; listed: gpt-3.5, gpt-4-turbo, gpt-4.1, gpt-4o, gpt-4o-mini, …',
    ]);
    const exactlyFive = await preflight(
      cfg({ provider: 'openai', models: { large: { openai: 'gpt-4q' } } }),
      {
        listModels: lists(many.slice(0, 5)),
      },
    );
    // Exactly five: all of them, no "…" (it said "…" with nothing left out before).
    expect(exactlyFive.problems[0]).toMatch(/; listed: gpt-3\.5, gpt-4\.1, gpt-4o, gpt-4o-mini, gpt-5$/);
    const four = await preflight(cfg({ provider: 'openai', models: { large: { openai: 'gpt-4q' } } }), {
      listModels: lists(many.slice(0, 4)),
    });
    expect(four.problems[0]).toMatch(/; listed: gpt-3\.5, gpt-4\.1, gpt-4o, gpt-5$/);
    const far = await preflight(cfg({ provider: 'openai', models: { large: { openai: 'claude.x' } } }), {
      listModels: lists(many),
    });
    expect(far.problems).toEqual([
      'eval.config.ts: models.large.openai: "claude.x" is not a model openai lists at http://x/v1',
    ]);
  });

  it('a reporter object is not a name to check', async () => {
    const r = await preflight(cfg({ reporters: ['md', { onRow: () => {} }] as UserConfig['reporters'] }));
    expect(r.problems).toEqual([]);
  });

  it('three providers are checked in name order, whatever order the roles name them in', async () => {
    const asked: string[] = [];
    await preflight(cfg({ provider: { default: 'sim', receiver: 'openai', judge: 'anthropic' } }), {
      listModels: async (provider) => {
        asked.push(provider);
        return { skipped: 'offline' };
      },
    });
    expect(asked).toEqual(['anthropic', 'openai']);
    const notes = (
      await preflight(cfg({ provider: { source: 'anthropic', default: 'openai', judge: 'sim' } }), {
        listModels: async (provider) => ({ skipped: `${provider} offline` }),
      })
    ).notes;
    expect(notes).toEqual([
      'model ids at anthropic not checked: anthropic offline',
      'model ids at openai not checked: openai offline',
    ]);
  });

  it('several providers: each checked once, in name order; a listing problem is a problem', async () => {
    const asked: string[] = [];
    const r = await preflight(
      cfg({
        provider: { default: 'sim', judge: 'openai' },
        models: { large: { sim: 'sim-huge' }, judge: { openai: 'gpt-nope' } },
      }),
      {
        listModels: async (provider) => {
          asked.push(provider);
          return { problem: `${provider}: the key was refused` };
        },
      },
    );
    expect(asked).toEqual(['openai']);
    expect(r.problems).toEqual([
      'openai: the key was refused',
      'eval.config.ts: models.large.sim: unknown sim model "sim-huge"; valid: sim-small, sim-large, sim-judge',
    ]);
    expect(r.notes).toEqual([]);
  });
});

describe('listVendorModels', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('a provider of the config’s own, and a built-in one without a key, are notes', async () => {
    expect(await listVendorModels('mine', cfg())).toEqual({
      skipped: 'provider mine does not list its models',
    });
    vi.stubEnv('OPENAI_API_KEY', '');
    vi.stubEnv('ANTHROPIC_API_KEY', '');
    expect(await listVendorModels('openai', cfg())).toEqual({
      skipped: 'no OPENAI_API_KEY in the environment',
    });
    expect(await listVendorModels('anthropic', cfg())).toEqual({
      skipped: 'no ANTHROPIC_API_KEY in the environment',
    });
  });

  /** A 127.0.0.1 server answering one vendor's list route only: GET /models (OpenAI's) or GET /v1/models (Anthropic's). */
  async function listingServer(ids: string[], vendor: 'openai' | 'anthropic') {
    const server: Server = createServer((req, res) => {
      const data = ids.map((id) => ({ id, object: 'model', type: 'model' }));
      const route = vendor === 'anthropic' ? '/v1/models' : '/models';
      res.writeHead(req.url?.split('?')[0] === route ? 200 : 404, { 'content-type': 'application/json' });
      if (req.url?.split('?')[0] !== route)
        res.end(JSON.stringify({ error: { message: `no route ${req.url}` } }));
      else if (vendor === 'anthropic')
        res.end(JSON.stringify({ data, has_more: false, first_id: ids[0], last_id: ids.at(-1) }));
      else res.end(JSON.stringify({ object: 'list', data }));
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const at = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    return { at, close: () => new Promise((ok) => server.close(ok)) };
  }

  it('anthropic is listed with its own client (GET /v1/models, x-api-key)', async () => {
    const s = await listingServer(['claude-a', 'claude-b'], 'anthropic');
    try {
      vi.stubEnv('ANTHROPIC_API_KEY', 'sk-ant-test-1');
      vi.stubEnv('ANTHROPIC_BASE_URL', '');
      const config = cfg({ provider: 'anthropic', providers: { anthropic: { baseURL: s.at } } });
      expect(await listVendorModels('anthropic', config)).toEqual({
        ids: new Set(['claude-a', 'claude-b']),
        at: s.at,
      });
    } finally {
      await s.close();
    }
  });

  it('stops reading a list past 50,000 ids', async () => {
    const s = await listingServer(
      Array.from({ length: 50_003 }, (_, i) => `m-${i}`),
      'openai',
    );
    try {
      vi.stubEnv('OPENAI_API_KEY', 'sk-test-2');
      vi.stubEnv('OPENAI_BASE_URL', '');
      const config = cfg({ provider: 'openai', providers: { openai: { baseURL: s.at } } });
      const r = await listVendorModels('openai', config);
      expect('ids' in r && r.ids.size).toBe(50_001);
    } finally {
      await s.close();
    }
  });

  it('a 403 is a problem with the key masked; a 404 is a note with the first line of the error', async () => {
    let status = 403;
    const server: Server = createServer((req, res) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `no such route (key sk-test-123456)` } }));
      void req;
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    try {
      vi.stubEnv('OPENAI_API_KEY', 'sk-test-123456');
      const at = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
      const config = cfg({ provider: 'openai', providers: { openai: { baseURL: at } } });
      const refused = await listVendorModels('openai', config);
      expect('problem' in refused && refused.problem).toMatch(
        new RegExp(`^openai: the key in OPENAI_API_KEY was refused listing models at ${at} \\(HTTP 403\\): `),
      );
      expect(JSON.stringify(refused)).not.toContain('sk-test-123456');
      status = 404;
      const missing = await listVendorModels('openai', config);
      expect('skipped' in missing && missing.skipped).toMatch(
        new RegExp(`^could not list openai's models at ${at}: 404 `),
      );
      expect(JSON.stringify(missing)).not.toContain('sk-test-123456');
      expect('skipped' in missing && missing.skipped).not.toContain('\n');
    } finally {
      await new Promise((ok) => server.close(ok));
    }
  });
});
