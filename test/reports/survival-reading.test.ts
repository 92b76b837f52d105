import { describe, expect, it } from 'vitest';
import type { ResultRow, SourceClaim, SurvivalResult } from '../../harness/core/index.ts';
import { renderHtml, renderJson, renderMarkdown, summarize } from '../../reports/index.ts';
import { syntheticRows } from './synthetic.ts';

/**
 * Issue 26 in the reports: what decided the survival figures, the cue matcher's disagreement per stage
 * (made / payload / answer), and in live mode the labelled claims the source did not make — a line of
 * their own, never a location row.
 */
const survival: SurvivalResult[] = [
  {
    assertionId: 'h1',
    kind: 'hedged',
    location: 'mid_transcript',
    payload: 'kept',
    answer: 'absent',
    decidedBy: 'classifier',
    cues: { payload: 'absent', answer: 'absent' },
  },
  {
    assertionId: 'c1',
    kind: 'confident',
    location: 'final_message',
    payload: 'kept',
    answer: 'kept',
    decidedBy: 'classifier',
    cues: { payload: 'kept', answer: 'kept' },
  },
];
const claims: SourceClaim[] = [
  {
    assertionId: 'h1',
    kind: 'hedged',
    recorded: 'final_message',
    location: 'mid_transcript',
    mark: 'kept',
    cues: 'not_made',
  },
  { assertionId: 'c1', kind: 'confident', location: 'final_message', mark: 'kept', cues: 'final_message' },
  { assertionId: 'a1', kind: 'assumption', location: 'not_made', mark: 'absent', cues: 'not_made' },
];

function liveRows(): ResultRow[] {
  return syntheticRows({ seed: 3, cases: 2, reps: 1, arms: ['whole', 'tail'] }).map((r) => ({
    ...r,
    survival_decided_by: 'classifier',
    survival_disagreement: { made: 1 / 3, payload: 1 / 2, answer: 0 },
    detail: { ...r.detail!, survival, source_claims: claims },
  }));
}

describe('survival reading in the reports', () => {
  it('says the classifier decided, with the cue matcher disagreement per stage, and the claims not made', () => {
    const s = summarize(liveRows());
    const reading = s.suites[0]!.judge.reading!;
    expect(reading.decidedBy).toBe('classifier');
    expect(reading.disagreement).toEqual({
      made: { differ: 4, compared: 12, rate: 1 / 3 },
      payload: { differ: 4, compared: 8, rate: 0.5 },
      answer: { differ: 0, compared: 8, rate: 0 },
    });
    expect(reading.notMade).toEqual({ cells: 4, claims: 4, labelled: 12, byKind: { assumption: 4 } });
    const md = renderMarkdown(s);
    expect(md).toContain(
      '- survival decided by the survival classifier, for every labelled claim at every stage',
    );
    expect(md).toContain(
      '- cue matcher disagrees with the classifier on: made by the source 33% (4/12) · payload 50% (4/8) · answer 0% (0/8) of claims',
    );
    expect(md).toContain(
      'not made by the live source (read by the classifier; in no location row): 4 of 12 labelled claims over 4 live cells (assumption 4)',
    );
    // The location table is the measured one: h1 is mid-transcript, and no row says "not_made".
    expect(md).toMatch(/\| hedged · mid_transcript \| 2 \|/);
    expect(md).not.toMatch(/not_made \|/);
    const html = renderHtml(s, liveRows());
    expect(html).toContain('not made by the live source');
    expect(html).toContain('cue matcher disagrees with the classifier on: made by the source 33%');
    expect(JSON.parse(renderJson(s)).suites[0].judge.reading.disagreement.made.rate).toBeCloseTo(1 / 3);
  });

  it("says plainly when the figures are cue-based (judge.classify 'off')", () => {
    const rows = liveRows().map((r) => ({
      ...r,
      survival_decided_by: 'cues' as const,
      survival_disagreement: {},
      detail: {
        ...r.detail!,
        source_claims: undefined,
        survival: survival.map(({ cues: _c, ...x }) => ({ ...x, decidedBy: 'cues' as const })),
      },
    }));
    const md = renderMarkdown(summarize(rows));
    expect(md).toContain(
      "survival figures are cue-based: the literal cue matcher decided (judge.classify 'off')",
    );
    expect(md).not.toContain('cue matcher disagrees');
    expect(md).not.toContain('not made by the live source');
  });
});

describe('checks that read the answer by literal phrases (issue 26)', () => {
  it('declare it; the rows record it; the report marks their columns cue-based, the structural ones not', async () => {
    const { builtinChecks } = await import('../../judges/checks.ts');
    expect(builtinChecks.filter((c) => c.cueBased).map((c) => c.name)).toEqual([
      'no_recap_signature',
      'no_handoff_language',
      'no_second_assignment',
      'contradictions_surfaced',
      'not_searched_named',
    ]);
    const rows = liveRows().map((r) => ({
      ...r,
      checks: [
        { name: 'no_recap_signature', passed: true, detail: '', cueBased: true },
        { name: 'tool_pairing_intact', passed: true, detail: '' },
      ],
    }));
    const md = renderMarkdown(summarize(rows));
    expect(md).toContain('| arm | no_recap_signature (cue-based) | tool_pairing_intact |');
    expect(md).toContain('(cue-based): the check reads the answer by literal phrases');
    expect(renderHtml(summarize(rows), rows)).toContain('no_recap_signature (cue-based)');
  });
});
