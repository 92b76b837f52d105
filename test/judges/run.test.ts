import { describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ResultRow } from '../../harness/core/index.ts';
import { repoRoot, runCli } from '../support/cli.ts';
import { judgeReliability } from '../../judges/reliability.ts';

/** The judges inside a real run: the fixture suite on the sim, k = 3 judge samples. */
describe('judges in a run (sim, judge.samples = 3)', () => {
  it('rows carry k samples per criterion, median scores, judge_errors, checks, and the survival classifier deciding (issue 26)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'he-judges-'));
    writeFileSync(
      join(dir, 'eval.config.ts'),
      `export default { casesDir: ${JSON.stringify(join(repoRoot, 'test/fixtures/cases'))}, reps: 10, seed: 11, cache: false, judge: { samples: 3 } };\n`,
    );
    const r = runCli(['run', '--out', join(dir, 'runs'), '--quiet'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const runDir = join(dir, 'runs', readdirSync(join(dir, 'runs'))[0]!);
    const rows = readFileSync(join(runDir, 'results.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as ResultRow);
    expect(rows).toHaveLength(3 * 10);
    for (const row of rows) {
      expect(row.status).toBe('ok');
      // The sim's reader classifies every labelled claim at both stages; the cues are the first opinion.
      expect(row.survival_decided_by).toBe('classifier');
      expect(row.survival_agreement).toEqual(expect.any(Number));
      expect(Object.keys(row.survival_disagreement ?? {})).toEqual(['payload', 'answer']);
      expect(row.checks.map((c) => c.name)).toEqual([
        'no_recap_signature',
        'markers_present',
        'tool_pairing_intact',
      ]);
      for (const s of row.detail!.judge) {
        expect(s.samples).toHaveLength(3);
        const valid = s.samples.filter((x): x is number => x !== null).sort();
        if (valid.length === 3) expect(s.score).toBe(valid[1]);
        expect(row.scores[s.criterion]).toBe(s.score);
      }
      expect(row.judge_errors).toBe(row.detail!.judge.filter((s) => s.score === null).length);
    }
    const rel = judgeReliability(rows);
    expect(rel.map((x) => x.criterion).sort()).toEqual(['caveat_carrying', 'correctness']);
    for (const x of rel) {
      expect(x.samples).toBe(3);
      // Sim judge noise (15% per score) makes samples disagree sometimes, but not mostly. The three arms'
      // answers are the same text here, so there are 10 independent units (one per rep): expected
      // exact agreement 0.85³ + 0.15³ + (1 − those)·⅓ ≈ 0.745, ± 0.10.
      expect(x.testRetest.exact).toBeGreaterThan(0.5);
      expect(x.testRetest.exact).toBeLessThan(1);
    }
    const calls = readFileSync(join(runDir, 'calls.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { purpose: string });
    expect(calls.filter((c) => c.purpose === 'judge').length).toBeGreaterThanOrEqual(3 * rows.length);
    // Two classify calls per cell (payload, answer), and one more per malformed reply retried.
    expect(calls.filter((c) => c.purpose === 'classify').length).toBeGreaterThanOrEqual(2 * rows.length);
  });
});
