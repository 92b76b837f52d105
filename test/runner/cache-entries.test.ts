import { describe, expect, it } from 'vitest';
import type { ModelRequest, ModelResponse } from '../../harness/core/index.ts';
import { storedResponse } from '../../harness/cache/stored-response.ts';
import { requestKeyJson, SqliteCache } from '../../harness/cache/sqlite-cache.ts';
import { tempDir } from '../support/mock-run.ts';

/**
 * What the cache stores and hashes, field by field: an entry is served only when every field a caller
 * reads has its type (anything else is a miss), and the text a key hashes is pinned here character by
 * character — a change to it must bump the key version, not slip through.
 */
const good: ModelResponse = {
  text: 'answer',
  toolCalls: [{ id: 't1', name: 'fetch', input: { q: 1 } }],
  stopReason: 'end_turn',
  usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 2, cacheWriteTokens: 1 },
  latencyMs: 12,
  model: 'm',
  cached: false,
  retries: 0,
  costUsd: 0.5,
  requestId: 'req_1',
};
const entry = (over: Record<string, unknown>) => JSON.stringify({ ...good, ...over });

describe('a stored entry', () => {
  it('is served when every field has its type (requestId may be absent)', () => {
    expect(storedResponse(JSON.stringify(good))).toEqual(good);
    const { requestId: _, ...noId } = good;
    expect(storedResponse(JSON.stringify(noId))).toEqual(noId);
  });

  it.each([
    ['not JSON', '{"text":'],
    ['an array', '[]'],
    ['null', 'null'],
    ['text not a string', entry({ text: 1 })],
    ['stopReason missing', entry({ stopReason: undefined })],
    ['model not a string', entry({ model: null })],
    ['latencyMs negative', entry({ latencyMs: -1 })],
    ['latencyMs a string', entry({ latencyMs: '12' })],
    ['retries missing', entry({ retries: undefined })],
    ['costUsd not finite', entry({ costUsd: '1e999' }).replace('"1e999"', '1e999')],
    ['cached not a boolean', entry({ cached: 'false' })],
    ['requestId a number', entry({ requestId: 7 })],
    ['usage missing', entry({ usage: undefined })],
    ['usage an array', entry({ usage: [1, 2, 3, 4] })],
    ['usage.cacheWriteTokens missing', entry({ usage: { ...good.usage, cacheWriteTokens: undefined } })],
    ['usage.inputTokens negative', entry({ usage: { ...good.usage, inputTokens: -3 } })],
    ['toolCalls not an array', entry({ toolCalls: {} })],
    ['a tool call without an id', entry({ toolCalls: [{ name: 'fetch', input: {} }] })],
    ['a tool call without a name', entry({ toolCalls: [{ id: 't1', input: {} }] })],
    ['a tool call that is not an object', entry({ toolCalls: ['t1'] })],
  ])('is a miss when %s', (_, value) => {
    expect(storedResponse(value)).toBeUndefined();
  });
});

describe('the text a key hashes', () => {
  const request: ModelRequest = {
    model: 'claude-x',
    system: 'sys',
    messages: [
      { role: 'user', text: 'hi' },
      { role: 'assistant', toolCalls: [{ id: 'c1', name: 'grep', input: { b: 2, a: 1 } }] },
      { role: 'user', toolResults: [{ callId: 'c1', content: 'out', isError: true }] },
    ],
    tools: [{ name: 'grep', description: 'd', inputSchema: { type: 'object' } }],
    toolChoice: { type: 'tool', name: 'grep' },
    maxTokens: 100,
    temperature: 0.5,
    seed: 's1',
    purpose: 'answer',
    sim: { quality: 1 },
  } as unknown as ModelRequest;

  it('is every output-changing field in a fixed order, written out here in full', () => {
    expect(requestKeyJson('anthropic', request, 'scope-1')).toBe(
      '["handoff-eval/response-cache/v3","anthropic","scope-1","claude-x","sys",100,0.5,"s1","answer",' +
        '[["user","hi",null,null],' +
        '["assistant",null,[["c1","grep",{"a":1,"b":2}]],null],' +
        '["user",null,null,[["c1","out",true]]]],' +
        '[{"description":"d","inputSchema":{"type":"object"},"name":"grep"}],{"name":"grep","type":"tool"},null]',
    );
  });

  it('leaves out what is absent as null, and carries the case hints for the sim only', () => {
    const bare = { model: 'm', messages: [], maxTokens: 1, seed: 's', purpose: 'judge', sim: { q: 1 } };
    expect(requestKeyJson('sim', bare as unknown as ModelRequest, '')).toBe(
      '["handoff-eval/response-cache/v3","sim","","m",null,1,null,"s","judge",[],null,null,{"q":1}]',
    );
    expect(requestKeyJson('openai', bare as unknown as ModelRequest, '')).toBe(
      '["handoff-eval/response-cache/v3","openai","","m",null,1,null,"s","judge",[],null,null,null]',
    );
    const noHints = { ...bare, sim: undefined };
    expect(requestKeyJson('sim', noHints as unknown as ModelRequest, '')).toMatch(/,null\]$/);
  });

  it('the key is the sha256 of that text, and the scope defaults to none', () => {
    const cache = new SqliteCache(tempDir('key-hash'));
    try {
      const key = cache.keyOf('anthropic', request);
      expect(key).toMatch(/^[0-9a-f]{64}$/);
      expect(key).toBe(cache.keyOf('anthropic', request, ''));
      expect(key).not.toBe(cache.keyOf('anthropic', request, 'other'));
    } finally {
      cache.close();
    }
  });
});
