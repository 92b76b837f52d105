import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveConfig } from '../../harness/config/resolve-config.ts';
import { defineSource, type ResolvedSource } from '../../harness/config/sources.ts';
import { runOwnSourceLoop } from '../../harness/live/own-source-loop.ts';
import type { Transcript } from '../../harness/core/index.ts';

/**
 * `sources` in eval.config.ts is checked at load, every field named with the file; `--source` must
 * name one. An in-process source (defineSource) runs like a command: its session is imported, a
 * throw or a timeout is a source_failed error.
 */
const file = '/proj/eval.config.ts';
const load = (sources: unknown, source?: string) =>
  resolveConfig({ sources } as never, source ? { source } : {}, file);

describe('sources in the config', () => {
  it('resolves a command with its defaults, the cwd relative to the config file', () => {
    const c = load({ mine: { command: ['node', 'agent.mjs', '{out}'] } }, 'mine');
    expect(c.source).toBe('mine');
    expect(c.sources.mine).toMatchObject({
      kind: 'command',
      command: ['node', 'agent.mjs', '{out}'],
      format: 'auto',
      timeoutMs: 600_000,
      version: '0',
      env: {},
      cwd: '/proj',
    });
  });

  it.each([
    [{ mine: { command: 'node agent.mjs {out}' } }, 'sources.mine.command', /non-empty array of strings/],
    [{ mine: { command: [] } }, 'sources.mine.command', /non-empty array/],
    [{ mine: { command: ['node', 'agent.mjs'] } }, 'sources.mine.command', /must pass \{out\}/],
    [
      { mine: { command: ['node', '{out}'], format: 'jsonl' } },
      'sources.mine.format',
      /'auto' or an importer: claude-code, openai/,
    ],
    [{ mine: { command: ['node', '{out}'], timeoutMs: 0 } }, 'sources.mine.timeoutMs', /positive integer/],
    [{ mine: { command: ['node', '{out}'], env: { KEY: 3 } } }, 'sources.mine.env.KEY', /string, or true/],
    [
      { mine: { command: ['node', '{out}'], env: { 'BAD-NAME': 'x' } } },
      'sources.mine.env.BAD-NAME',
      /variable name/,
    ],
    [{ mine: { command: ['node', '{out}'], version: 2 } }, 'sources.mine.version', /non-empty string/],
    [{ mine: { command: ['node', '{out}'], shell: true } }, 'sources.mine.shell', /unknown field/],
    [
      { mine: { command: ['node', 'a.mjs', '{wrold}', '{out}'] } },
      'sources.mine.command[2]',
      /unknown placeholder \{wrold\}; valid: \{world\}, \{brief\}, \{out\}, \{budget\}/,
    ],
    [
      { mine: { command: ['node', '--out={Out}', '{out}'] } },
      'sources.mine.command[1]',
      /unknown placeholder \{Out\}/,
    ],
    [{ mine: { run: 'x' } }, 'sources.mine.run', /must be a function/],
    [{ mine: 'node agent.mjs' }, 'sources.mine', /must be \{ command/],
    [['node'], 'sources', /must be an object/],
  ])('rejects %j naming %s', (sources, field, detail) => {
    expect(() => load(sources)).toThrow(
      expect.objectContaining({ file, field, message: expect.stringMatching(detail) }),
    );
  });

  it('--source must name a source of the config', () => {
    expect(() => load({ mine: { command: ['a', '{out}'] } }, 'other')).toThrow(
      expect.objectContaining({
        field: '--source',
        message: expect.stringMatching(/unknown source "other"; valid: mine/),
      }),
    );
    expect(() => load(undefined, 'mine')).toThrow(/the config defines no `sources`/);
  });
});

describe('defineSource: an in-process source', () => {
  const recorded: Transcript = {
    agents: { child: { role: 'child' } },
    messages: [{ role: 'user', agent: 'child', text: 'Find what breaks.' }],
  };
  const session = (brief: string) => [
    { role: 'user', content: brief },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'c1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.ts"}' } },
      ],
    },
    { role: 'tool', tool_call_id: 'c1', content: 'Error: no such file' },
    { role: 'assistant', content: 'Report: nothing found; I could not determine a.ts.' },
  ];
  const resolved = (spec: ReturnType<typeof defineSource>): ResolvedSource => ({
    kind: 'function',
    run: spec.run,
    name: 'fn',
    format: spec.format ?? 'auto',
    timeoutMs: spec.timeoutMs ?? 5_000,
    version: spec.version ?? '0',
  });
  const run = (spec: ReturnType<typeof defineSource>, notice?: string) => {
    const world = mkdtempSync(join(tmpdir(), 'own-src-world-'));
    return runOwnSourceLoop({
      recorded,
      notice,
      source: resolved(spec),
      budget: 1,
      worldRoot: world,
      worldKey: { files: {} },
      cacheDir: null,
      where: 'case t',
    }).finally(() => rmSync(world, { recursive: true, force: true }));
  };

  it('gets the brief (with the arm notice) and the world; its returned session is the live transcript', async () => {
    let seen: { brief: string; world: string } | undefined;
    const loop = await run(
      defineSource(({ brief, world }) => {
        seen = { brief, world };
        return session(brief);
      }),
      'Return a record.',
    );
    expect(seen!.brief).toBe('Find what breaks.\n\nReturn a record.');
    expect(seen!.world).toMatch(/own-src-world-/);
    // OpenAI messages carry no error flag on a tool result: errors are counted only where the format marks them.
    expect(loop).toMatchObject({ toolCalls: 1, toolErrors: 0, turns: 2, refused: 0, budgetExhausted: false });
    const last = loop.transcript.messages.at(-1)!;
    expect(last).toMatchObject({
      role: 'assistant',
      agent: 'child',
      text: expect.stringContaining('could not determine'),
    });
    // The brief is the case's, once (the session's own copy of it is not repeated).
    expect(loop.transcript.messages.filter((m) => m.role === 'user' && m.text)).toHaveLength(1);
  });

  it('more calls than the budget mark the budget exhausted (an own agent cannot be refused)', async () => {
    const twice = (brief: string) => [...session(brief).slice(0, 3), ...session(brief).slice(1)];
    const loop = await run(defineSource(({ brief }) => twice(brief)));
    expect(loop).toMatchObject({ toolCalls: 2, budgetExhausted: true, refused: 0 });
  });

  it('a throw, a timeout or a session without an answer is a source_failed error', async () => {
    await expect(
      run(
        defineSource(() => {
          throw new Error('no key');
        }),
      ),
    ).rejects.toMatchObject({
      code: 'source_failed',
      message: expect.stringContaining('source "fn" (case t): threw Error: no key'),
    });
    await expect(
      run(
        defineSource(({ signal }) => new Promise((r) => signal.addEventListener('abort', r)), {
          timeoutMs: 50,
        }),
      ),
    ).rejects.toMatchObject({
      code: 'source_failed',
      message: expect.stringContaining('timed out after 50 ms'),
    });
    await expect(run(defineSource(({ brief }) => [{ role: 'user', content: brief }]))).rejects.toMatchObject({
      code: 'source_failed',
      message: expect.stringContaining('holds no assistant message'),
    });
    await expect(run(defineSource(() => undefined))).rejects.toMatchObject({
      message: expect.stringContaining('wrote nothing to {out}'),
    });
  });
});
