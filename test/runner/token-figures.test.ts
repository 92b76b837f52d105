import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveConfig } from '../../harness/config/resolve-config.ts';
import { runExperiment } from '../../harness/runner/run.ts';
import { countTokens, messagesTokens } from '../../harness/core/tokens.ts';
import { getStrategy } from '../../strategies/index.ts';
import { casesDir, suite } from '../cases/helpers.ts';
import type { ResultRow, StrategyContext } from '../../harness/core/index.ts';

/**
 * The token figures as docs/results.md#token-figures defines them, on every shipped suite and arm:
 * the handoff is a part of the receiver's window, never more than all of it. (Before, the handoff of
 * a payload passed as messages was counted on its text rendering — role labels, JSON arguments — and
 * exceeded the whole window in 123 of the default run's 759 cells.)
 */
describe('token figures agree with each other', () => {
  it('handoff_tokens ≤ receiver_window_tokens_after, and before ≤ after, in every cell of every suite', async () => {
    const config = resolveConfig(
      { casesDir, reps: 1, cache: false, outDir: mkdtempSync(join(tmpdir(), 'he-tokens-')) },
      { quiet: true },
    );
    const { rows } = await runExperiment({ config });
    const ok = rows.filter((r) => r.status === 'ok');
    expect(ok.length).toBeGreaterThan(200);
    const over = (f: (r: ResultRow) => boolean) => ok.filter(f).map((r) => r.cell_id);
    expect(over((r) => r.handoff_tokens > r.receiver_window_tokens_after)).toEqual([]);
    expect(over((r) => r.receiver_window_tokens_before > r.receiver_window_tokens_after)).toEqual([]);
    expect(over((r) => r.handoff_tokens <= 0 && r.strategy !== 'spawn-isolated')).toEqual([]);
  }, 120_000);

  it('a payload passed as messages is counted as the request counts messages, a text payload as its text', async () => {
    const c = (await suite('milk')).cases[0]!;
    const ctx = {
      case: c,
      arm: { name: 'x', strategy: 'inline', models: { source: 'small', receiver: 'small' } },
      rep: 0,
      budgetTokens: 200_000,
      tokens: countTokens,
      call: () => Promise.reject(new Error('no calls')),
    } as unknown as StrategyContext;
    const inline = await getStrategy('inline').prepare(ctx, { replay: 'full' });
    // milk-auto: no receiver history before the handoff, so every message is the payload.
    expect(inline.stats.tokens).toBe(messagesTokens(inline.messages));
    const brick = await getStrategy('brick-only').prepare(ctx, {
      resultCap: 500,
      contextBudgetChars: 12000,
      markers: false,
      framing: 'handoff',
    });
    expect(brick.stats.tokens).toBe(countTokens(brick.payload));
  });
});
