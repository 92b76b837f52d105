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
import { scriptedClassifier, type ReaderLog, type Wordings } from '../support/scripted-reader.ts';

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

// Issue 26: what the live source made, and where, is read by the classifier (here a scripted one that
// reads hand-written wordings), never cut or placed by a cue match.
const wordings: Wordings = {
  a1: {
    said: ['two merchants pin 2023-10', 'two merchants are on 2023-10', 'm_0007 and m_0013 pin 2023-10'],
  },
  a2: {
    said: ['sandbox adapter uses the same version pin', 'sandbox code sends the same version'],
    hedge: ['could not determine', "can't tell"],
  },
  a3: {
    said: ['api_version column is authoritative', 'merchant_config.api_version as the source of truth'],
    hedge: ['assuming', "i've taken"],
  },
};
describe('prepareLive', () => {
  it('tells only the contract arm, from its first turn, that it must fill the research_result record', async () => {
    const firsts: Record<string, string> = {};
    for (const cell of cellsFor('live')) {
      const requests: ModelRequestInput[] = [];
      const classify = scriptedClassifier(wordings);
      const live = await prepareLive(cell, {}, async (role, r) => {
        if (role === 'judge') return classify(r);
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
    const classify = scriptedClassifier(wordings);
    const live = await prepareLive(cell, {}, async (role, r) =>
      role === 'judge'
        ? classify(r)
        : n++ === 0
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

  const query = { id: 'q1', name: 'query', input: { sql: 'SELECT * FROM merchant_config' } };
  async function liveWith(turns: ModelResponse[], log: ReaderLog[] = []) {
    const cell = cellsFor('live').find((c) => c.arm === 'inline')!;
    let n = 0;
    const classify = scriptedClassifier(wordings, log);
    return prepareLive(cell, {}, async (role, r) => (role === 'judge' ? classify(r) : turns[n++]!));
  }

  it('a report in its own words loses no claim: the classifier reads every labelled claim (cues find none)', async () => {
    const log: ReaderLog[] = [];
    const live = await liveWith(
      [
        reply('Reading the table.', [query]),
        reply(
          [
            'Two merchants are on 2023-10:',
            '- m_0007',
            '- m_0013',
            "Whether the sandbox code sends the same version I can't tell.",
            "I've taken merchant_config.api_version as the source of truth (nothing overrides it per request).",
          ].join('\n'),
        ),
      ],
      log,
    );
    expect(live!.case.assertions.map((a) => [a.id, a.location])).toEqual([
      ['a1', 'final_message'],
      ['a2', 'final_message'],
      ['a3', 'final_message'],
    ]);
    expect(live!.case.reference.caveats).toEqual(['a2', 'a3']);
    expect(live!.reading!.claims.map((x) => [x.assertionId, x.mark, x.cues])).toEqual([
      ['a1', 'kept', 'not_made'],
      ['a2', 'kept', 'not_made'],
      ['a3', 'kept', 'not_made'],
    ]);
    expect(live!.reading!.disagreement).toBe(1);
    // Every section that has text was read, each for every labelled claim (no mid-transcript text here).
    expect(log.map((l) => [l.section, l.ids])).toEqual([
      ["the source agent's final message (its report)", ['a1', 'a2', 'a3']],
      ["the source agent's other messages, written between its tool calls", ['a1', 'a2', 'a3']],
      ["what the source agent's tool calls returned to it (not the agent's own words)", ['a1', 'a2', 'a3']],
    ]);
    expect(live!.fields([])).toMatchObject({ source_assertions: 3, source_assertions_labelled: 3 });
    live!.close();
  });

  it('a claim said only between tool calls is located mid-transcript; one never made is cut, its caveat with it', async () => {
    const live = await liveWith([
      reply('Assuming the api_version column is authoritative and not overridden per request; reading it.', [
        query,
      ]),
      reply('Two merchants pin 2023-10 (m_0007, m_0013), per merchant_config.api_version.'),
    ]);
    expect(live!.case.assertions.map((a) => [a.id, a.location])).toEqual([
      ['a1', 'final_message'],
      ['a3', 'mid_transcript'],
    ]);
    expect(live!.case.reference.caveats).toEqual(['a3']);
    expect(live!.reading!.claims.find((x) => x.assertionId === 'a2')).toMatchObject({
      location: 'not_made',
      mark: 'absent',
      cues: 'not_made',
    });
    live!.close();
  });

  it('a classifier that fails after its retry makes the cell an error (classify_failed), never a cue-cut case', async () => {
    const cell = cellsFor('live').find((c) => c.arm === 'inline')!;
    const before = worlds();
    await expect(
      prepareLive(cell, {}, async (role) => (role === 'judge' ? reply('no tool call') : reply('Done.'))),
    ).rejects.toMatchObject({ code: 'classify_failed' });
    expect(worlds()).toBe(before);
  });
});
