import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SqliteCache } from '../../harness/cache/sqlite-cache.ts';
import type { ModelRequest } from '../../harness/core/index.ts';
import { startMockLlmServer, type MockServer } from '../support/mock-llm-server.ts';
import { repoRoot, runCliAsync } from '../support/cli.ts';
import { fixtureCases, mockEnv, rowsOf, tempDir } from '../support/mock-run.ts';

const writer = join(repoRoot, 'test/support/cache-writer.ts');

function startWriter(dir: string, prefix: string, count: number, batch: number, forever = false) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', writer, dir, prefix, String(count), String(batch), ...(forever ? ['forever'] : [])],
    { cwd: repoRoot },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += String(d)));
  child.stderr.on('data', (d) => (err += String(d)));
  const exit = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, exit, out: () => out, err: () => err };
}

describe('the response cache key', () => {
  const cache = new SqliteCache(tempDir('key'));
  afterAll(() => cache.close());
  const base: ModelRequest = {
    purpose: 'answer',
    model: 'm',
    seed: '1/c/0/answer#0',
    maxTokens: 100,
    system: 's',
    messages: [{ role: 'user', text: 'hi' }],
  };

  it('ignores key order and fields that do not change the output; changes with every field that does', () => {
    const k = cache.keyOf('openai', base);
    expect(
      cache.keyOf('openai', {
        messages: [{ text: 'hi', role: 'user' }],
        seed: base.seed,
        maxTokens: 100,
        model: 'm',
        system: 's',
        purpose: 'answer',
        cachePrefix: 1,
        sim: { caseId: 'x', assertions: [], reference: { facts: [], caveats: [] } },
      }),
    ).toBe(k);
    const variants: Partial<ModelRequest>[] = [
      { model: 'm2' },
      { seed: '1/c/1/answer#0' },
      { maxTokens: 101 },
      { system: 't' },
      { temperature: 0 },
      { messages: [{ role: 'user', text: 'hi!' }] },
      { tools: [{ name: 't', description: 'd', inputSchema: {} }] },
      { toolChoice: { type: 'none' } },
    ];
    for (const v of variants) expect(cache.keyOf('openai', { ...base, ...v }), JSON.stringify(v)).not.toBe(k);
    expect(cache.keyOf('anthropic', base)).not.toBe(k);
    expect(cache.keyOf('openai', base, 'http://127.0.0.1:8000/v1')).not.toBe(k);
  });
});

describe('the response cache key over tool calls and tool results', () => {
  const cache = new SqliteCache(tempDir('key-tools'));
  afterAll(() => cache.close());
  const call = { id: 'c1', name: 'read_file', input: { path: 'a.ts', opts: { lines: [1, 2] } } };
  const result = { callId: 'c1', content: 'export const A = 1;', isError: false };
  const withTools = (
    c: Partial<typeof call> = {},
    r: Partial<typeof result> & { isError?: boolean } = {},
  ): ModelRequest => ({
    purpose: 'answer',
    model: 'm',
    seed: '1/c/0/answer#0',
    maxTokens: 100,
    messages: [
      { role: 'user', text: 'look' },
      { role: 'assistant', toolCalls: [{ ...call, ...c }] },
      { role: 'user', toolResults: [{ ...result, ...r }] },
    ],
  });

  it('changes with every part of a tool call and of a tool result, isError included', () => {
    const k = cache.keyOf('openai', withTools());
    // Key order inside a call's input is not part of the request.
    expect(cache.keyOf('openai', withTools({ input: { opts: { lines: [1, 2] }, path: 'a.ts' } }))).toBe(k);
    const variants: [string, ModelRequest][] = [
      ['call id', withTools({ id: 'c2' })],
      ['call name', withTools({ name: 'grep' })],
      ['call input', withTools({ input: { path: 'b.ts', opts: { lines: [1, 2] } } })],
      ['nested call input', withTools({ input: { path: 'a.ts', opts: { lines: [2, 1] } } })],
      ['result callId', withTools({}, { callId: 'c9' })],
      ['result content', withTools({}, { content: 'export const A = 2;' })],
      ['result isError', withTools({}, { isError: true })],
    ];
    const keys = variants.map(([what, req]) => {
      const v = cache.keyOf('openai', req);
      expect(v, what).not.toBe(k);
      return v;
    });
    expect(new Set(keys).size).toBe(variants.length);
    // An absent isError is a success, as false is: the same request, the same answer.
    const { isError: _, ...unflagged } = result;
    const noFlag = {
      ...withTools(),
      messages: [...withTools().messages.slice(0, 2), { role: 'user' as const, toolResults: [unflagged] }],
    };
    expect(cache.keyOf('openai', noFlag)).toBe(k);
  });

  it('tells a failed tool result from a successful one, so one arm’s cached answer never serves the other', () => {
    const dir = tempDir('key-tools-store');
    const store = new SqliteCache(dir);
    const ok = withTools();
    const failed = withTools({}, { isError: true });
    store.set(store.keyOf('openai', ok), {
      text: 'the file says A = 1',
      toolCalls: [],
      stopReason: 'end_turn',
      usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 },
      latencyMs: 3,
      model: 'm',
      cached: false,
      retries: 0,
      costUsd: 0,
    });
    expect(store.get(store.keyOf('openai', ok))?.text).toBe('the file says A = 1');
    expect(store.get(store.keyOf('openai', failed))).toBeUndefined();
    store.close();
  });
});

