import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError } from '../../harness/core/errors.ts';
import {
  appendStepSummary,
  BASELINE_SCHEMA,
  createBaseline,
  evaluateGate,
  parseBaseline,
  renderBaseline,
  renderGateMarkdown,
} from '../../harness/gate/index.ts';
import { pairedDifference, scoredCells } from '../../reports/index.ts';
import { syntheticRows } from '../reports/synthetic.ts';

const rows = syntheticRows({
  seed: 9,
  cases: 6,
  reps: 2,
  arms: ['inline', 'contract'],
  suite: 'ledgerline',
  criteria: ['correctness'],
  text: { answer: 'SECRET ANSWER TEXT', seen: 'SECRET TRANSCRIPT TEXT' },
});

describe('baseline files', () => {
  const baseline = createBaseline(rows);
  const text = renderBaseline(baseline);

  it('keeps summary statistics and per-cell scores, never transcripts or answers', () => {
    expect(baseline.schema).toBe(BASELINE_SCHEMA);
    expect(baseline.identity).toMatchObject({
      seed: 9,
      harnessVersion: 'test',
      simulated: true,
      suites: [{ suite: 'ledgerline', arms: ['inline', 'contract'] }],
    });
    const arm = baseline.suites[0]!.arms.find((a) => a.arm === 'contract')!;
    expect(arm.scores.correctness!.cells).toHaveLength(12);
    expect(arm.scores.correctness!.cells[0]).toEqual({
      case_id: 'case-00',
      rep: 0,
      value: rows.find((r) => r.cell_id === 'ledgerline/case-00/contract/0')!.scores.correctness,
    });
    expect(text).not.toContain('SECRET');
    expect(text).not.toContain('detail');
  });

  it('writes one cell per line and reads back to the same object', () => {
    expect(text).toContain('\n                {"case_id":"case-00","rep":0,"value":');
    expect(parseBaseline(text, 'b.json')).toEqual(baseline);
  });

  it('pairs exactly as rows do: the stored cells give the same paired difference', () => {
    const arm = baseline.suites[0]!.arms.find((a) => a.arm === 'inline')!;
    const contract = rows.filter((r) => r.arm === 'contract');
    const fromFile = pairedDifference(scoredCells(contract, 'correctness'), arm.scores.correctness!.cells);
    const fromRows = pairedDifference(
      scoredCells(contract, 'correctness'),
      scoredCells(
        rows.filter((r) => r.arm === 'inline'),
        'correctness',
      ),
    );
    expect(fromFile).toEqual(fromRows);
  });

  it('refuses malformed files and other schemas with the file and field named', () => {
    const bad = (t: string) => () => parseBaseline(t, 'b.json');
    expect(bad('{ not json')).toThrow(InputError);
    expect(bad('{ not json')).toThrow(/b\.json: not valid JSON/);
    expect(bad(text.replace(BASELINE_SCHEMA, 'handoff-eval/baseline@0'))).toThrow(
      /b\.json: schema: expected "handoff-eval\/baseline@1", got "handoff-eval\/baseline@0"/,
    );
    expect(bad('[]')).toThrow(/schema: expected/);
    const noTokens = JSON.parse(text);
    delete noTokens.suites[0].arms[1].tokens;
    expect(bad(JSON.stringify(noTokens))).toThrow(
      /b\.json: suites\[0\]\.arms\[1\]: must have required property 'tokens'/,
    );
    const badCell = JSON.parse(text);
    badCell.suites[0].arms[0].scores.correctness.cells[3].value = 'five';
    expect(bad(JSON.stringify(badCell))).toThrow(
      /suites\[0\]\.arms\[0\]\.scores\.correctness\.cells\[3\]\.value/,
    );
    const twice = JSON.parse(text);
    twice.suites[0].arms[1].arm = 'inline';
    expect(bad(JSON.stringify(twice))).toThrow(/suites\[0\]\.arms\[1\]\.arm: "inline" appears twice/);
  });
});

describe('the verdict in Markdown', () => {
  const baseline = createBaseline(rows);
  const thresholds = {
    minMean: { correctness: 1 },
    maxDrop: 0.25,
    maxTokenGrowthPct: 10,
    maxErrorRate: 0.02,
    minCells: 6,
  };

  it('has one table row per check with baseline, current, Δ [CI], threshold and verdict', () => {
    const run = rows.map((r) =>
      r.arm === 'contract' ? { ...r, scores: { correctness: r.scores.correctness! - 1 } } : r,
    );
    const result = evaluateGate(run, baseline, thresholds);
    const md = renderGateMarkdown(result, { baselineFile: 'baseline.json' });
    expect(md).toMatch(/^## handoff-eval gate: REGRESSION/);
    const table = md.split('\n').filter((l) => l.startsWith('| ledgerline'));
    expect(table).toHaveLength(result.checks.length);
    const drop = table.find((l) => l.includes('| contract | correctness (drop)'))!;
    expect(drop).toMatch(
      /\| −1\.00 \[−1\.00, −1\.00\] \| drop ≤ 0\.25, beyond noise \| \*\*regression\*\* — drop 1\.00 > 0\.25, CI excludes 0 \|$/,
    );
    expect(md).toContain('Simulated — not a measurement of any model.');
  });

  it('lists the identity mismatch instead of a table', () => {
    const md = renderGateMarkdown(
      evaluateGate(
        rows.map((r) => ({ ...r, seed: 10 })),
        baseline,
        thresholds,
      ),
    );
    expect(md).toMatch(/^## handoff-eval gate: cannot evaluate/);
    expect(md).toContain('- seed: run 10 vs baseline 9');
    expect(md).not.toContain('| suite |');
  });

  it('appends to the step summary file, keeping what earlier steps wrote', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'he-summary-')), 'summary.md');
    writeFileSync(file, '# earlier step\n');
    appendStepSummary(file, 'first');
    appendStepSummary(file, 'second\n');
    expect(readFileSync(file, 'utf8')).toBe('# earlier step\nfirst\nsecond\n');
  });
});
