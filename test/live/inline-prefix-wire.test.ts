import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Case, ModelRequestInput, Provider, Transcript, World } from '../../harness/core/index.ts';
import { resolveConfig } from '../../harness/config/resolve-config.ts';
import { runExperiment } from '../../harness/runner/run.ts';
import { loadSuites } from '../../cases/load.ts';
import { materializeWorld } from '../../harness/live/world.ts';
import { diskAccess, type WorldAccess } from '../../harness/live/access.ts';
import { createWorldTools } from '../../harness/live/tools.ts';
import { runSourceLoop } from '../../harness/live/loop.ts';
import { parentPrefix } from '../../harness/live/inline-prefix.ts';
import { startMockLlmServer, type MockServer } from '../support/mock-llm-server.ts';
import { checkAnthropic, checkOpenAI, type MockReply, type Protocol } from '../support/mock-llm-wire.ts';
import { offersWorldTools, toolResultsIn } from '../support/mock-agent.ts';
import { loopbackProvider, mockEnv, tempDir, testModels } from '../support/mock-run.ts';
import { repoRoot } from '../support/cli.ts';

/**
 * Issue 29 item 7 at the wire: `--live-inline prefix` puts the parent's window before the research
 * brief, through the real `@anthropic-ai/sdk` and `openai` clients against the loopback mock. Every
 * request must be one the APIs accept: Anthropic wants strictly alternating user/assistant turns (the
 * adapter merges runs into one turn, tool_result blocks first); the OpenAI adapter sends one user
 * message for a run of user text (strict OpenAI-compatible servers — vLLM/llama.cpp chat templates —
 * answer 400 "Conversation roles must alternate" to two in a row). The parent's prefix comes before
 * the brief, and every call of the research is answered in the very next turn. A 400 on one prefix
 * request makes that cell an error row with the reason; the other cells run.
 */
let mock: MockServer;
let responder: (body: any, protocol: Protocol) => MockReply | undefined = () => undefined;
let faultOnce: ((body: any) => boolean) | undefined;
const providers: Provider[] = [];
const worlds: WorldAccess[] = [];

beforeAll(async () => {
  mock = await startMockLlmServer({
    capture: true,
    responder: (b, p) => responder(b, p),
    faults: ({ body }) => {
      if (!faultOnce?.(body)) return undefined;
      faultOnce = undefined;
      return {
        type: 'status',
        status: 400,
        errorType: 'invalid_request_error',
        message: 'prefix rejected by the test server',
      };
    },
  });
});
afterAll(async () => {
  await Promise.all(providers.map((p) => p.close?.()));
  worlds.forEach((w) => w.close());
  await mock.close();
});
beforeEach(() => {
  mock.resetStats();
  mock.captured.length = 0;
  faultOnce = undefined;
});

/** Each message's role and its texts, in order, whichever wire format. */
function turns(body: any, protocol: Protocol): { role: string; texts: string[] }[] {
  return body.messages.map((m: any) => ({
    role: m.role,
    texts:
      protocol === 'openai' || typeof m.content === 'string'
        ? [m.content ?? ''].filter(Boolean)
        : m.content.filter((b: any) => b.type === 'text').map((b: any) => b.text),
  }));
}

/**
 * Role alternation as the strictest server of each protocol requires it: Anthropic, user and assistant
 * strictly alternating from a user turn; Chat Completions, no two user (or two assistant) messages in a
 * row — `tool` messages answer the assistant message before them, system lines are notes.
 */
function alternationProblems(body: any, protocol: Protocol): string[] {
  const roles: string[] = body.messages
    .map((m: any) => m.role)
    .filter((r: string) => r === 'user' || r === 'assistant' || (protocol === 'openai' && r === 'tool'));
  const out: string[] = [];
  if (roles[0] !== 'user') out.push(`first turn is ${roles[0]}`);
  roles.forEach((r, i) => {
    if (i > 0 && r !== 'tool' && r === roles[i - 1]) out.push(`turns ${i - 1} and ${i} are both ${r}`);
  });
  return out;
}

const wireProblem = (body: any, protocol: Protocol) =>
  protocol === 'anthropic' ? checkAnthropic(body) : checkOpenAI(body);

/** The research round of a request: assistant turns after the one holding the brief. */
function researchRound(body: any, protocol: Protocol, brief: string): number {
  const t = turns(body, protocol);
  const at = t.findIndex((m) => m.texts.some((x) => x.includes(brief)));
  return at < 0 ? -1 : t.slice(at + 1).filter((m) => m.role === 'assistant').length;
}

