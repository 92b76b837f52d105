import { describe, expect, it } from 'vitest';
import type { CallRecord, ModelRequest, ModelResponse, Provider } from '../../harness/core/index.ts';
import type { ResolvedConfig } from '../../harness/config/types.ts';
import { resolveConfig } from '../../harness/config/resolve-config.ts';
import { createCallPath, requestSeed, resolveModel } from '../../harness/calls/call-path.ts';
import { ConfigError, ProviderError } from '../../harness/core/errors.ts';
import { plainResponse } from '../support/model-response.ts';

/**
 * The call path in-process (issue 32 item 3): the per-call seed and its counters, the concurrency
 * limit per provider (configured, the defaults for the sim and for others, unbounded for batches), the
 * price of an answer the provider did not price, and what calls.jsonl records for an answer and for a
 * failure.
 */
const cfg = (user = {}): ResolvedConfig =>
  resolveConfig({ cache: false, seed: 4, ...user }, {}, 'eval.config.ts');
const cellCtx = (cellId = 'c/1', rep = 2) => ({
  cellId,
  caseId: 'case-a',
  rep,
  aliases: { source: 'large', receiver: 'small' },
  made: [] as { role: 'source' | 'receiver' | 'judge'; purpose: string; response: ModelResponse }[],
});
const input = (purpose: 'answer' | 'judge' | 'summarize') => ({
  purpose,
  messages: [{ role: 'user' as const, text: 'q' }],
  maxTokens: 16,
});

/** A provider whose calls wait until released, counting how many are in flight at once. */
function gated(id: string) {
  let inFlight = 0;
  let most = 0;
  const waiting: (() => void)[] = [];
  const provider: Provider = {
    id,
    generate: async () => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise<void>((go) => waiting.push(go));
      inFlight--;
      return plainResponse('ok');
    },
  };
  return { provider, most: () => most, release: () => waiting.splice(0).forEach((go) => go()), waiting };
}

async function mostInFlight(
  config: ResolvedConfig,
  providerName: string,
  calls: number,
  unbounded?: ReadonlySet<string>,
) {
  const g = gated(providerName);
  const path = createCallPath({
    config,
    providers: { [providerName]: g.provider },
    cache: null,
    runId: 'r',
    onCall: () => {},
    ...(unbounded ? { unbounded } : {}),
  });
  const call = path.forCell(cellCtx());
  const all = Array.from({ length: calls }, () => call('receiver', input('answer')));
  // Let every call that may start, start; then release them in waves until all are done.
  let done = false;
  const finished = Promise.all(all).then(() => (done = true));
  while (!done) {
    await new Promise((r) => setImmediate(r));
    g.release();
  }
  await finished;
  return g.most();
}

/** A call path over one sim-named provider, no cache, run id 'r' (onCall: what each test records). */
function simPath(provider: Provider, onCall: Parameters<typeof createCallPath>[0]['onCall']) {
  return createCallPath({ config: cfg(), providers: { sim: provider }, cache: null, runId: 'r', onCall });
}

describe('the per-call seed', () => {
  it('is seed/case/rep/purpose#n, n counting the cell’s calls of that purpose', async () => {
    const seen: string[] = [];
    const provider: Provider = {
      id: 'sim',
      generate: async (req) => (seen.push(req.seed), plainResponse('ok')),
    };
    const path = simPath(provider, () => {});
    const call = path.forCell(cellCtx());
    await call('judge', input('judge'));
    await call('receiver', input('answer'));
    await call('judge', input('judge'));
    await path.forCell(cellCtx('c/2', 0))('judge', input('judge'));
    expect(seen).toEqual([
      '4/case-a/2/judge#0',
      '4/case-a/2/answer#0',
      '4/case-a/2/judge#1',
      '4/case-a/0/judge#0',
    ]);
    expect(requestSeed({ seed: 9 }, { caseId: 'x', rep: 0 }, 'classify', 3)).toBe('9/x/0/classify#3');
  });

  it('each role asks its alias’s model; the judge its own alias; made lists the calls in order', async () => {
    const models: string[] = [];
    const provider: Provider = {
      id: 'sim',
      generate: async (req) => (models.push(req.model), plainResponse(req.model)),
    };
    const path = simPath(provider, () => {});
    const ctx = cellCtx();
    const call = path.forCell(ctx);
    await call('source', input('summarize'));
    await call('receiver', input('answer'));
    await call('judge', input('judge'));
    expect(models).toEqual(['sim-large', 'sim-small', 'sim-judge']);
    expect(ctx.made.map((m) => [m.role, m.purpose, m.response.text])).toEqual([
      ['source', 'summarize', 'sim-large'],
      ['receiver', 'answer', 'sim-small'],
      ['judge', 'judge', 'sim-judge'],
    ]);
    expect(path.modelFor('receiver', { source: 'large', receiver: 'large' })).toEqual({
      provider: 'sim',
      model: 'sim-large',
      alias: 'large',
    });
  });

  it('an alias without an id at the provider, and a provider not made, are config errors naming the field', async () => {
    expect(() => resolveModel(cfg(), 'source', { source: 'huge', receiver: 'large' })).toThrow(
      new ConfigError(
        'eval.config.ts',
        'models.huge.sim',
        'no model id for alias "huge" under provider "sim"',
      ),
    );
    const records: CallRecord[] = [];
    const path = createCallPath({
      config: cfg(),
      providers: {},
      cache: null,
      runId: 'r',
      onCall: (x) => records.push(x),
    });
    await expect(path.forCell(cellCtx())('receiver', input('answer'))).rejects.toThrow(
      'eval.config.ts: provider: provider "sim" is not available',
    );
    expect(records).toEqual([]);
  });
});

