import { describe, expect, it } from 'vitest';
import type { Transcript } from '../../harness/core/index.ts';
import { renderGolden, scripted } from './golden.ts';
import { getStrategy, strategies } from '../../strategies/index.ts';
import { resolveParams } from '../../strategies/define.ts';
import { caseOf, contextFor } from './helpers.ts';

/**
 * Golden renderings (issue 32): what every reference strategy hands the receiver for one small fixed
 * case — its framing, the messages, the payload, the tools, the cut accounting, and the requests it
 * sends a model — with its default params and with each option switched. The wording *is* a reference
 * strategy's contract (a strategy is the text it renders), so a changed header, label or separator
 * fails here loudly; if the change is meant, re-run with `-u` and review the diff of
 * test/strategies/__renderings__/<name>.txt like any change of behaviour.
 *
 * The model the strategies call is scripted (a fixed reply per purpose, a valid research_result for
 * the contract), so these files pin the strategies' own text, not the sim's.
 */
const source: Transcript = {
  agents: { child: { role: 'child', model: 'large' } },
  messages: [
    { role: 'user', agent: 'parent', text: 'Find merchants affected by the 2023-10 retirement.' },
    {
      role: 'assistant',
      agent: 'child',
      text: 'Starting with the config table.',
      toolCalls: [
        {
          id: 'k1',
          name: 'query_table',
          input: { sql: "SELECT merchant_id FROM merchant_config WHERE api_version = '2023-10'" },
        },
      ],
    },
    { role: 'user', toolResults: [{ callId: 'k1', content: 'merchant_id\nm_0007\nm_0013\n(2 rows)' }] },
    {
      role: 'assistant',
      agent: 'child',
      toolCalls: [{ id: 'k2', name: 'read_file', input: { path: 'adapters/paylane_fallback.ts' } }],
    },
    {
      role: 'user',
      toolResults: [
        {
          callId: 'k2',
          content:
            "export const FALLBACK_VERSION = '2023-10';\n// paylane_fallback: used when the pinned version errors\nexport function pick(v) { return v ?? FALLBACK_VERSION; }",
        },
      ],
    },
    {
      role: 'assistant',
      agent: 'child',
      toolCalls: [{ id: 'k3', name: 'run_tests', input: { cmd: 'npm test' } }],
    },
    { role: 'user', toolResults: [{ callId: 'k3', content: 'npm test: 1 failed', isError: true }] },
    {
      role: 'assistant',
      agent: 'child',
      text: [
        'Two merchants pin 2023-10 (m_0007, m_0013), per merchant_config.api_version.',
        'I could not determine whether the sandbox adapter uses the same version pin.',
      ].join('\n'),
    },
  ],
};

const fixedCase = caseOf(source, {
  id: 'golden-1',
  direction: 'return',
  task: 'Which merchants are affected by the retirement of API version 2023-10?',
});

/** The option variants rendered beside the defaults: every boolean flipped, every other enum value, and these. */
const extra: Record<string, Record<string, unknown>[]> = {
  summary: [{ maxTokens: 50 }],
  'structured-contract': [{ renderBudgetTokens: 60 }],
  'brick-only': [
    { resultCap: 20 },
    { contextBudgetChars: 200 },
    { contextBudgetChars: 200, markers: true, turnsMarker: true, turnHeadTail: true, clearedMarker: true },
  ],
  'parity-narration': [
    { expandTurns: 1 },
    { contextBudgetChars: 200 },
    { resultCap: 20, retainedResultCap: 20 },
  ],
  'spawn-recent': [{ n: 1 }],
  'agents-sdk-nested': [{ start: '<<H>>', end: '<</H>>' }],
  'langgraph-full-history': [{ supervisorName: 'boss' }],
  'langgraph-last-message': [{ supervisorName: 'boss' }],
  'ag2-carryover-reflection': [{ summaryPrompt: 'Sum it up.' }],
  'observation-masking': [{ window: 1 }],
};

function variants(name: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [{}];
  for (const [param, spec] of Object.entries(getStrategy(name).params)) {
    if (spec.type === 'boolean') out.push({ [param]: !spec.default });
    if (spec.type === 'enum')
      for (const v of spec.values ?? []) if (v !== spec.default) out.push({ [param]: v });
  }
  return [...out, ...(extra[name] ?? [])];
}

describe('golden renderings of the reference strategies (issue 32)', () => {
  it.each(Object.keys(strategies))('%s: defaults and each option', async (name) => {
    const out: string[] = [];
    for (const params of variants(name)) {
      const ctx = contextFor(fixedCase, { provider: scripted() });
      const strategy = getStrategy(name);
      const h = await strategy.prepare(ctx, resolveParams(strategy, params));
      out.push(renderGolden(params, h, ctx.requests));
    }
    await expect(out.join('\n')).toMatchFileSnapshot(`__renderings__/${name}.txt`);
  });
});
