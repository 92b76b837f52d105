import { beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ModelResponse, Provider, Suite } from '../../harness/core/index.ts';
import { loadSuites } from '../../cases/load.ts';
import { resolveConfig } from '../../harness/config/resolve-config.ts';
import { planCells } from '../../harness/runner/plan.ts';
import { callMatches, prepareLive } from '../../harness/runner/live-cell.ts';
import { executeCell } from '../../harness/runner/execute-cell.ts';
import { createCallPath } from '../../harness/calls/call-path.ts';
import { createProviders } from '../../harness/providers/index.ts';
import { repoRoot } from '../support/cli.ts';
import { scriptedClassifier, type Wordings } from '../support/scripted-reader.ts';

/**
 * A live cell's row columns and artifact in full (issue 32 item 3): test/live/live-cell.test.ts
 * checks a subset of the columns; here every column and every field of the per-source record, with a
 * tool call that fails and receiver tool calls, so a changed sum, count or field shows.
 */
let suite: Suite;
beforeAll(async () => {
  [suite] = await loadSuites(join(repoRoot, 'test/fixtures/live-cases'), [{ id: 'minilive' }]);
  process.env.TMPDIR = mkdtempSync(join(tmpdir(), 'handoff-live-cell-units-'));
});

const reply = (text: string, calls: ModelResponse['toolCalls'] = [], latencyMs = 40): ModelResponse => ({
  text,
  toolCalls: calls,
  stopReason: calls.length ? 'tool_use' : 'end_turn',
  usage: { inputTokens: 100, outputTokens: 20, cacheReadTokens: 0, cacheWriteTokens: 0 },
  latencyMs,
  model: 'm',
  cached: false,
  retries: 0,
  costUsd: 0,
});
const wordings: Wordings = {
  a1: { said: ['two merchants pin 2023-10', 'm_0007 and m_0013 pin 2023-10'] },
  a2: { said: ['sandbox adapter uses the same version pin'], hedge: ['could not determine'] },
  a3: { said: ['api_version column is authoritative'], hedge: ['assuming'] },
};

describe('a live cell’s columns and artifact', () => {
  it('sums the loop, counts the receiver’s calls, and records each source call with its result', async () => {
    const cell = planCells([suite], resolveConfig({ reps: 1 }, { mode: 'live' })).find(
      (c) => c.arm === 'inline',
    )!;
    const longSql = `SELECT * FROM merchant_config WHERE api_version = '${'y'.repeat(400)}'`;
    const turns = [
      reply('Reading.', [
        { id: 'q1', name: 'query', input: { sql: 'SELECT * FROM merchant_config' } },
        { id: 'q2', name: 'query', input: { sql: 'DELETE FROM merchant_config' } },
      ]),
      reply('Once more.', [{ id: 'q3', name: 'query', input: { sql: longSql } }], 25),
      reply('Two merchants pin 2023-10 (m_0007, m_0013).', [], 10),
    ];
    let n = 0;
    const classify = scriptedClassifier(wordings);
    const live = await prepareLive(cell, {}, async (role, r) =>
      role === 'judge' ? classify(r) : turns[n++]!,
    );
    try {
      const fields = live!.fields([
        { id: 'r1', name: 'fetch_transcript_span', input: {} },
        { id: 'r2', name: 'read_file', input: { path: 'x' } },
        { id: 'r3', name: 'fetch_transcript_span', input: {} },
      ]);
      expect(fields).toEqual({
        source_mode: 'live',
        source_tool_calls: 3,
        source_tool_budget: cell.live!.budget,
        source_tool_errors: 1,
        source_tool_refused: 0,
        budget_exhausted: false,
        source_loop_turns: 3,
        source_loop_latency_ms: 75,
        source_assertions: 1,
        source_assertions_labelled: 3,
        receiver_tool_calls: 3,
        receiver_span_fetches: 2,
        orchestration_tool_calls: null,
      });
      const art = live!.artifacts as { live: Record<string, unknown>[] };
      expect(Object.keys(live!.artifacts)).toEqual(['live']);
      expect(art.live).toHaveLength(1);
      const rec = art.live[0]! as { calls: { input: string; chars: number }[] } & Record<string, unknown>;
      expect(rec).toMatchObject({
        transcript: live!.case.source.id,
        toolCalls: 3,
        budgetExhausted: false,
        stopReason: 'end_turn',
        assertions: ['a1'],
      });
      expect('ownSource' in rec).toBe(false);
      expect(rec.calls.map((c) => ({ ...c, chars: c.chars > 0 }))).toEqual([
        {
          id: 'q1',
          name: 'query',
          input: JSON.stringify({ sql: 'SELECT * FROM merchant_config' }),
          isError: false,
          chars: true,
        },
        {
          id: 'q2',
          name: 'query',
          input: JSON.stringify({ sql: 'DELETE FROM merchant_config' }),
          isError: true,
          chars: true,
        },
        {
          id: 'q3',
          name: 'query',
          input: JSON.stringify({ sql: longSql }).slice(0, 300),
          isError: false,
          chars: true,
        },
      ]);
      expect(rec.calls[2]!.input).toHaveLength(300);
      const results = live!.case.source.messages.flatMap((m) => m.toolResults ?? []);
      expect(rec.calls.map((c) => c.chars)).toEqual(results.map((r) => r.content.length));
      expect(live!.receiverHandoff).toBeTypeOf('function');
    } finally {
      live!.close();
    }
  });
});

