import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ModelRequestInput, Provider, Transcript, World } from '../../harness/core/index.ts';
import { resolveConfig } from '../../harness/config/resolve-config.ts';
import { materializeWorld } from '../../harness/live/world.ts';
import { diskAccess, type WorldAccess } from '../../harness/live/access.ts';
import { createWorldTools } from '../../harness/live/tools.ts';
import { runSourceLoop } from '../../harness/live/loop.ts';
import { startMockLlmServer, type MockServer } from '../support/mock-llm-server.ts';
import type { MockReply } from '../support/mock-llm-wire.ts';
import { scriptedAgent, toolResultsIn } from '../support/mock-agent.ts';
import { loopbackProvider } from '../support/mock-run.ts';

/**
 * The live source loop through the real SDKs against the loopback mock: several rounds of tool calls,
 * parallel calls in one message, tool errors and an unknown tool returned to the model as error
 * results, and a loop that asks past its budget stopped (its last turn without tools) and recorded.
 */
let mock: MockServer;
let script: MockReply[] = [];
const providers: Provider[] = [];
const worlds: WorldAccess[] = [];

beforeAll(async () => {
  mock = await startMockLlmServer({ capture: true, responder: (b, p) => scriptedAgent(script)(b, p) });
});
afterAll(async () => {
  await Promise.all(providers.map((p) => p.close?.()));
  worlds.forEach((w) => w.close());
  await mock.close();
});
beforeEach(() => mock.resetStats());

const config = resolveConfig({});
const make = {
  anthropic: () => loopbackProvider(mock, 'anthropic', config),
  openai: () => loopbackProvider(mock, 'openai', config),
};

const world: World = {
  files: { 'adapters/checkout.ts': "const FALLBACK_API_VERSION = '2023-10';\n" },
  tables: { merchant_config: { columns: ['merchant_id', 'api_version'], rows: [['m_0007', '2023-10']] } },
};
const recorded: Transcript = {
  agents: { child: { role: 'child' } },
  messages: [
    { role: 'user', agent: 'parent', text: 'Find merchants affected by the 2023-10 retirement.' },
    { role: 'assistant', agent: 'child', text: '(recorded, replaced in live mode)' },
  ],
};

async function loop(name: keyof typeof make, budget: number) {
  const p = await make[name]();
  providers.push(p);
  const access = diskAccess(materializeWorld(world, 'wire test'));
  worlds.push(access);
  let n = 0;
  const call = (r: ModelRequestInput) => p.generate({ ...r, model: 'test-model', seed: `1/c/0/act#${n++}` });
  return runSourceLoop({ recorded, tools: createWorldTools(access), budget, call });
}

describe.each(['anthropic', 'openai'] as const)('the live source loop through the %s SDK', (name) => {
  it('runs several rounds of parallel tool calls; tool errors and an unknown tool go back to the model as error results', async () => {
    script = [
      {
        text: 'Searching and reading together.',
        toolCalls: [
          { name: 'search_code', input: { query: '2023-10' } },
          { name: 'read_file', input: { path: 'adapters/checkout.ts' } },
        ],
      },
      {
        toolCalls: [
          { name: 'read_file', input: { path: '../../etc/passwd' } },
          { name: 'write_file', input: { path: 'x', text: 'y' } },
          { name: 'query', input: { sql: 'DELETE FROM merchant_config' } },
        ],
      },
      {
        toolCall: {
          name: 'query',
          input: { sql: "SELECT merchant_id FROM merchant_config WHERE api_version = '2023-10'" },
        },
      },
    ];
    const out = await loop(name, 12);
    expect(out).toMatchObject({ toolCalls: 6, toolErrors: 3, refused: 0, budgetExhausted: false, turns: 4 });
    const bodies = mock.captured.map((c) => c.body);
    expect(bodies).toHaveLength(4);
    // Round 2 carries both results of round 1's parallel calls, in one turn, each paired with its call.
    const second = toolResultsIn(bodies[1], name);
    expect(second).toHaveLength(2);
    expect(second.every((r) => !r.isError)).toBe(true);
    expect(second[0]!.content).toContain("adapters/checkout.ts:1:const FALLBACK_API_VERSION = '2023-10';");
    expect(second[1]!.content).toBe("     1\tconst FALLBACK_API_VERSION = '2023-10';\n     2\t");
    // Round 3 sees the three failures as error results it can act on.
    const third = toolResultsIn(bodies[2], name).slice(2);
    expect(third.map((r) => r.isError)).toEqual([true, true, true]);
    expect(third[0]!.content).toMatch(/outside the world/);
    expect(third[1]!.content).toMatch(/unknown tool "write_file"; available: search_code, read_file, query/);
    expect(third[2]!.content).toMatch(/only SELECT statements are allowed \(got DELETE\)/);
    expect(toolResultsIn(bodies[3], name).at(-1)!.content).toContain('m_0007');
    // The transcript the strategy will shape: every call paired with its result, the report last.
    const msgs = out.transcript.messages;
    expect(msgs[1]!.toolCalls).toHaveLength(2);
    expect(msgs.at(-1)).toMatchObject({
      role: 'assistant',
      agent: 'child',
      text: expect.stringMatching(/^Final report/),
    });
    expect(out.transcript.messages.some((m) => m.text === '(recorded, replaced in live mode)')).toBe(false);
  });

  it('stops a loop that asks past its budget: the extra call is refused, the last turn has no tools, the row says so', async () => {
    script = [
      {
        toolCalls: [
          { name: 'search_code', input: { query: 'FALLBACK' } },
          { name: 'read_file', input: { path: 'adapters/checkout.ts' } },
        ],
      },
      { toolCall: { name: 'query', input: { sql: 'SELECT * FROM merchant_config' } } },
      { toolCall: { name: 'search_code', input: { query: 'never sent' } } },
    ];
    const out = await loop(name, 2);
    expect(out).toMatchObject({ toolCalls: 2, refused: 1, budgetExhausted: true, turns: 3 });
    const bodies = mock.captured.map((c) => c.body);
    const refused = toolResultsIn(bodies[2], name).at(-1)!;
    expect(refused.isError).toBe(true);
    expect(refused.content).toContain('the tool-call budget of 2 calls is exhausted; this call was not run');
    expect(name === 'anthropic' ? bodies[2].tool_choice : bodies[2].tool_choice).toEqual(
      name === 'anthropic' ? { type: 'none' } : 'none',
    );
    expect(out.transcript.meta).toMatchObject({ budgetExhausted: true, toolCalls: 2 });
  });
});
