import { describe, expect, it } from 'vitest';
import type { ResultRow, SurvivalMark, SurvivalResult } from '../../harness/core/index.ts';
import { renderCsv, renderHtml, renderJson, renderMarkdown, summarize } from '../../reports/index.ts';
import { syntheticRows } from './synthetic.ts';

/**
 * Two arms over four cases: `whole` keeps every hedge, `tail` keeps only the final-message ones —
 * what the kind × location table must make visible in every format.
 */
function rows(): ResultRow[] {
  return syntheticRows({ seed: 7, cases: 4, reps: 1, arms: ['whole', 'tail'] }).map((r) => {
    const tail = r.arm === 'tail';
    const mark = (loc: string): SurvivalMark => (tail && loc !== 'final_message' ? 'absent' : 'kept');
    const survival: SurvivalResult[] = (['final_message', 'mid_transcript', 'tool_result_only'] as const).map(
      (location, i) => ({
        assertionId: `h${i}`,
        kind: 'hedged',
        location,
        payload: mark(location),
        answer: mark(location),
      }),
    );
    const rates = Object.fromEntries(
      survival.map((s) => [`hedged:${s.location}`, s.answer === 'kept' ? 1 : 0]),
    );
    return { ...r, survival_location: { payload: rates, answer: rates }, detail: { ...r.detail!, survival } };
  });
}

describe('survival by kind × location', () => {
  const s = summarize(rows());
  const arm = (name: string) => s.suites[0]!.arms.find((a) => a.arm === name)!;

  it('summarises exact counts per kind and location from the marks', () => {
    expect(arm('tail').survivalByLocation.source).toBe('marks');
    expect(arm('tail').survivalByLocation.answer.hedged?.mid_transcript).toMatchObject({
      kept: 0,
      absent: 4,
      total: 4,
    });
    expect(arm('tail').survivalByLocation.answer.hedged?.final_message?.rate).toBe(1);
    expect(arm('whole').survivalByLocation.payload.hedged?.tool_result_only?.rate).toBe(1);
  });

  it('falls back to the rows’ per-cell rates when the journal has no marks', () => {
    const bare = rows().map(({ detail: _d, ...r }) => r as ResultRow);
    const t = summarize(bare).suites[0]!.arms.find((a) => a.arm === 'tail')!;
    expect(t.survivalByLocation.source).toBe('rates');
    expect(t.survivalByLocation.answer.hedged?.mid_transcript?.rate).toBe(0);
  });

  it('shows the table in markdown, html and json, and per-cell columns in csv', () => {
    const md = renderMarkdown(s);
    expect(md).toContain('Survival by kind × claim location');
    expect(md).toMatch(/\| hedged · mid_transcript \| 4 \| 100% → 100% \| 0% → 0% \|/);
    expect(md).toMatch(/\| hedged · final_message \| 4 \| 100% → 100% \| 100% → 100% \|/);
    const html = renderHtml(s, rows());
    expect(html).toContain('Survival by kind × claim location');
    expect(html).toContain('hedged · tool_result_only');
    const json = JSON.parse(renderJson(s));
    expect(json.suites[0].arms[1].survivalByLocation.answer.hedged.mid_transcript.kept).toBe(0);
    const [header, ...lines] = renderCsv(rows()).trim().split('\n');
    const cols = header!.split(',');
    const col = cols.indexOf('survival_hedged_mid_transcript_answer');
    expect(col).toBeGreaterThan(0);
    expect(cols).not.toContain('survival_confident_mid_transcript_answer');
    const values = lines.map((l) => l.split(',')[col]);
    expect(values.sort()).toEqual(['0', '0', '0', '0', '1', '1', '1', '1']);
  });
});
