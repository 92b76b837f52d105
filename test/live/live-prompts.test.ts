import { beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { ModelRequestInput, Suite } from '../../harness/core/index.ts';
import { loadSuites } from '../../cases/load.ts';
import { resolveConfig } from '../../harness/config/resolve-config.ts';
import { planCells } from '../../harness/runner/plan.ts';
import { liveSystemPrompt, runSourceLoop } from '../../harness/live/loop.ts';
import { materializeWorld } from '../../harness/live/world.ts';
import { diskAccess } from '../../harness/live/access.ts';
import { createWorldTools } from '../../harness/live/tools.ts';
import { repoRoot } from '../support/cli.ts';

/**
 * Issue 29 item 3: the live loop's system prompt and its "what you could not determine" reminder
 * are parameters — for every suite (`livePrompts`), a suite (`suites[i].livePrompts`) or one arm of
 * it (`suites[i].livePrompts.arms.<arm>`) — and reach the source's model calls. Without any, the
 * built-in prompt is sent byte for byte as before (cached responses and the sim's draws stay valid).
 */
const builtIn = [
  'You are a research agent working in a read-only copy of a repository and its data, through the tools you are given.',
  'Investigate what your task asks. You can make at most 7 tool calls in total; calls past that are refused.',
  'When you have what you need, reply with your final report and no tool call: each finding with its source (file:line or table.column), what you could not determine, and what you had to assume.',
].join('\n');

describe('liveSystemPrompt', () => {
  it('is the built-in prompt without parameters', () => {
    expect(liveSystemPrompt(7)).toBe(builtIn);
    expect(liveSystemPrompt(7, {})).toBe(builtIn);
  });

  it('reminder false drops the caveat clause; a sentence replaces it; system replaces the prompt', () => {
    const none = liveSystemPrompt(7, { reminder: false });
    expect(none).not.toMatch(/could not determine|assume/);
    expect(none.endsWith('each finding with its source (file:line or table.column).')).toBe(true);
    expect(liveSystemPrompt(7, { reminder: 'List your open questions last.' })).toBe(
      `${none}\nList your open questions last.`,
    );
    expect(liveSystemPrompt(9, { system: 'Dig. At most {budget} calls.' })).toBe('Dig. At most 9 calls.');
    expect(liveSystemPrompt(9, { system: 'Dig.', reminder: 'Say what you could not find.' })).toBe(
      'Dig.\nSay what you could not find.',
    );
  });
});

let ledgerline: Suite;
beforeAll(async () => {
  [ledgerline] = await loadSuites(join(repoRoot, 'cases'), [{ id: 'ledgerline' }]);
});

const promptsPerArm = (user: object) => {
  const cells = planCells([ledgerline], resolveConfig({ reps: 1, mode: 'live', ...user }));
  return Object.fromEntries(
    ledgerline.arms.map((a) => [a.name, cells.find((c) => c.arm === a.name)!.live!.prompts ?? null]),
  );
};

describe('livePrompts in the config', () => {
  it('layers arm over suite over config, field by field', () => {
    const byArm = promptsPerArm({
      livePrompts: { system: 'Global {budget}.' },
      suites: [
        {
          id: 'ledgerline',
          livePrompts: { reminder: false, arms: { 'final-message': { reminder: 'Caveats last.' } } },
        },
      ],
    });
    expect(byArm['final-message']).toEqual({ system: 'Global {budget}.', reminder: 'Caveats last.' });
    expect(byArm.summary).toEqual({ system: 'Global {budget}.', reminder: false });
    expect(promptsPerArm({}).summary).toBeNull();
  });

  it.each([
    [{ livePrompts: { system: '' } }, 'livePrompts.system', /non-empty string/],
    [{ livePrompts: { reminder: true } }, 'livePrompts.reminder', /or false for no reminder/],
    [{ livePrompts: { arms: {} } }, 'livePrompts.arms', /unknown field/],
    [{ livePrompts: 'be brief' }, 'livePrompts', /must be an object/],
    [
      { suites: [{ id: 'ledgerline', livePrompts: { arms: { inline: { system: 3 } } } }] },
      'suites[0].livePrompts.arms.inline.system',
      /non-empty string/,
    ],
    [
      { suites: [{ id: 'ledgerline', livePrompts: { arms: { inline: { notice: 'x' } } } }] },
      'suites[0].livePrompts.arms.inline.notice',
      /unknown field/,
    ],
  ])('rejects %j naming %s', (user, field, detail) => {
    expect(() => resolveConfig(user as never, {}, 'eval.config.ts')).toThrow(
      expect.objectContaining({ file: 'eval.config.ts', field, message: expect.stringMatching(detail) }),
    );
  });
});

describe('the source loop sends them', () => {
  it("the first and every later request's system prompt is the configured one", async () => {
    const world = materializeWorld({ files: { 'a.ts': 'export const A = 1;\n' } }, 'test');
    try {
      const systems: (string | undefined)[] = [];
      let round = 0;
      await runSourceLoop({
        recorded: { agents: { c: { role: 'child' } }, messages: [{ role: 'user', text: 'Find A.' }] },
        tools: createWorldTools(diskAccess(world)),
        budget: 3,
        prompts: { reminder: false },
        call: async (r: ModelRequestInput) => {
          systems.push(r.system as string | undefined);
          round++;
          return {
            text: round === 1 ? '' : 'A is 1 (a.ts:1).',
            toolCalls: round === 1 ? [{ id: 't1', name: 'read_file', input: { path: 'a.ts' } }] : [],
            usage: { inputTokens: 1, outputTokens: 1 },
            stopReason: round === 1 ? 'tool_use' : 'end_turn',
            latencyMs: 1,
          } as never;
        },
      });
      expect(systems).toEqual([
        liveSystemPrompt(3, { reminder: false }),
        liveSystemPrompt(3, { reminder: false }),
      ]);
      expect(systems[0]).not.toMatch(/could not determine/);
    } finally {
      world.close();
    }
  });
});
