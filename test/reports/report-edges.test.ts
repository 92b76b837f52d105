import { describe, expect, it } from 'vitest';
import type { ResultRow } from '../../harness/core/index.ts';
import { summarize, method } from '../../reports/summarize.ts';
import { renderMarkdown } from '../../reports/markdown.ts';
import { syntheticRows } from './synthetic.ts';

const rows = (cases: number, arms: string[]) =>
  syntheticRows({ seed: 3, cases, reps: 2, arms, suite: 'ledgerline', criteria: ['correctness'] });
const errored = (r: ResultRow): ResultRow => ({
  ...r,
  status: 'error',
  error: 'provider down',
  error_code: 'internal',
  scores: {},
});

describe('the paired table at its edges', () => {
  it('an arm whose every cell errored still has a row in the paired table (not enough data, every cell an error)', () => {
    const rs = rows(6, ['base', 'good', 'broken']).map((r) => (r.arm === 'broken' ? errored(r) : r));
    const s = summarize(rs).suites[0]!;
    const broken = s.arms.find((a) => a.arm === 'broken')!;
    const v = broken.scores.correctness?.vsBaseline;
    expect(v).toBeTruthy();
    expect(v!.verdict).toBe('not enough data');
    expect(v!.cells).toMatchObject({ pairs: 0, dropped: { error: 12 } });
    const md = renderMarkdown(summarize(rs));
    expect(md).toMatch(/\| primary \| correctness \| broken \| 0 \(12\/12 cells; dropped 12: 12 error\) \|/);
  });

  it('a family with no testable comparison says so, not "Holm over 0 comparisons, MDE at α/0"', () => {
    const rs = rows(6, ['base', 'broken']).map((r) => (r.arm === 'broken' ? errored(r) : r));
    const md = renderMarkdown(summarize(rs));
    expect(md).not.toMatch(/over 0 comparisons|α\/0/);
    expect(md).toContain(
      'primary: correctness — no comparison could be tested (no pairs), nothing to adjust',
    );
  });

  it('the method note names every reason a cell is dropped from the pairs, notJudged included', () => {
    expect(method.pairing).toMatch(/error/);
    expect(method.pairing).toMatch(/unscored/);
    expect(method.pairing).toMatch(/notJudged/);
    expect(method.pairing).toMatch(/missing/);
  });
});