const config = resolveConfig({});
const make = {
  anthropic: () => loopbackProvider(mock, 'anthropic', config),
  openai: () => loopbackProvider(mock, 'openai', config),
};

describe.each(['anthropic', 'openai'] as const)('a prefix that ends in a user turn, through %s', (name) => {
  // The parent's last act was a bare spawn call: without it, its window ends in two user turns (a tool
  // result, then the user's follow-up), and the research brief is a third.
  const world: World = { files: { 'adapters/checkout.ts': "const FALLBACK_API_VERSION = '2023-10';\n" } };
  const brief = 'BRIEF: find every adapter that still pins 2023-10.';
  const c: Pick<Case, 'receiverHistory'> = {
    receiverHistory: {
      agents: { parent: { role: 'parent' } },
      messages: [
        { role: 'user', agent: 'user', text: 'PARENT-1: plan the 2023-10 retirement.' },
        {
          role: 'assistant',
          agent: 'parent',
          text: 'Reading the checkout adapter first.',
          toolCalls: [{ id: 'p_read', name: 'read_file', input: { path: 'adapters/checkout.ts' } }],
        },
        { role: 'user', agent: 'parent', toolResults: [{ callId: 'p_read', content: 'FALLBACK 2023-10' }] },
        { role: 'user', agent: 'user', text: 'PARENT-2: and the other adapters?' },
        {
          role: 'assistant',
          agent: 'parent',
          toolCalls: [{ id: 'p_spawn', name: 'spawn_agent', input: { task: brief } }],
        },
      ],
    },
  };
  const recorded: Transcript = {
    agents: { child: { role: 'child' } },
    messages: [
      { role: 'user', agent: 'parent', text: brief },
      { role: 'assistant', agent: 'child', text: '(recorded, replaced in live mode)' },
    ],
  };

  it('sends alternating turns with the parent window, then the brief, and pairs the research calls', async () => {
    const prefix = parentPrefix(c);
    expect(prefix.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'user']);
    const script: MockReply[] = [
      { toolCalls: [{ name: 'search_code', input: { query: '2023-10' } }] },
      { toolCall: { name: 'read_file', input: { path: 'adapters/checkout.ts' } } },
    ];
    responder = (body, protocol) => {
      if (!offersWorldTools(body, protocol)) return undefined;
      const round = researchRound(body, protocol, brief);
      return round >= 0 && round < script.length ? script[round] : { text: 'Final report.' };
    };
    const p = await make[name]();
    providers.push(p);
    const access = diskAccess(materializeWorld(world, 'prefix wire test'));
    worlds.push(access);
    let n = 0;
    const call = (r: ModelRequestInput) =>
      p.generate({ ...r, model: 'test-model', seed: `1/c/0/act#${n++}` });
    const out = await runSourceLoop({ recorded, tools: createWorldTools(access), budget: 6, call, prefix });
    expect(out).toMatchObject({ toolCalls: 2, toolErrors: 0, turns: 3 });
    const bodies = mock.captured.map((x) => x.body);
    expect(bodies).toHaveLength(3);
    for (const body of bodies) {
      expect(wireProblem(body, name)).toBeUndefined();
      expect(alternationProblems(body, name)).toEqual([]);
      // The parent's window, in order, then the brief — in one user turn with the parent's follow-up.
      const texts = turns(body, name).flatMap((m) => m.texts);
      const order = ['PARENT-1', 'Reading the checkout adapter', 'PARENT-2', 'BRIEF:'].map((s) =>
        texts.findIndex((x) => x.includes(s)),
      );
      expect(order.every((i) => i >= 0)).toBe(true);
      expect([...order].sort((a, b) => a - b)).toEqual(order);
      const briefTurn = turns(body, name).find((m) => m.texts.some((x) => x.includes('BRIEF:')))!;
      expect(briefTurn.role).toBe('user');
      expect(briefTurn.texts.join('\n')).toContain('PARENT-2');
      // The parent's own call keeps its result.
      expect(toolResultsIn(body, name)[0]).toMatchObject({ content: 'FALLBACK 2023-10', isError: false });
    }
    // Research round 2 carries round 1's result, round 3 both, each after its call.
    expect(toolResultsIn(bodies[1], name)).toHaveLength(2);
    expect(toolResultsIn(bodies[2], name)).toHaveLength(3);
    expect(toolResultsIn(bodies[2], name)[2]!.content).toContain('FALLBACK_API_VERSION');
  });
});

