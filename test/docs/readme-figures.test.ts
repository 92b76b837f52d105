import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Summary } from '../../reports/summary/types.ts';
import { readmeFigures, type ReadmeFigure } from '../../harness/readme/figures.ts';
import { checkFigures, refreshReadme, templatePattern } from '../../harness/readme/check.ts';
import { main } from '../../harness/readme/main.ts';
import { repoRoot } from '../support/cli.ts';
import { sharedDefaultRun } from '../support/shared-run.ts';

/**
 * README.md's default-run figures (issue 14: "every figure in it matches a fresh run"), checked the way
 * `npm run readme:figures` checks them. When sim behaviour changes, this test fails until the README is
 * refreshed: `npm run readme:figures -- --write`, then read the prose around what changed.
 */
const readme = [
  'intro',
  '| seed figure | source | this harness (sim) | set or emerges |',
  '| --- | --- | --- | --- |',
  '| summary: window ≈ 23,900 | ledgerline | 21,992; 344 tokens | emerges: 344 tokens of budget |',
  '| owned session | ADR | owner 4.93 = pro 4.93 | emerges |',
  'that is why (inline: 76% of confident claims), and why',
].join('\n');
const figures = (window: string, owner: string): ReadmeFigure[] => [
  {
    anchor: '| summary: window',
    column: 3,
    template: '{window}; {output} tokens',
    values: { window, output: '344' },
  },
  {
    anchor: '| owned session',
    column: 3,
    template: 'owner {owner} = pro {pro}',
    values: { owner, pro: '4.93' },
  },
  { anchor: 'that is why', template: '(inline: {c} of confident claims)', values: { c: '76%' } },
];

describe('README figures: read off their line, compared, rewritten', () => {
  it('reads each slot from its table cell or line, and finds nothing to change when they agree', () => {
    const checks = checkFigures(readme, figures('21,992', '4.93'));
    expect(checks.map((c) => [c.line, c.differs, c.problem])).toEqual([
      [4, [], null],
      [5, [], null],
      [6, [], null],
    ]);
    expect(checks[0]!.readme).toEqual({ window: '21,992', output: '344' });
    expect(refreshReadme(readme, figures('21,992', '4.93'))).toBe(readme);
  });

  it('names the slot that differs and rewrites only it (the other column and lines untouched)', () => {
    const f = figures('22,010', '4.89');
    const checks = checkFigures(readme, f);
    expect(checks[0]!.differs).toEqual(['window']);
    expect(checks[1]!.differs).toEqual(['owner']);
    const out = refreshReadme(readme, f).split('\n');
    expect(out[3]).toBe(
      '| summary: window ≈ 23,900 | ledgerline | 22,010; 344 tokens | emerges: 344 tokens of budget |',
    );
    expect(out[4]).toBe('| owned session | ADR | owner 4.89 = pro 4.93 | emerges |');
    expect(out[5]).toBe(readme.split('\n')[5]);
    expect(checkFigures(out.join('\n'), f).every((c) => c.differs.length === 0)).toBe(true);
  });

  it('says when a figure cannot be found rather than passing it', () => {
    const [gone] = checkFigures(readme, [{ anchor: 'no such line', template: '{x} y', values: { x: '1' } }]);
    expect(gone!.problem).toMatch(/anchor on 0 lines/);
    const [moved] = checkFigures(readme, [
      { anchor: '| owned session', column: 3, template: 'owner {o} = boss {p}', values: { o: '1', p: '2' } },
    ]);
    expect(moved!.problem).toMatch(/template is not where/);
    expect(templatePattern('{a} of {b}').re.source).toBe('^(.+?) of (.+?)$');
  });

  it('exits 2 on a run directory without report.json or an unknown flag', async () => {
    expect(await main([tmpdir()])).toBe(2);
    expect(await main(['--nope'])).toBe(2);
  });
});

describe('README.md against a fresh default run', () => {
  it('every figure of "What the default experiment shows" is what `run --no-cache` gives', async () => {
    // The whole default experiment through the CLI, made once for the files that read it (test/support/shared-run.ts).
    const run = await sharedDefaultRun();
    const summary = JSON.parse(readFileSync(join(run, 'report.json'), 'utf8')) as Summary;
    const checks = checkFigures(readFileSync(join(repoRoot, 'README.md'), 'utf8'), readmeFigures(summary));
    expect(checks.length).toBeGreaterThanOrEqual(19);
    const wrong = checks
      .filter((c) => c.problem || c.differs.length)
      .map((c) => ({ line: c.line, anchor: c.anchor, problem: c.problem, readme: c.readme, run: c.run }));
    // Refresh with `npm run readme:figures -- --write` (docs: README, "What the default experiment shows").
    expect(wrong).toEqual([]);
  }, 900_000);
});