describe('the concurrency limit per provider', () => {
  it('the configured one; the sim’s default (64) and another provider’s (16); none for an unbounded provider', async () => {
    expect(await mostInFlight(cfg({ providers: { sim: { concurrency: 3 } } }), 'sim', 8)).toBe(3);
    expect(await mostInFlight(cfg(), 'sim', 70)).toBe(64);
    const openai = cfg({ provider: 'openai' });
    expect(await mostInFlight(openai, 'openai', 20)).toBe(16);
    expect(await mostInFlight(openai, 'openai', 20, new Set(['openai']))).toBe(20);
    expect(await mostInFlight(openai, 'openai', 20, new Set(['sim']))).toBe(16);
  });
});

describe('a call’s price and record', () => {
  const prices = { 'sim-small': { input: 2, output: 10 } };

  it('an answer the provider did not price is priced from its usage; a priced one keeps its price', async () => {
    const usage = { inputTokens: 1000, outputTokens: 100, cacheReadTokens: 0, cacheWriteTokens: 0 };
    let cost = 0;
    const provider: Provider = {
      id: 'sim',
      generate: async () => ({ ...plainResponse('ok'), usage, costUsd: cost, retries: 1, latencyMs: 12 }),
    };
    const records: CallRecord[] = [];
    const config = { ...cfg(), prices };
    const path = createCallPath({
      config,
      providers: { sim: provider },
      cache: null,
      runId: 'run-9',
      onCall: (x) => records.push(x),
    });
    const call = path.forCell(cellCtx('cell-7'));
    expect((await call('receiver', input('answer'))).costUsd).toBeCloseTo(0.003, 12);
    cost = 0.5;
    expect((await call('receiver', input('answer'))).costUsd).toBe(0.5);
    expect(records[0]).toEqual({
      runId: 'run-9',
      cellId: 'cell-7',
      role: 'receiver',
      purpose: 'answer',
      provider: 'sim',
      model: 'sim-small',
      inputTokens: 1000,
      outputTokens: 100,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      latencyMs: 12,
      cached: false,
      retries: 1,
      costUsd: records[0]!.costUsd,
      stopReason: 'end_turn',
    });
    expect(records[0]!.costUsd).toBeCloseTo(0.003, 12);
    expect(records[1]!.costUsd).toBe(0.5);
  });

  it('a failure is recorded with zeros, the retries the provider made and the reason, then thrown', async () => {
    const err = new ProviderError('sim', 'overloaded', 529, 'req-3', { retries: 4 });
    const provider: Provider = {
      id: 'sim',
      generate: async () => {
        throw err;
      },
    };
    const records: CallRecord[] = [];
    const ctx = cellCtx('cell-8');
    const path = simPath(provider, (x) => records.push(x));
    await expect(path.forCell(ctx)('judge', input('judge'))).rejects.toBe(err);
    expect(records).toEqual([
      {
        runId: 'r',
        cellId: 'cell-8',
        role: 'judge',
        purpose: 'judge',
        provider: 'sim',
        model: 'sim-judge',
        inputTokens: 0,
        outputTokens: 0,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
        latencyMs: 0,
        cached: false,
        retries: 4,
        costUsd: 0,
        error: 'overloaded; status 529; request req-3',
      },
    ]);
    expect(ctx.made).toEqual([]);
    const plain: Provider = {
      id: 'sim',
      generate: async () => {
        throw new TypeError('socket');
      },
    };
    const r2: CallRecord[] = [];
    const p2 = simPath(plain, (x) => r2.push(x));
    await expect(p2.forCell(cellCtx())('judge', input('judge'))).rejects.toThrow('socket');
    expect(r2[0]).toMatchObject({ retries: 0, error: 'TypeError: socket' });
    expect(r2[0]).not.toHaveProperty('stopReason');
  });

  it('passes the cell’s signal to the provider', async () => {
    const ac = new AbortController();
    let got: AbortSignal | undefined;
    const provider: Provider = {
      id: 'sim',
      generate: async (_req: ModelRequest, o) => ((got = o?.signal), plainResponse('ok')),
    };
    const path = simPath(provider, () => {});
    await path.forCell({ ...cellCtx(), signal: ac.signal })('receiver', input('answer'));
    expect(got).toBe(ac.signal);
  });
});