describe.each(['anthropic', 'openai'] as const)('run --mode live --live-inline prefix through %s', (name) => {
  it("sends ledgerline's parent window before the brief in valid requests; a 400 on one is that cell's error row", async () => {
    const [suite] = await loadSuites(join(repoRoot, 'cases'), [{ id: 'ledgerline' }]);
    const c = suite!.cases.find((x) => x.id === 'ledgerline-01')!;
    const prefix = parentPrefix(c);
    const parentFirst = prefix[0]!.text!.slice(0, 60);
    const parentLast = prefix.at(-1)!.text!.slice(0, 60);
    const brief = c.source.messages[0]!.text!.slice(0, 60);
    const isPrefixed = (body: any) =>
      offersWorldTools(body, name) &&
      turns(body, name)
        .find((m) => m.role === 'user')!
        .texts.some((x) => x.startsWith(parentFirst)) &&
      researchRound(body, name, brief) >= 0; // a research request (the receiver's has no brief)
    const script: MockReply[] = [
      {
        toolCalls: [
          { name: 'query', input: { sql: 'SELECT count(*) AS n FROM merchant_config' } },
          { name: 'search_code', input: { query: '2023-10' } },
        ],
      },
      { toolCall: { name: 'read_file', input: { path: '../../etc/passwd' } } },
    ];
    responder = (body, protocol) => {
      if (!offersWorldTools(body, protocol)) return undefined;
      const round = researchRound(body, protocol, brief);
      return round >= 0 && round < script.length ? script[round] : { text: 'Final report: m_0007.' };
    };
    faultOnce = isPrefixed;
    const old = { ...process.env };
    Object.assign(process.env, mockEnv(mock));
    let rows;
    try {
      const cfg = resolveConfig(
        {
          reps: 2,
          seed: 3,
          provider: name,
          models: testModels,
          cache: false,
          liveInline: 'prefix',
          outDir: join(tempDir('prefix-wire'), 'runs'),
          suites: [{ id: 'ledgerline', arms: ['inline', 'final-message'] }],
        },
        { quiet: true, mode: 'live', case: ['ledgerline-01'] },
      );
      rows = (await runExperiment({ config: cfg })).rows;
    } finally {
      process.env = old;
    }
    // The run goes on: one inline cell is an error row with the server's reason, the rest are ok.
    expect(rows).toHaveLength(4);
    const failed = rows.filter((r) => r.status === 'error');
    expect(failed).toHaveLength(1);
    expect(failed[0]!.arm).toBe('inline');
    expect(failed[0]!.error).toMatch(/400/);
    expect(failed[0]!.error).toMatch(/prefix rejected by the test server/);
    expect(
      rows
        .filter((r) => r.status === 'ok')
        .map((r) => r.arm)
        .sort(),
    ).toEqual(['final-message', 'final-message', 'inline'].sort());
    const ok = rows.find((r) => r.arm === 'inline' && r.status === 'ok')!;
    expect(ok).toMatchObject({ source_mode: 'live', source_tool_calls: 3, source_tool_errors: 1 });

    // Every prefixed request the server answered: valid, alternating, parent window before the brief.
    const prefixed = mock.captured.filter((x) => isPrefixed(x.body)).map((x) => x.body);
    expect(prefixed).toHaveLength(4); // the refused one, then the other cell's three rounds
    for (const body of prefixed.slice(1)) {
      expect(wireProblem(body, name)).toBeUndefined();
      expect(alternationProblems(body, name)).toEqual([]);
      const texts = turns(body, name).flatMap((m) => m.texts);
      const last = texts.findIndex((x) => x.startsWith(parentLast));
      const at = texts.findIndex((x) => x.includes(brief));
      expect(last).toBeGreaterThan(0);
      expect(at).toBeGreaterThan(last);
      // All the parent's tool results are still there, each answering its call.
      const parentResults = prefix.flatMap((m) => m.toolResults ?? []).length;
      expect(toolResultsIn(body, name).length).toBeGreaterThanOrEqual(parentResults);
    }
    const [r1, r2, r3] = prefixed.slice(1).map((b) => toolResultsIn(b, name).length);
    const parentResults = prefix.flatMap((m) => m.toolResults ?? []).length;
    expect([r1, r2, r3]).toEqual([parentResults, parentResults + 2, parentResults + 3]);
    // Other arms' research starts at the brief, without the parent's window.
    const plain = mock.captured.filter((x) => researchRound(x.body, name, brief) >= 0 && !isPrefixed(x.body));
    expect(plain.length).toBeGreaterThan(0);
    for (const x of plain)
      expect(
        turns(x.body, name)
          .find((m) => m.role === 'user')!
          .texts.join('\n'),
      ).toContain(brief);
  }, 180_000);
});
