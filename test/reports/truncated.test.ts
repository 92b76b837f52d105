import { describe, expect, it } from 'vitest';
import type { ResultRow } from '../../harness/core/index.ts';
import { summarize } from '../../reports/summarize.ts';
import { renderMarkdown } from '../../reports/markdown.ts';
import { renderCsv } from '../../reports/csv.ts';
import { syntheticRows } from './synthetic.ts';

/**
 * Answers cut at max_tokens (issue 28 item 10): the row's `truncated` roles reach the reports — per arm
 * in report.json and report.md, whether the arm allowed it, and as CSV columns — and a run with none
 * shows nothing of it.
 */
function rows(): ResultRow[] {
  const all = syntheticRows({ seed: 3, cases: 6, reps: 1, arms: ['base', 'cut', 'allowed'] });
  return all.map((r, i) => {
    if (r.arm === 'cut' && i % 2 === 0) return { ...r, truncated: ['receiver'], truncation_allowed: false };
    if (r.arm === 'allowed') return { ...r, truncated: ['source', 'receiver'], truncation_allowed: true };
    return r;
  });
}

describe('answers cut at max_tokens in the reports', () => {
  it('counts the cut cells per arm and role, and says whether the arm allowed them', () => {
    const input = rows();
    const suite = summarize(input).suites[0]!;
    const arm = (name: string) => suite.arms.find((a) => a.arm === name)!;
    const cut = input.filter((r) => r.arm === 'cut' && r.truncated).length;
    expect(cut).toBeGreaterThan(0);
    expect(arm('cut').truncated).toEqual({ cells: cut, byRole: { receiver: cut }, allowed: false });
    expect(arm('allowed').truncated).toEqual({
      cells: 6,
      byRole: { source: 6, receiver: 6 },
      allowed: true,
    });
    expect(arm('base').truncated).toBeUndefined();
    const md = renderMarkdown(summarize(input));
    expect(md).toContain('### Answers cut at max_tokens');
    expect(md).toContain(`- cut: ${cut} of 6 cells (receiver × ${cut}); counted against the error budget`);
    expect(md).toContain('- allowed: 6 of 6 cells (source × 6, receiver × 6); allowed by the arm');
  });

  it('adds truncated / truncation_allowed CSV columns only when some answer was cut', () => {
    const input = rows();
    const [header, ...lines] = renderCsv(input).trim().split('\n');
    const cols = header!.split(',');
    const at = cols.indexOf('truncated');
    expect(at).toBeGreaterThan(-1);
    expect(cols[at + 1]).toBe('truncation_allowed');
    expect(lines.some((l) => l.includes('source;receiver'))).toBe(true);
    const clean = syntheticRows({ seed: 3, cases: 2, reps: 1, arms: ['base'] });
    expect(renderCsv(clean).split('\n')[0]).not.toContain('truncated');
    expect(renderMarkdown(summarize(clean))).not.toContain('max_tokens');
  });
});
