import { beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ModelRequestInput, ModelResponse, Suite } from '../../harness/core/index.ts';
import { loadSuites } from '../../cases/load.ts';
import { resolveConfig } from '../../harness/config/resolve-config.ts';
import { planCells } from '../../harness/runner/plan.ts';
import { prepareLive } from '../../harness/runner/live-cell.ts';
import { contractNotice } from '../../strategies/structured-contract.ts';
import { repoRoot } from '../support/cli.ts';

/**
 * A live cell before its strategy runs: the contract's child is told from its first turn that it must
 * return the record (the others are told nothing), the case the strategy sees carries the live
 * transcript and only the assertions it made, and the world's directory is gone afterwards.
 */
let suite: Suite;
beforeAll(async () => {
  [suite] = await loadSuites(join(repoRoot, 'test/fixtures/live-cases'), [{ id: 'minilive' }]);
  // Worlds are counted in a temporary directory of this file's own (test files run in parallel).
  process.env.TMPDIR = mkdtempSync(join(tmpdir(), 'handoff-live-cell-'));
});

const reply = (text: string, calls: ModelResponse['toolCalls'] = []): ModelResponse => ({
  text,
  toolCalls: calls,
  stopReason: calls.length ? 'tool_use' : 'end_turn',
  usage: { inputTokens: 100, outputTokens: 20, cacheReadTokens: 0, cacheWriteTokens: 0 },
  latencyMs: 50,
  model: 'm',
  cached: false,
  retries: 0,
  costUsd: 0,
});

function cellsFor(mode: 'live' | 'recorded') {
  return planCells([suite], resolveConfig({ reps: 1 }, { mode }));
}
const worlds = () => readdirSync(tmpdir()).filter((d) => d.startsWith('handoff-world-')).length;

describe('prepareLive', () => {
  it('tells only the contract arm, from its first turn, that it must fill the research_result record', async () => {
    const firsts: Record<string, string> = {};
    for (const cell of cellsFor('live')) {
      const requests: ModelRequestInput[] = [];
      const live = await prepareLive(cell, {}, async (_role, r) => {
        requests.push(r);
        return reply('Findings: m_0007 and m_0013 pin 2023-10.');
      });
      live!.close();
      firsts[cell.arm] = requests[0]!.messages[0]!.text!;
      expect(requests[0]!.purpose).toBe('act');
    }
    expect(firsts['structured-contract']).toContain(contractNotice);
    expect(firsts['structured-contract']).toMatch(/coverage\.not_searched/);
    expect(firsts.inline).not.toMatch(/research_result|not_searched/);
    expect(firsts['full-transcript']).toBe(firsts.inline);
  });

  it('hands the strategy the live transcript and the assertions the live source made; removes the world after', async () => {
    const before = worlds();
    const cell = cellsFor('live').find((c) => c.arm === 'inline')!;
    let n = 0;
    const live = await prepareLive(cell, {}, async () =>
      n++ === 0
        ? reply('Reading the table.', [
            { id: 'q1', name: 'query', input: { sql: 'SELECT * FROM merchant_config' } },
          ])
        : reply('Two merchants pin 2023-10 (m_0007, m_0013), per merchant_config.api_version.'),
    );
    expect(worlds()).toBe(before + 1);
    const c = live!.case;
    expect(c.source.id).toBe('live-1-child-live');
    expect(c.source.messages.at(-1)).toMatchObject({ role: 'assistant', agent: 'child' });
    expect(c.source.messages[2]!.toolResults![0]!.content).toContain('m_0030');
    // Only the confident claim was made; the hedge and the assumption (and their caveats) are gone.
    expect(c.assertions.map((a) => a.id)).toEqual(['a1']);
    expect(c.reference.caveats).toEqual([]);
    expect(live!.fields([])).toMatchObject({
      source_mode: 'live',
      source_tool_calls: 1,
      source_assertions: 1,
      source_assertions_labelled: 3,
      budget_exhausted: false,
      source_loop_turns: 2,
      source_loop_latency_ms: 100,
      orchestration_tool_calls: null,
    });
    live!.close();
    expect(worlds()).toBe(before);
  });

  it('is nothing for a recorded cell, and a failed loop leaves no world behind', async () => {
    const recorded = cellsFor('recorded')[0]!;
    expect(await prepareLive(recorded, {}, async () => reply('x'))).toBeUndefined();
    const before = worlds();
    await expect(
      prepareLive(cellsFor('live')[0]!, {}, async () => {
        throw new Error('provider down');
      }),
    ).rejects.toThrow('provider down');
    expect(worlds()).toBe(before);
    expect(existsSync(tmpdir())).toBe(true);
  });
});
