import { describe, expect, it } from 'vitest';
import { checkStrategy } from '../../../harness/kit/check-strategy.ts';
import { renderCheckReport } from '../../../harness/kit/format.ts';
import { defineStrategy, finishHandoff, framings } from '../../../harness/index.ts';
import { strategies } from '../../../strategies/index.ts';

// Strategy.declares: an invariant a strategy breaks by design is still checked, and what the kit finds
// is reported as declared, with its reason — never as passed, never as a failure.

const cutsSilently = (declares?: Record<string, string>) =>
  defineStrategy({
    name: 'cuts-silently',
    description: 'shows each result cut to 10 characters with no marker',
    seed: 'test',
    deterministic: true,
    ...(declares ? { declares } : {}),
    params: {},
    async prepare(ctx) {
      const messages = ctx.case.source.messages
        .filter((m) => m.toolResults?.length)
        .map((m) => ({
          role: 'user' as const,
          text: m.toolResults!.map((r) => `${r.content.slice(0, 60)} and more`).join('\n'),
        }));
      return finishHandoff(ctx, { system: framings.continuity, messages });
    },
  });

const options = { transcripts: false as const, casesDirs: false as const, generated: 4 };

describe('declared invariants in check-strategy', () => {
  it('an undeclared silent cut fails cuts-marked; declared, it is listed with its reason and not counted', async () => {
    const broken = await checkStrategy(cutsSilently(), options);
    expect(broken.failures.some((f) => f.invariant === 'cuts-marked')).toBe(true);
    const declared = await checkStrategy(cutsSilently({ 'cuts-marked': 'cuts on purpose' }), options);
    expect(declared.failures.filter((f) => f.invariant === 'cuts-marked')).toEqual([]);
    expect(declared.declared['cuts-marked']).toMatchObject({ reason: 'cuts on purpose' });
    expect(declared.declared['cuts-marked']!.handoffs).toBeGreaterThan(0);
    const text = renderCheckReport(declared);
    expect(text).toMatch(
      /declared {2}cuts-marked .*breaks it on \d+ handoff\(s\), as declared: cuts on purpose/,
    );
    expect(text).not.toMatch(/ok {6}cuts-marked/);
  });

  it('agents-sdk-nested declares what its JSON history block breaks, and says why', () => {
    const frameworks = Object.values(strategies).filter((s) => /^(framework|paper):/.test(s.seed ?? ''));
    expect(frameworks.length).toBe(12);
    const declaring = frameworks.filter((s) => 'declares' in s && s.declares);
    expect(declaring.map((s) => s.name)).toContain('agents-sdk-nested');
    expect(strategies['agents-sdk-nested'].declares?.['cuts-marked']).toMatch(/JSON/);
  });
});
