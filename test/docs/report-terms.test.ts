import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { method } from '../../reports/summarize.ts';
import { survivalHeading } from '../../reports/format.ts';
import { repoRoot } from '../support/cli.ts';

/**
 * Issue 21, item 7: every name a report prints is documented, and each table is named for what it
 * shows. The check names are read from the code that emits them, so a new check without a doc fails.
 */
const read = (f: string) => readFileSync(join(repoRoot, f), 'utf8');

describe('report terms are documented and named for what they show', () => {
  const checkNames = [...read('judges/checks.ts').matchAll(/name: '(\w+)'/g)].map((m) => m[1]!);

  it('every deterministic check the reports can show is defined in docs/judges.md and in the method note', () => {
    expect(checkNames).toEqual(
      expect.arrayContaining(['not_searched_named', 'contradictions_surfaced', 'no_second_assignment']),
    );
    const judges = read('docs/judges.md');
    for (const name of checkNames) {
      expect(judges, `docs/judges.md: ${name}`).toMatch(new RegExp(`^- \`${name}\` —`, 'm'));
      expect(method.checks, `method.checks: ${name}`).toContain(name);
    }
  });

  it('the survival table covers all four kinds and says so: "by kind", in every format', () => {
    expect(survivalHeading).toMatch(/^Assertion survival by kind/);
    for (const f of [
      'reports/format.ts',
      'reports/markdown.ts',
      'reports/html/page.ts',
      'reports/html/charts.ts',
    ])
      expect(read(f), f).not.toMatch(/Assumption survival/i);
  });

  it('each token figure a report prints is defined once in docs/results.md', () => {
    const results = read('docs/results.md');
    for (const column of [
      'handoff_tokens',
      'receiver_window_tokens_before',
      'receiver_window_tokens_after',
      'source_output_tokens',
    ])
      expect(results, column).toContain(`\`${column}\``);
  });
});
