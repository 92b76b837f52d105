import { describe, expect, it } from 'vitest';
import type { ModelRequestInput, ToolCall } from '../../harness/core/index.ts';
import { budgetSpentMessage, isRefusedResult, ranTrailItems } from '../../harness/core/index.ts';
import { applyGuards } from '../../strategies/contract-guards.ts';
import { runSourceLoop } from '../../harness/live/loop.ts';
import { materializeWorld } from '../../harness/live/world.ts';
import { diskAccess } from '../../harness/live/access.ts';
import { createWorldTools } from '../../harness/live/tools.ts';
import { validRecord } from './contract-fixtures.ts';

/**
 * Issue 29 item 8 (the guard's half): a live child that ran into its budget made N calls that ran and
 * one that was refused. The contract's tool-call guard counts the calls that ran — a true N is not
 * "corrected" to N + 1 — and a provenance entry that only a refused call names is not evidence.
 * (coverage.searched is written by the sim's contract filler, harness/providers/sim/contract.ts, which
 * this change does not touch.)
 */
async function exhaustedLoop() {
  const world = materializeWorld(
    {
      files: {
        'adapters/a.ts': "export const V = '2023-10';\n",
        'adapters/b.ts': "export const W = '2024-09';\n",
        'adapters/secret_fallback.ts': "export const F = '2023-10';\n",
      },
    },
    'test',
  );
  const read = (id: string, path: string): ToolCall => ({ id, name: 'read_file', input: { path } });
  // Round 1: two reads (budget 2 spent); round 2: a third read, refused; then the report.
  const rounds: ToolCall[][] = [
    [read('t1', 'adapters/a.ts'), read('t2', 'adapters/b.ts')],
    [read('t3', 'adapters/secret_fallback.ts')],
    [],
  ];
  let i = 0;
  try {
    return await runSourceLoop({
      recorded: { agents: { c: { role: 'child' } }, messages: [{ role: 'user', text: 'Find 2023-10.' }] },
      tools: createWorldTools(diskAccess(world)),
      budget: 2,
      call: async (_r: ModelRequestInput) =>
        ({
          text: i === 2 ? 'a.ts pins 2023-10.' : '',
          toolCalls: rounds[i++] ?? [],
          usage: { inputTokens: 1, outputTokens: 1 },
          stopReason: 'end_turn',
          latencyMs: 1,
        }) as never,
    });
  } finally {
    world.close();
  }
}

describe('the contract guard counts only calls that ran', () => {
  it('recognises the refused result the loop writes, and nothing else', () => {
    expect(isRefusedResult({ content: budgetSpentMessage(12), isError: true })).toBe(true);
    expect(isRefusedResult({ content: budgetSpentMessage(12) })).toBe(false);
    expect(isRefusedResult({ content: 'Error: ENOENT: no such file', isError: true })).toBe(false);
  });

  it('a budget-exhausted child reporting its true count is not corrected; a refused call is no evidence', async () => {
    const loop = await exhaustedLoop();
    expect(loop).toMatchObject({ toolCalls: 2, refused: 1, budgetExhausted: true });
    expect(ranTrailItems(loop.transcript)).toHaveLength(2);
    const record = validRecord();
    record.effort = { tool_calls: loop.toolCalls, budget_exhausted: true };
    record.findings = [
      { claim: 'a.ts pins 2023-10', provenance: ['adapters/a.ts:1'], confidence: 'verified' },
      {
        claim: 'a fallback pins 2023-10',
        provenance: ['adapters/secret_fallback.ts:1'],
        confidence: 'verified',
      },
    ];
    const { result, flags } = applyGuards(record, loop.transcript);
    expect(result.effort.tool_calls).toBe(2);
    expect(flags.filter((f) => f.guard === 'tool-calls-mismatch')).toEqual([]);
    expect(flags.filter((f) => f.guard === 'untraceable-provenance').map((f) => f.claim)).toEqual([
      'a fallback pins 2023-10',
    ]);
  });

  it('a child over-reporting its calls is still corrected to the calls that ran', async () => {
    const loop = await exhaustedLoop();
    const record = validRecord();
    record.effort = { tool_calls: 3, budget_exhausted: true };
    const { result, flags } = applyGuards(record, loop.transcript);
    expect(result.effort.tool_calls).toBe(2);
    expect(flags.find((f) => f.guard === 'tool-calls-mismatch')?.detail).toMatch(
      /reported 3 tool calls; its transcript has 2/,
    );
  });
});