describe('callMatches', () => {
  it('same name and every listed field equal; a missing field matches only null', () => {
    expect(
      callMatches({ name: 'spawn', input: { role: 'a', n: 2 } }, { name: 'spawn', input: { role: 'a' } }),
    ).toBe(true);
    expect(
      callMatches({ name: 'spawn', input: { role: 'b' } }, { name: 'spawn', input: { role: 'a' } }),
    ).toBe(false);
    expect(callMatches({ name: 'spawn', input: {} }, { name: 'spawn', input: { role: null } })).toBe(true);
    expect(callMatches({ name: 'spawn', input: {} }, { name: 'spawn', input: { role: 'a' } })).toBe(false);
    expect(callMatches({ name: 'spawn', input: undefined }, { name: 'spawn' })).toBe(true);
    expect(callMatches({ name: 'other', input: {} }, { name: 'spawn' })).toBe(false);
    expect(
      callMatches({ name: 'spawn', input: { o: { a: 1 } } }, { name: 'spawn', input: { o: { a: 1 } } }),
    ).toBe(true);
  });
});

describe('a live cell through executeCell', () => {
  it('the row carries the live columns, the "made" stage’s disagreement first, and the source’s claims', async () => {
    const config = resolveConfig({ reps: 1, cache: false }, { mode: 'live' });
    const cell = planCells([suite], config).find((c) => c.arm === 'inline')!;
    const providers = await createProviders(config);
    const sim = providers.sim!;
    const classify = scriptedClassifier(wordings);
    let turn = 0;
    const scripted: Provider = {
      ...sim,
      generate: async (r, o) => {
        if (r.purpose === 'classify') return classify(r);
        if (r.purpose === 'act')
          return turn++ === 0
            ? reply('Reading.', [
                { id: 'q1', name: 'query', input: { sql: 'SELECT * FROM merchant_config' } },
              ])
            : reply('Two merchants pin 2023-10 (m_0007, m_0013).');
        return sim.generate(r, o);
      },
    };
    const calls = createCallPath({
      config,
      providers: { sim: scripted },
      cache: null,
      runId: 'r',
      onCall: () => {},
    });
    const row = await executeCell(cell, { config, calls, runId: 'r', harnessVersion: 't' });
    expect(row.status, row.error ?? '').toBe('ok');
    expect(row).toMatchObject({ source_mode: 'live', source_tool_calls: 1, source_loop_turns: 2 });
    const disagreement = row.survival_disagreement as Record<string, number | null>;
    expect(Object.keys(disagreement)[0]).toBe('made');
    expect(disagreement.made).toBe(0);
    const claims = (row.detail as { source_claims: { assertionId: string }[] }).source_claims;
    expect(claims.map((c) => c.assertionId).sort()).toEqual(['a1', 'a2', 'a3']);
    expect((row.detail!.artifacts as { live: unknown[] }).live).toHaveLength(1);
  });

  it('a cell that fails after its source ran is an error row, and its world is removed', async () => {
    const config = resolveConfig({ reps: 1, cache: false }, { mode: 'live' });
    const cell = planCells([suite], config).find((c) => c.arm === 'inline')!;
    const providers = await createProviders(config);
    const sim = providers.sim!;
    const classify = scriptedClassifier(wordings);
    const failing: Provider = {
      ...sim,
      generate: async (r, o) => {
        if (r.purpose === 'classify') return classify(r);
        if (r.purpose === 'act') return reply('Two merchants pin 2023-10 (m_0007, m_0013).');
        if (r.purpose === 'answer') throw new Error('receiver down');
        return sim.generate(r, o);
      },
    };
    const worlds = () => readdirSync(tmpdir()).filter((d) => d.startsWith('handoff-world-')).length;
    const before = worlds();
    const calls = createCallPath({
      config,
      providers: { sim: failing },
      cache: null,
      runId: 'r',
      onCall: () => {},
    });
    const row = await executeCell(cell, { config, calls, runId: 'r', harnessVersion: 't' });
    expect(row).toMatchObject({ status: 'error', error: 'Error: receiver down' });
    expect(worlds()).toBe(before);
  });
});
