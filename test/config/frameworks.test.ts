import { describe, expect, it } from 'vitest';
import { frameworks, frameworkArms, resolveConfig } from '../../harness/index.ts';
import { ConfigError, InputError } from '../../harness/core/errors.ts';
import { loadExperiment } from '../../harness/runner/experiment.ts';
import { strategies } from '../../strategies/index.ts';

describe('frameworks()', () => {
  it('gives one arm per framework strategy, named after it, tagged with the directions it models', () => {
    const arms = frameworks();
    expect(arms.map((a) => a.name)).toEqual(Object.keys(frameworkArms));
    for (const a of arms) {
      expect(a.strategy).toBe(a.name);
      expect(Object.keys(strategies)).toContain(a.strategy);
      expect(a.directions!.length).toBeGreaterThan(0);
    }
    expect(arms.find((a) => a.name === 'adk-no-contents')!.directions).toEqual(['spawn']);
    expect(arms.find((a) => a.name === 'claude-code-task')!.directions).toEqual(['return']);
  });

  it('leaves out what `exclude` names and rejects a name that is not a framework strategy', () => {
    const arms = frameworks({
      exclude: ['ag2-carryover-reflection'],
      models: { source: 'small', receiver: 'large' },
    });
    expect(arms.map((a) => a.name)).not.toContain('ag2-carryover-reflection');
    expect(arms.every((a) => a.models?.source === 'small')).toBe(true);
    expect(() => frameworks({ exclude: ['summary'] })).toThrow(InputError);
    expect(() => frameworks({ exclude: ['summary'] })).toThrow(
      /"summary" is not a framework strategy; valid: agents-sdk-full/,
    );
  });

  it("adds to each shipped suite exactly the arms of its direction, with the baseline's models and no directions tag", async () => {
    const config = resolveConfig({
      suites: ['ledgerline', 'milk', 'spawn-context'].map((id) => ({ id, extraArms: [frameworks()] })),
    });
    const suites = await loadExperiment(config);
    expect(suites).toHaveLength(3);
    for (const s of suites) {
      const want = Object.entries(frameworkArms)
        .filter(([, ds]) => ds.includes(s.direction))
        .map(([n]) => n);
      const added = s.arms.filter((a) => Object.hasOwn(frameworkArms, a.name));
      expect(
        added.map((a) => a.name),
        s.id,
      ).toEqual(want);
      const baseline = s.arms.find((a) => a.name === s.baselineArm)!;
      for (const a of added) {
        expect(a.models).toEqual(baseline.models);
        expect('directions' in a).toBe(false);
      }
    }
    const bySuite = Object.fromEntries(suites.map((s) => [s.direction, s.arms.map((a) => a.name)]));
    expect(bySuite.spawn).toContain('adk-no-contents');
    expect(bySuite.return).not.toContain('adk-no-contents');
    expect(bySuite.escalation).not.toContain('claude-code-task');
  });

  it('rejects an arm whose directions are not directions, naming the field', () => {
    expect(() =>
      resolveConfig(
        {
          suites: [
            { id: 'milk', extraArms: [{ name: 'x', strategy: 'inline', directions: ['sideways'] } as never] },
          ],
        },
        {},
        'eval.config.ts',
      ),
    ).toThrow(ConfigError);
    expect(() =>
      resolveConfig(
        {
          suites: [
            { id: 'milk', extraArms: [{ name: 'x', strategy: 'inline', directions: ['sideways'] } as never] },
          ],
        },
        {},
        'eval.config.ts',
      ),
    ).toThrow(/extraArms\[0\]\.directions: arm x: must be a list of return, escalation, spawn/);
  });
});
