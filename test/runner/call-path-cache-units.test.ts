import { describe, expect, it } from 'vitest';
import type { CallRecord, ModelResponse, Provider } from '../../harness/core/index.ts';
import type { ResponseCache } from '../../harness/cache/types.ts';
import { memoryCache } from '../support/memory-cache.ts';
import { resolveConfig } from '../../harness/config/resolve-config.ts';
import { createCallPath } from '../../harness/calls/call-path.ts';
import { plainResponse } from '../support/model-response.ts';

/**
 * The call path's cache and in-flight sharing in process (issue 32 item 2), with a cache in memory
 * so every lookup and store shows: what a hit returns and costs today, which answers are never
 * stored or served, the provider's cache scope, and an in-flight entry that ends with its call.
 */
/** A provider answering from a list (the last repeats), counting its calls, each after a turn. */
function scripted(answers: Partial<ModelResponse>[], extra: Partial<Provider> = {}) {
  let n = 0;
  const provider: Provider = {
    id: 'openai',
    ...extra,
    generate: async (req) => {
      const a = answers[Math.min(n++, answers.length - 1)]!;
      await new Promise((r) => setImmediate(r));
      return {
        ...plainResponse('ok'),
        model: req.model,
        usage: { inputTokens: 1000, outputTokens: 100, cacheReadTokens: 0, cacheWriteTokens: 0 },
        ...a,
      };
    },
  };
  return { provider, calls: () => n };
}

const config = resolveConfig(
  {
    cache: false,
    provider: 'openai',
    models: { large: { openai: 'my-model' }, small: { openai: 'my-model' }, judge: { openai: 'my-model' } },
    prices: { 'my-model': { input: 2, output: 10 } },
  },
  {},
  'eval.config.ts',
);

function path(provider: Provider, cache: ResponseCache | null) {
  const records: CallRecord[] = [];
  const p = createCallPath({
    config,
    providers: { openai: provider },
    cache,
    runId: 'r',
    onCall: (r) => records.push(r),
  });
  const call = (text = 'q') =>
    p.forCell({
      cellId: 'c/1',
      caseId: 'c',
      rep: 0,
      aliases: { source: 'large', receiver: 'small' },
      made: [],
    })('receiver', { purpose: 'answer', messages: [{ role: 'user', text }], maxTokens: 16 });
  return { call, records };
}

describe('the call path with a cache', () => {
  it('a hit is the stored answer, marked cached, with no retries, priced by today’s table from its usage', async () => {
    const { cache, m } = memoryCache();
    const s = scripted([{ text: 'first', costUsd: 0.5, retries: 2 }]);
    const { call, records } = path(s.provider, cache);
    const fresh = await call();
    expect(fresh).toMatchObject({ text: 'first', cached: false, retries: 2, costUsd: 0.5 });
    expect(m.size).toBe(1);
    const hit = await call();
    expect(s.calls()).toBe(1);
    // 1000 input and 100 output tokens at $2 and $10 per million.
    expect(hit).toMatchObject({ text: 'first', cached: true, retries: 0, costUsd: 0.003 });
    expect(records.map((r) => [r.cached, r.retries, r.costUsd])).toEqual([
      [false, 2, 0.5],
      [true, 0, 0.003],
    ]);
  });

  it('an answer the provider did not price is priced from its usage before it is stored', async () => {
    const { cache } = memoryCache();
    const s = scripted([{ text: 'x', costUsd: 0 }]);
    expect((await path(s.provider, cache).call()).costUsd).toBe(0.003);
  });

  it('never stores an empty answer, a refusal or a content-filter stop, and asks again next time', async () => {
    for (const bad of [
      { text: '  ' },
      { text: 'I will not.', stopReason: 'refusal' },
      { text: 'cut', stopReason: 'content_filter' },
    ]) {
      const { cache, m } = memoryCache();
      const s = scripted([bad, { text: 'usable' }]);
      const { call } = path(s.provider, cache);
      expect((await call()).text).toBe(bad.text);
      expect(m.size).toBe(0);
      expect(await call()).toMatchObject({ text: 'usable', cached: false });
      expect(s.calls()).toBe(2);
      expect(m.size).toBe(1);
    }
  });

  it('an unusable answer already in the cache (an older harness stored it) is not served', async () => {
    const { cache, m } = memoryCache();
    const s = scripted([{ text: 'fresh' }]);
    const { call } = path(s.provider, cache);
    await call();
    const key = [...m.keys()][0]!;
    m.set(key, { ...m.get(key)!, text: '', toolCalls: [] });
    expect(await call()).toMatchObject({ text: 'fresh', cached: false });
    expect(s.calls()).toBe(2);
  });

  it('the provider’s cache scope goes into the key: a string as it is, a function of the model id', async () => {
    const str = memoryCache();
    await path(scripted([{}], { cacheScope: 'https://a.example/v1' }).provider, str.cache).call();
    expect(str.scopes).toEqual(['https://a.example/v1']);
    const fn = memoryCache();
    await path(scripted([{}], { cacheScope: (model) => `scope-of-${model}` }).provider, fn.cache).call();
    expect(fn.scopes).toEqual(['scope-of-my-model']);
  });

  it('an identical request in flight is shared; once its call has ended, the next one is asked anew', async () => {
    // A cache that stores nothing: only the in-flight entry can share an answer.
    const { cache } = memoryCache({ stores: false });
    const s = scripted([{ text: 'one' }, { text: 'two' }, { text: 'three' }]);
    const { call, records } = path(s.provider, cache);
    const [a, b] = await Promise.all([call(), call()]);
    expect([a.text, b.text, a.cached, b.cached]).toEqual(['one', 'one', false, true]);
    expect(s.calls()).toBe(1);
    expect((await call()).text).toBe('two');
    expect(s.calls()).toBe(2);
    expect(records.map((r) => r.cached)).toEqual([false, true, false]);
  });

  it('an unusable answer in flight is not shared: the one waiting asks again', async () => {
    const { cache } = memoryCache();
    const s = scripted([{ text: '' }, { text: 'usable' }]);
    const { call } = path(s.provider, cache);
    const [a, b] = await Promise.all([call(), call()]);
    expect([a.text, b.text, b.cached]).toEqual(['', 'usable', false]);
    expect(s.calls()).toBe(2);
  });

  it('without a cache nothing is keyed or shared: identical requests each reach the provider', async () => {
    const s = scripted([{ text: 'one' }, { text: 'two' }]);
    const { call, records } = path(s.provider, null);
    const [a, b] = await Promise.all([call(), call()]);
    expect([a.text, b.text]).toEqual(['one', 'two']);
    expect(records.map((r) => r.cached)).toEqual([false, false]);
  });
});
