import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ModelRequestInput, ModelResponse, Suite } from '../../harness/core/index.ts';
import { messagesTokens } from '../../harness/core/tokens.ts';
import { loadSuites } from '../../cases/load.ts';
import { resolveConfig } from '../../harness/config/resolve-config.ts';
import { planCells } from '../../harness/runner/plan.ts';
import { prepareLive } from '../../harness/runner/live-cell.ts';
import { parentPrefix } from '../../harness/live/inline-prefix.ts';
import { createSimProvider } from '../../harness/providers/sim/index.ts';
import { ConfigError } from '../../harness/core/errors.ts';
import { repoRoot } from '../support/cli.ts';

/**
 * Issue 29 item 7, `--live-inline prefix`: inline's research turns run inside the parent's window —
 * each act request carries the parent's history before the brief, so its input tokens (and the sim's
 * token-based latency) include that prefill on every turn. The sim's research itself is unchanged (it
 * reads its own session after the prefix), and so is the live transcript the strategy gets.
 */
let suite: Suite;
const oldTmp = process.env.TMPDIR;
beforeAll(async () => {
  [suite] = await loadSuites(join(repoRoot, 'cases'), [{ id: 'ledgerline' }]);
  process.env.TMPDIR = mkdtempSync(join(tmpdir(), 'handoff-inline-prefix-'));
});
afterAll(() => {
  process.env.TMPDIR = oldTmp;
});

async function inlineLoop(liveInline: 'replay' | 'prefix', arm = 'inline') {
  const config = resolveConfig(
    { reps: 1, suites: [{ id: 'ledgerline', arms: [arm] }], liveInline },
    {
      mode: 'live',
      case: ['ledgerline-01'],
    },
  );
  const cell = planCells([suite], config).find((c) => c.arm === arm && c.case.id === 'ledgerline-01');
  const sim = createSimProvider();
  const acts: { req: ModelRequestInput; res: ModelResponse }[] = [];
  let n = 0;
  const live = await prepareLive(cell!, {}, async (role, r) => {
    const res = await sim.generate({
      ...r,
      model: role === 'judge' ? 'sim-judge' : 'sim-large',
      seed: `1/${cell!.case.id}/0/${r.purpose}#${n++}`,
    });
    if (r.purpose === 'act') acts.push({ req: r, res });
    return res;
  });
  live!.close();
  return { acts, live: live!, cell: cell! };
}

describe('--live-inline prefix', () => {
  it("adds the parent's prefix to every research turn's input tokens, and nothing else", async () => {
    const replay = await inlineLoop('replay');
    const prefix = await inlineLoop('prefix');
    const parent = parentPrefix(prefix.cell.case);
    const prefixTokens = messagesTokens(parent);
    expect(prefixTokens).toBeGreaterThan(15_000); // the ledgerline parent's window (~22k)
    expect(prefix.acts).toHaveLength(replay.acts.length);
    expect(replay.acts.length).toBeGreaterThan(1);
    prefix.acts.forEach((p, i) => {
      const r = replay.acts[i]!;
      expect(p.req.messages.slice(0, parent.length)).toEqual(parent);
      expect(p.res.usage.inputTokens - r.res.usage.inputTokens).toBe(prefixTokens);
      expect(p.res.latencyMs).toBeGreaterThan(r.res.latencyMs);
      // The sim researches the same way inside the parent's window.
      expect(p.res.toolCalls).toEqual(r.res.toolCalls);
    });
    // The live transcript the strategy shapes is the research alone, in both modes.
    expect(prefix.live.case.source.messages).toEqual(replay.live.case.source.messages);
    expect(prefix.live.artifacts.liveInline).toBe('prefix');
    expect(replay.live.artifacts.liveInline).toBeUndefined();
  });

  it('applies to the inline arm only; other arms research as before', async () => {
    const replay = await inlineLoop('replay', 'final-message');
    const prefix = await inlineLoop('prefix', 'final-message');
    expect(prefix.acts.map((a) => a.res.usage.inputTokens)).toEqual(
      replay.acts.map((a) => a.res.usage.inputTokens),
    );
  });

  it('is checked when the config loads, the field named', () => {
    expect(() => resolveConfig({ liveInline: 'window' as never })).toThrow(ConfigError);
    expect(() => resolveConfig({ liveInline: 'window' as never })).toThrow(/liveInline/);
    expect(() => resolveConfig({}, { liveInline: 'yes' })).toThrow(
      /--live-inline: must be 'replay' or 'prefix'/,
    );
    expect(resolveConfig({}).liveInline).toBe('replay');
  });
});