describe('the response cache store', () => {
  it('takes two processes writing the same file at once, losing nothing', async () => {
    const dir = tempDir('cache-conc');
    const a = startWriter(dir, 'a', 3000, 20);
    const b = startWriter(dir, 'b', 3000, 20);
    expect(await a.exit).toBe(0);
    expect(await b.exit).toBe(0);
    expect(a.out() + b.out()).not.toContain('flush-failed');
    const cache = new SqliteCache(dir);
    for (const p of ['a', 'b'])
      for (let i = 0; i < 3000; i += 7)
        expect(cache.get(`${p}-${i}`)?.text, `${p}-${i}`).toMatch(new RegExp(`^${p} ${i} `));
    // Both wrote every shared key; the first answer stored wins and both agree afterwards.
    expect(cache.get('shared-2997')?.text).toMatch(/^shared 2997 from [ab]$/);
    cache.close();
    const db = new Database(join(dir, 'responses.sqlite'), { readonly: true });
    expect(db.prepare('SELECT count(*) AS n FROM responses').get()).toEqual({ n: 6000 + 1000 });
    db.close();
  });

  it('survives kill -9 in the middle of writing: intact file, every committed batch readable, writable again', async () => {
    const dir = tempDir('cache-kill');
    const w = startWriter(dir, 'k', 0, 200, true);
    await new Promise<void>((resolve) => {
      const check = () =>
        (w.out().match(/committed (\d+)/g) ?? []).length >= 5 ? resolve() : setTimeout(check, 10);
      check();
    });
    w.child.kill('SIGKILL');
    await w.exit;
    const committed = Math.max(...[...w.out().matchAll(/committed (\d+)/g)].map((m) => Number(m[1])));
    expect(committed).toBeGreaterThanOrEqual(1000);
    const db = new Database(join(dir, 'responses.sqlite'));
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
    const cache = new SqliteCache(dir);
    for (let i = 0; i < committed; i += 11) expect(cache.get(`k-${i}`)?.text).toMatch(new RegExp(`^k ${i} `));
    cache.set('after-crash', { ...cache.get('k-0')!, text: 'new' });
    cache.close();
    const again = new SqliteCache(dir);
    expect(again.get('after-crash')?.text).toBe('new');
    again.close();
  });
});

describe('re-running an unchanged experiment', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockLlmServer();
  });
  afterAll(() => mock.close());

  it('makes zero provider calls; --no-cache makes them all again', async () => {
    const project = tempDir('rerun');
    mkdirSync(join(project, 'runs'));
    writeFileSync(
      join(project, 'eval.config.ts'),
      `export default ${JSON.stringify({ casesDir: fixtureCases, reps: 2, seed: 5, provider: 'openai', models: { large: { openai: 'gpt-4o-mini' }, judge: { openai: 'gpt-4o-mini' } }, cache: { dir: join(project, 'cache') } })};\n`,
    );
    const run = (...flags: string[]) =>
      runCliAsync(['run', '--out', join(project, 'runs'), '--quiet', ...flags], {
        cwd: project,
        env: mockEnv(mock),
      });
    const first = await run();
    expect(first.code, first.stderr).toBe(0);
    const callsFirst = mock.stats.requests;
    expect(callsFirst).toBeGreaterThanOrEqual(12);
    mock.resetStats();
    const second = await run();
    expect(second.code, second.stderr).toBe(0);
    expect(mock.stats.requests).toBe(0);
    const dirs = readdirSync(join(project, 'runs')).sort();
    const rows = rowsOf(join(project, 'runs', dirs[1]!));
    expect(rows).toHaveLength(6);
    expect(
      rows.every((r) => r.status === 'ok' && r.cached_calls === r.model_calls && r.model_calls > 0),
    ).toBe(true);
    const firstRows = rowsOf(join(project, 'runs', dirs[0]!));
    const strip = (rs: typeof rows) =>
      rs
        .map((r) => ({ id: r.cell_id, scores: r.scores, answer: r.detail?.answer, cost: r.cost_usd }))
        .sort((x, y) => x.id.localeCompare(y.id));
    expect(strip(rows)).toEqual(strip(firstRows));
    const third = await run('--no-cache');
    expect(third.code, third.stderr).toBe(0);
    expect(mock.stats.requests).toBe(callsFirst);
  });
});
