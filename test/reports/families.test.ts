import { describe, expect, it } from 'vitest';
import type { ResultRow } from '../../harness/core/index.ts';
import { summarize } from '../../reports/summarize.ts';
import { renderMarkdown } from '../../reports/markdown.ts';
import { renderHtml } from '../../reports/html/page.ts';
import { holm, tQuantile } from '../../reports/stats/index.ts';
import type { Comparison, SuiteSummary } from '../../reports/summary/types.ts';
import { syntheticRows } from './synthetic.ts';

const criteria = ['correctness', 'caveat_carrying', 'provenance'];
const rowsOf = (cases = 30, extra: Partial<ResultRow> = {}) =>
  syntheticRows({
    seed: 5,
    cases,
    reps: 2,
    arms: ['inline', 'summary', 'contract', 'transcript'],
    suite: 'ledgerline',
    criteria,
  }).map((r) => ({ ...r, ...extra }));
const comparisonsOf = (s: SuiteSummary, criterion: string): Comparison[] =>
  s.arms.flatMap((a) => (a.scores[criterion]?.vsBaseline ? [a.scores[criterion].vsBaseline] : []));

describe('families of comparisons', () => {
  it('primary: Holm across arms; secondary: Holm across arms × the other criteria', () => {
    const s = summarize(rowsOf()).suites[0]!;
    expect(s.primaryCriterion).toBe('correctness');
    expect(s.families.primary).toMatchObject({ name: 'primary', size: 3, criteria: ['correctness'] });
    expect(s.families.secondary).toMatchObject({
      name: 'secondary',
      size: 6,
      criteria: ['caveat_carrying', 'provenance'],
    });
    const primary = comparisonsOf(s, 'correctness');
    expect(primary.map((c) => c.pHolm)).toEqual(holm(primary.map((c) => c.p)));
    const secondary = [...comparisonsOf(s, 'caveat_carrying'), ...comparisonsOf(s, 'provenance')];
    expect(secondary.every((c) => c.family.name === 'secondary' && c.family.size === 6)).toBe(true);
    expect(secondary.map((c) => c.pHolm)).toEqual(holm(secondary.map((c) => c.p)));
  });

  it("takes the primary criterion from the rows (suite.json / config), else the suite's first criterion", () => {
    const named = summarize(rowsOf(30, { primary_criterion: 'provenance' })).suites[0]!;
    expect(named.primaryCriterion).toBe('provenance');
    expect(named.criteria[0]).toBe('provenance');
    expect(named.arms[1]!.pass!.criterion).toBe('provenance');
    expect(named.arms[1]!.scores.provenance!.vsBaseline!.family.name).toBe('primary');
    expect(named.arms[1]!.scores.correctness!.vsBaseline!.family).toMatchObject({
      name: 'secondary',
      size: 6,
    });
    // A name that is not scored falls back to the first criterion rather than to nothing.
    expect(summarize(rowsOf(30, { primary_criterion: 'nope' })).suites[0]!.primaryCriterion).toBe(
      'correctness',
    );
  });

  it("states the MDE at α/m of the comparison's family, (t(1 − α/2m) + t(0.8)) · SE", () => {
    const s = summarize(rowsOf()).suites[0]!;
    for (const [criterion, m] of [
      ['correctness', 3],
      ['provenance', 6],
    ] as const) {
      const c = comparisonsOf(s, criterion)[0]!;
      expect(c.test).toBe('sign-flip-exact');
      expect(c.mde.alpha).toBeCloseTo(0.05 / m, 15);
      const expected = (tQuantile(1 - 0.05 / (2 * m), c.df) + tQuantile(0.8, c.df)) * c.se!;
      expect(c.mde.value!).toBeCloseTo(expected, 10);
    }
  });
});

