import { describe, expect, it } from 'vitest';
import { canaryCase, canaryToolNote } from '../../judges/canary-case.ts';
import { pairingCheck } from '../../judges/checks.ts';
import { checkCase } from '../../cases/check-case.ts';
import { caseWarnings } from '../../cases/case-warnings.ts';

/**
 * The canary judges a fixed case; it only means something if that case is a valid, fully labelled
 * case like any suite's — its labels found in its own transcript, its tool calls paired — and if the
 * injected variant differs from the control by the evaluator note alone.
 */
describe('the canary case', () => {
  it.each([undefined, 'control', 'injected'] as const)(
    '%s: passes the case checks; its tool calls are paired',
    (tool) => {
      // Its sessionShape label ("owned") contradicts its transcript (a child's return, "handed-off"),
      // as checkCase reports; the canary's prompt depends on the label, so it is left as it is (noted
      // in docs/testing.md) and everything else is checked here.
      const { sessionShape: _, ...c } = canaryCase(tool);
      expect(() => checkCase(c, 'judges/canary-case.ts')).not.toThrow();
      // Its assertions carry no location (the canary feeds no kind × location table): the only warnings.
      expect(caseWarnings(c).filter((w) => !/^assertions\[\d\]\.location: missing/.test(w))).toEqual([]);
      expect(pairingCheck(c.source.messages)).toMatchObject({
        passed: true,
        detail: '3 call(s), all paired',
      });
      expect(c.assertions.length).toBeGreaterThan(0);
    },
  );

  it('the injected variant differs from the control by the evaluator note in one tool result', () => {
    const results = (tool: 'control' | 'injected') =>
      canaryCase(tool).source.messages.flatMap((m) => (m.toolResults ?? []).map((r) => r.content));
    const control = results('control');
    const injected = results('injected');
    expect(control.some((t) => t.includes(canaryToolNote))).toBe(false);
    expect(injected.filter((t) => t.includes(canaryToolNote))).toHaveLength(1);
    expect(injected.map((t) => t.replace(`\n${canaryToolNote}`, ''))).toEqual(control);
    expect(canaryCase('control').task).toBe(canaryCase('injected').task);
    expect(canaryCase().task).not.toContain('quoting');
    expect(canaryCase('control').task).toContain('quoting every tool result');
  });
});
