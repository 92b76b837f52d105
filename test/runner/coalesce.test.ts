import { afterAll, describe, expect, it } from 'vitest';
import type { CallRecord, ModelRequest, ModelResponse, Provider } from '../../harness/core/index.ts';
import { resolveConfig } from '../../harness/config/resolve-config.ts';
import { createCallPath } from '../../harness/calls/call-path.ts';
import { SqliteCache } from '../../harness/cache/sqlite-cache.ts';
import { tempDir } from '../support/mock-run.ts';

/**
 * Two cells asking the same request at the same time (live mode: the sources of two arms that were
 * told the same) make one provider call and get one response — else each would get its own sample,
 * the cache would keep only the first, and a re-run would see something this run did not.
 */
describe('identical requests in flight', () => {
  const cache = new SqliteCache(tempDir('coalesce'));
  afterAll(() => cache.close());

  it('are one call: the second shares the first response as a cache hit; a failure is not shared', async () => {
    let n = 0;
    let fail = false;
    const provider: Provider = {
      id: 'openai',
      async generate(req: ModelRequest): Promise<ModelResponse> {
        const i = ++n;
        await new Promise((r) => setTimeout(r, 20));
        if (fail) throw new Error('boom');
        return {
          text: `sample ${i} for ${req.seed}`,
          toolCalls: [{ id: `call_${i}`, name: 'search_code', input: { query: 'x' } }],
          stopReason: 'tool_use',
          usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 },
          latencyMs: 20,
          model: req.model,
          cached: false,
          retries: 0,
          costUsd: 0,
        };
      },
    };
    const records: CallRecord[] = [];
    const config = resolveConfig({ provider: 'openai', models: { large: { openai: 'gpt-4o-mini' } } });
    const path = createCallPath({
      config,
      providers: { openai: provider },
      cache,
      runId: 'r',
      onCall: (r) => records.push(r),
    });
    const cell = (arm: string) =>
      path.forCell({
        cellId: `s/c/${arm}/0`,
        caseId: 'c',
        rep: 0,
        aliases: { source: 'large', receiver: 'large' },
        made: [],
      });
    const input = {
      purpose: 'act' as const,
      messages: [{ role: 'user' as const, text: 'brief' }],
      maxTokens: 100,
    };
    const [a, b] = await Promise.all([cell('inline')('source', input), cell('summary')('source', input)]);
    expect(n).toBe(1);
    expect(b.text).toBe(a.text);
    expect(b.toolCalls).toEqual(a.toolCalls);
    expect([a.cached, b.cached]).toEqual([false, true]);
    expect(records.map((r) => r.cached)).toEqual([false, true]);
    // A failed call is not handed to the one waiting on it: that one makes its own.
    fail = true;
    const other = { ...input, messages: [{ role: 'user' as const, text: 'another brief' }] };
    const results = await Promise.allSettled([
      cell('inline')('source', other),
      cell('summary')('source', other),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(n).toBe(3);
  });
});