describe('pairs behind each comparison', () => {
  it('says how many cells were dropped and why, and puts both means over the same pairs beside Δ', () => {
    const rows = rowsOf(6).map((r) => {
      if (r.arm === 'summary' && r.case_id === 'case-01' && r.rep === 0)
        return { ...r, status: 'error' as const, error: 'boom', error_code: 'internal' as const, scores: {} };
      if (r.arm === 'inline' && r.case_id === 'case-02')
        return { ...r, scores: { ...r.scores, correctness: null } };
      return r;
    });
    const s = summarize(rows).suites[0]!;
    const v = s.arms.find((a) => a.arm === 'summary')!.scores.correctness!.vsBaseline!;
    expect(v.cells).toEqual({
      arm: 12,
      baseline: 12,
      pairs: 9,
      dropped: { error: 1, unscored: 2, notJudged: 0, missing: 0 },
    });
    expect(v.pairs).toBe(9);
    expect(v.means!.treatment - v.means!.baseline).toBeCloseTo(v.diff!, 12);
    const md = renderMarkdown(summarize(rows));
    expect(md).toContain('9 (12/12 cells; dropped 3: 1 error, 2 unscored)');
    expect(md).toContain(`${v.means!.treatment.toFixed(2)} vs ${v.means!.baseline.toFixed(2)}`);
    expect(renderHtml(summarize(rows), rows)).toContain('9 (12/12 cells; dropped 3: 1 error, 2 unscored)');
  });

  it('says when a case is not judged on the criterion at all (its own criteria leave it out), not "unscored"', () => {
    // A case whose `criteria` name only correctness: its rows carry no provenance score at all.
    const rows = rowsOf(6).map((r) => {
      if (r.case_id !== 'case-04') return r;
      const { provenance: _dropped, ...scores } = r.scores;
      return { ...r, scores };
    });
    const v = summarize(rows).suites[0]!.arms.find((a) => a.arm === 'summary')!.scores.provenance!
      .vsBaseline!;
    expect(v.cells).toEqual({
      arm: 12,
      baseline: 12,
      pairs: 10,
      dropped: { error: 0, unscored: 0, notJudged: 2, missing: 0 },
    });
    expect(renderMarkdown(summarize(rows))).toContain(
      '10 (12/12 cells; dropped 2: 2 not a criterion of their case)',
    );
  });

  it('counts cells missing on one side (a filtered or unfinished run)', () => {
    const rows = rowsOf(6).filter((r) => !(r.arm === 'contract' && r.case_id === 'case-03'));
    const v = summarize(rows).suites[0]!.arms.find((a) => a.arm === 'contract')!.scores.correctness!
      .vsBaseline!;
    expect(v.cells).toEqual({
      arm: 10,
      baseline: 12,
      pairs: 10,
      dropped: { error: 0, unscored: 0, notJudged: 0, missing: 2 },
    });
  });
});

describe('every format says which family each verdict belongs to', () => {
  const rows = rowsOf(6);
  const summary = summarize(rows);

  it('report.json: family name, size and α/m on every comparison', () => {
    const json = JSON.parse(JSON.stringify(summary)) as typeof summary;
    for (const a of json.suites[0]!.arms.slice(1))
      for (const c of criteria) {
        const f = a.scores[c]!.vsBaseline!.family;
        expect(f.name).toBe(c === 'correctness' ? 'primary' : 'secondary');
        expect(a.scores[c]!.vsBaseline!.mde.alpha).toBeCloseTo(0.05 / f.size, 12);
      }
  });

  it('report.md and report.html: a family column and each family stated with its m and α/m', () => {
    const md = renderMarkdown(summary);
    expect(md).toContain('primary: correctness — Holm over 3 comparisons, MDE at α/3 = 0.0167');
    expect(md).toContain(
      'secondary: caveat_carrying, provenance — Holm over 6 comparisons, MDE at α/6 = 0.00833',
    );
    expect(md).toMatch(/\| primary \| correctness \| summary \|/);
    expect(md).toMatch(/\| secondary \| provenance \| summary \|/);
    expect(md).toContain('MDE (80% power, α/m)');
    const page = renderHtml(summary, rows);
    expect(page).toContain('<td>secondary</td><td>provenance</td>');
    expect(page).toContain('MDE at α/6 = 0.00833');
  });
});

describe('intervals within the scale', () => {
  it('clips a mean interval to 1–5 and marks it; the exact test with 2 cases is "unbounded", not "p<0.001 worse"', () => {
    // Two cases: b scores 2 on one and 4 on the other, a scores 5 throughout — the "p<0.001 worse".
    const two = syntheticRows({ seed: 9, cases: 2, reps: 3, arms: ['a', 'b'] }).map((r) => ({
      ...r,
      scores: { correctness: r.arm === 'a' ? 5 : r.case_id === 'case-00' ? 2 : 4 },
    }));
    const s = summarize(two).suites[0]!;
    const b = s.arms.find((a) => a.arm === 'b')!.scores.correctness!;
    expect(b.ci![0]).toBeGreaterThanOrEqual(1);
    expect(b.ci![1]).toBeLessThanOrEqual(5);
    expect(b.ciBound).toBe('clipped');
    const v = b.vsBaseline!;
    expect(v.test).toBe('sign-flip-exact');
    expect(v.p).toBe(0.5);
    expect(v.verdict).toBe('within noise');
    expect(v.ci).toEqual([-4, 4]);
    expect(v.ciBound).toBe('unbounded');
    const md = renderMarkdown(summarize(two));
    expect(md).toMatch(/\[1\.00, 5\.00\] clipped|\[\d\.\d\d, 5\.00\] clipped|\[1\.00, \d\.\d\d\] clipped/);
    expect(md).toContain('[-4.00, 4.00] unbounded');
    expect(md).toContain('none: too few cases');
    expect(md).not.toContain('<0.001');
  });
});
