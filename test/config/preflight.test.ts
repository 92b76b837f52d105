import { afterAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveConfig } from '../../harness/config/resolve-config.ts';
import { preflight } from '../../harness/runner/preflight.ts';
import { listVendorModels } from '../../harness/runner/preflight-models.ts';
import { printDryRun } from '../../harness/cli/commands/run.ts';
import { InputError } from '../../harness/core/errors.ts';
import type { UserConfig } from '../../harness/config/types.ts';
import { repoRoot, runCli } from '../support/cli.ts';

/**
 * What `run` would refuse, found before any provider call (issue 27 item 5): `validate` and
 * `run --dry-run` share preflight(), which reports every problem once.
 */
const made: string[] = [];
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));
const temp = () => {
  const d = mkdtempSync(join(tmpdir(), 'he-preflight-'));
  made.push(d);
  return d;
};
const cfg = (user: UserConfig, flags = {}) => resolveConfig(user, flags, 'eval.config.ts');
const ledger = { suites: ['ledgerline'], arms: ['inline', 'summary'], reps: 1 } satisfies UserConfig;

describe('preflight', () => {
  it('the cases folder: missing, a file, or holding no suite', async () => {
    const dir = temp();
    writeFileSync(join(dir, 'file'), '');
    mkdirSync(join(dir, 'empty'));
    const problems = async (casesDir: string) => (await preflight(cfg({ casesDir }))).problems;
    expect(await problems(join(dir, 'nope'))).toEqual([
      `eval.config.ts: casesDir: no such folder "${join(dir, 'nope')}"`,
    ]);
    expect(await problems(join(dir, 'file'))).toEqual([
      `eval.config.ts: casesDir: "${join(dir, 'file')}" is not a folder`,
    ]);
    expect(await problems(join(dir, 'empty'))).toEqual([
      `eval.config.ts: casesDir: no suite under "${join(dir, 'empty')}" (a suite is a folder holding a suite.json)`,
    ]);
  });

  it('every unknown reporter, once each', async () => {
    const r = await preflight(cfg({ ...ledger, reporters: ['progres', 'md', 'htm'] }));
    expect(r.problems).toEqual([
      'eval.config.ts: reporters[0]: unknown reporter "progres"; valid: progress, md, csv, json, html, or a reporter object',
      'eval.config.ts: reporters[2]: unknown reporter "htm"; valid: progress, md, csv, json, html, or a reporter object',
    ]);
  });

  it('a sim model id the sim does not have, named by its config field', async () => {
    const r = await preflight(cfg({ ...ledger, models: { large: { sim: 'sim-huge' } } }));
    expect(r.problems).toEqual([
      'eval.config.ts: models.large.sim: unknown sim model "sim-huge"; valid: sim-small, sim-large, sim-judge',
    ]);
  });

  it('a shard that holds no cell', async () => {
    const r = await preflight(
      cfg({ ...ledger, arms: ['inline'] }, { case: ['ledgerline-01'], shard: '1/2' }),
    );
    expect(r.problems).toEqual(['--shard 1/2: none of the 1 planned cells falls in this shard']);
  });

  it('a real provider: ids checked against its list; skipped with a note when it cannot be listed', async () => {
    const openai = cfg({ ...ledger, provider: 'openai', models: { large: { openai: 'gpt-4q' } } });
    const listed = await preflight(openai, {
      listModels: async () => ({ ids: new Set(['gpt-4o', 'gpt-4o-mini', 'o3']), at: 'http://x/v1' }),
    });
    expect(listed.problems).toEqual([
      'eval.config.ts: models.large.openai: "gpt-4q" is not a model openai lists at http://x/v1; listed: gpt-4o, gpt-4o-mini',
    ]);
    const offline = await preflight(openai, {
      listModels: async () => ({ skipped: 'no OPENAI_API_KEY in the environment' }),
    });
    expect(offline.problems).toEqual([]);
    expect(offline.notes).toEqual(['model ids at openai not checked: no OPENAI_API_KEY in the environment']);
  });
});

describe('listVendorModels against a 127.0.0.1 OpenAI-compatible server', () => {
  it('lists GET /models; a 401 is a problem', async () => {
    let status = 200;
    const server: Server = createServer((req, res) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(
        status === 200
          ? JSON.stringify({ object: 'list', data: [{ id: 'local-7b', object: 'model' }] })
          : JSON.stringify({ error: { message: 'bad key' } }),
      );
      void req;
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    try {
      const port = (server.address() as { port: number }).port;
      const config = cfg({
        provider: 'openai',
        providers: { openai: { baseURL: `http://127.0.0.1:${port}/v1` } },
      });
      const r = await listVendorModels('openai', config);
      expect(r).toEqual({ ids: new Set(['local-7b']), at: `http://127.0.0.1:${port}/v1` });
      status = 401;
      const refused = await listVendorModels('openai', config);
      expect('problem' in refused && refused.problem).toMatch(
        /^openai: the key in OPENAI_API_KEY was refused listing models at .* \(HTTP 401\)/,
      );
    } finally {
      await new Promise((ok) => server.close(ok));
    }
  });
});

describe('run --dry-run and validate say what run would refuse', () => {
  it('--dry-run lists every problem and exits 2 instead of printing a plan', async () => {
    const out: string[] = [];
    const err = await printDryRun(
      { resume: undefined, retryErrors: false },
      cfg({ ...ledger, models: { large: { sim: 'sim-huge' } }, reporters: ['htm'] }),
      (t) => out.push(t),
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as Error).message).toBe(
      'run --dry-run: the run would not start:\n  eval.config.ts: reporters[0]: unknown reporter "htm"; valid: progress, md, csv, json, html, or a reporter object\n  eval.config.ts: models.large.sim: unknown sim model "sim-huge"; valid: sim-small, sim-large, sim-judge',
    );
    expect(out).toEqual([]);
    await printDryRun({ resume: undefined, retryErrors: false }, cfg(ledger), (t) => out.push(t));
    expect(out[0]).toMatch(/^handoff-eval run --dry-run: 62 cells; nothing was called/);
  });

  it('validate: an empty folder, and two problems of one case each printed once', () => {
    const dir = temp();
    mkdirSync(join(dir, 'empty'));
    const empty = runCli(['validate', 'empty'], { cwd: dir });
    expect(empty.code).toBe(2);
    expect(empty.stdout).toBe('ERR empty: no suite.json or case file (*.json) in it: nothing to validate\n');
    cpSync(join(repoRoot, 'test/fixtures/cases/mini'), join(dir, 'cases/mini'), { recursive: true });
    writeFileSync(join(dir, 'eval.config.ts'), "export default { casesDir: 'cases', cache: false };\n");
    const file = join(dir, 'cases/mini/cases/deprecation-1.json');
    const raw = JSON.parse(readFileSync(file, 'utf8'));
    raw.title = 5;
    raw.assertions[0].kind = 'bogus';
    writeFileSync(file, JSON.stringify(raw));
    const r = runCli(['validate'], { cwd: dir });
    expect(r.code).toBe(2);
    const errs = r.stdout.split('\n').filter((l) => l.startsWith('ERR'));
    expect(errs).toEqual([
      'ERR cases/mini/cases/deprecation-1.json (case deprecation-1): title: must be string',
      'ERR cases/mini/cases/deprecation-1.json (case deprecation-1): assertions.0.kind: must be equal to one of the allowed values',
    ]);
  });
});
