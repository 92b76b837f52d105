import { describe, expect, it } from 'vitest';
import { checkStrategy } from '../../harness/index.ts';
import { strategies } from '../../strategies/index.ts';
import { firstAndLastN } from '../../examples/first-and-last-n/strategy.ts';
import { toolResultsOnly } from '../../examples/tool-results-only/strategy.ts';

/**
 * Every registered strategy — keyed on the registry, so one added later is held to the kit too — and
 * both examples pass checkStrategy as a user runs it: the defaults, every other enum/boolean value,
 * the shipped real transcripts, the shipped suites, generated sessions.
 */
describe('the test kit on the reference strategies and the examples', () => {
  it.each([...Object.values(strategies), firstAndLastN, toolResultsOnly].map((s) => [s.name, s] as const))(
    '%s passes checkStrategy',
    async (_, strategy) => {
      const r = await checkStrategy(strategy);
      const shown = r.failures.slice(0, 5).map((f) => `${f.invariant} — ${f.input}: ${f.detail}`);
      expect(shown).toEqual([]);
      expect(r.passed).toBe(true);
      expect(r.inputs).toEqual({ transcripts: 15, cases: 69, generated: 12 });
      expect(r.handoffs).toBeGreaterThan(300);
      for (const n of ['prepares', 'pairing', 'markers', 'stats', 'same-inputs', 'tools-served'] as const)
        expect(r.checked[n], n).toBeGreaterThan(0);
    },
    300_000,
  );

  it('checks what the strategies declare: superset, retention, deterministic; silent cuts and copied parent turns by design are reported as declared', async () => {
    const opts = { transcripts: false as const, casesDirs: false as const, generated: 4 };
    expect((await checkStrategy('full-transcript', opts)).checked.superset).toBeGreaterThan(0);
    expect(
      (await checkStrategy('parity-narration', { ...opts, variants: false })).checked.retention,
    ).toBeGreaterThan(0);
    const inline = await checkStrategy('inline', opts);
    expect(inline.checked.superset).toBeGreaterThan(0); // replay: full
    expect(inline.checked.retention).toBeGreaterThan(0); // replay: planned
    expect(inline.checked.deterministic).toBeGreaterThan(0);
    // Silent cuts by design are checked and reported as declared — not skipped, not passed.
    const legacy = await checkStrategy('brick-only', {
      ...opts,
      params: { markers: false, trailActivity: true },
    });
    expect(legacy.checked['cuts-marked']).toBeGreaterThan(0);
    expect(legacy.declared['cuts-marked']!.reason).toMatch(/cuts silently on purpose/);
    expect(legacy.declared['cuts-marked']!.handoffs).toBeGreaterThan(0);
    expect(legacy.passed).toBe(true);
    const marked = await checkStrategy('brick-only', { ...opts, params: { markers: true } });
    expect(marked.checked['cuts-marked']).toBeGreaterThan(0);
    expect(marked.declared['cuts-marked']).toBeUndefined();
    // spawn-all copies the parent's roles by design: declared, and broken on the spawn inputs.
    const all = await checkStrategy('spawn-all', opts);
    expect(all.declared['spawn-instructions']!.handoffs).toBeGreaterThan(0);
    expect(all.failedHandoffs['spawn-instructions']).toBe(0);
  });
});
