import { mkdtempSync, mkdirSync, rmSync, writeFileSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ResultRow } from '../../harness/core/index.ts';
import { compareRuns, loadRun, renderCompareMd } from '../../harness/compare/index.ts';
import { main } from '../../harness/cli/main.ts';
import { syntheticRows } from '../reports/synthetic.ts';

const root = mkdtempSync(join(tmpdir(), 'handoff-compare-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function writeRun(name: string, rows: ResultRow[]): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'results.jsonl'),
    rows.map((r) => JSON.stringify({ ...r, run_id: name })).join('\n') + '\n',
  );
  return dir;
}

const arms = ['inline', 'summary[n=10]', 'summary[n=1]'];
const base = (seed: number, effects: Record<string, number> = {}) =>
  syntheticRows({ seed, cases: 12, reps: 2, arms, effects, criteria: ['correctness', 'provenance'] });

describe('compareRuns', () => {
  it('pairs cell by cell and finds a planted shift of one arm as B − A, Holm over the declared family', () => {
    const a = base(3);
    // B: the same cells, summary[n=1] scores 2 points lower on every cell, others unchanged.
    const b = a.map((r) =>
      r.arm === 'summary[n=1]'
        ? {
            ...r,
            scores: Object.fromEntries(
              Object.entries(r.scores).map(([k, v]) => [k, Math.max(1, (v ?? 3) - 2)]),
            ),
          }
        : r,
    );
    const c = compareRuns(loadRun(writeRun('a1', a)), loadRun(writeRun('b1', b)));
    expect(c.scope.sameExperiment).toBe(true);
    expect(c.scope.pairedCells).toBe(a.length);
    const s = c.suites[0]!;
    expect(s.family.size).toBe(6); // 3 arms × 2 criteria with a p each
    expect(s.arms).toEqual(['inline', 'summary[n=1]', 'summary[n=10]']); // natural order, baseline first
    const shifted = s.diffs.find((d) => d.arm === 'summary[n=1]' && d.criterion === 'correctness')!;
    expect(shifted.d.diff).toBeLessThan(-0.5);
    expect(shifted.verdict).toBe('worse');
    expect(shifted.pHolm!).toBeGreaterThanOrEqual(shifted.d.p!);
    const same = s.diffs.find((d) => d.arm === 'inline' && d.criterion === 'correctness')!;
    expect(same.d.diff).toBe(0);
    expect(same.verdict).toBe('within noise');
    // Every flipped cell is a summary[n=1] cell that passed in A and fails in B.
    expect(s.flipped.length).toBeGreaterThan(0);
    for (const x of s.flipped) {
      expect(x.arm).toBe('summary[n=1]');
      expect(x.direction).toBe('pass→fail');
      expect(Number(x.a)).toBeGreaterThanOrEqual(4);
    }
  });

  it('lists an error cell as a fail and survival per stage side by side', () => {
    const a = base(4);
    const b = a.map((r, i) =>
      i === 0
        ? { ...r, status: 'error' as const, error: 'boom', error_code: 'internal' as const, scores: {} }
        : {
            ...r,
            detail: {
              ...r.detail!,
              survival: r.detail!.survival.map((m) => ({ ...m, answer: 'absent' as const })),
            },
          },
    );
    const first = a[0]!;
    const wasPass = (first.scores.correctness ?? 0) >= 4;
    const c = compareRuns(loadRun(writeRun('a2', a)), loadRun(writeRun('b2', b)));
    const s = c.suites[0]!;
    expect(s.flipped.some((x) => x.cellId === first.cell_id)).toBe(wasPass);
    const answer = s.survival.filter((x) => x.stage === 'answer');
    expect(answer.length).toBeGreaterThan(0);
    for (const x of answer) expect(x.b.kept).toBe(0);
    expect(answer.some((x) => x.a.kept > 0)).toBe(true);
    // The error cell's pair is left out of usage and survival: pairs = ok in both.
    const inline = s.usage.find((u) => u.arm === first.arm)!;
    expect(inline.pairs).toBe(a.filter((r) => r.arm === first.arm).length - 1);
  });

  it('compares different experiments only on what they share, and says so', () => {
    const a = base(5);
    const b = syntheticRows({ seed: 6, cases: 8, reps: 2, arms: ['inline', 'summary[n=1]', 'brick'] }).map(
      (r) => (r.arm === 'summary[n=1]' ? { ...r, strategy: 'other-strategy' } : r),
    );
    const c = compareRuns(loadRun(writeRun('a3', a)), loadRun(writeRun('b3', b)));
    expect(c.scope.sameExperiment).toBe(false);
    expect(c.scope.pairedCells).toBe(8 * 2); // inline only: 8 shared cases × 2 reps
    const notes = c.scope.notes.join('\n');
    expect(notes).toMatch(/not the same experiment/);
    expect(notes).toMatch(/arm summary\[n=10\] of synthetic is only in A/);
    expect(notes).toMatch(/arm brick of synthetic is only in B/);
    expect(notes).toMatch(/summary\[n=1\] of synthetic is not the same arm in both runs/);
    expect(notes).toMatch(/ran only in A .*case-08/);
    expect(c.suites[0]!.arms).toEqual(['inline']);
    expect(renderCompareMd(c, () => '#')).toContain(
      '**Not the same experiment — compared only on what they share.**',
    );
  });

  it('refuses two runs with no cell in common, naming both', () => {
    const a = writeRun('a4', base(7));
    const b = writeRun('b4', syntheticRows({ seed: 7, cases: 2, reps: 1, arms: ['x'], suite: 'other' }));
    expect(() => compareRuns(loadRun(a), loadRun(b))).toThrow(/no cell in common.*different experiments/);
  });
});

describe('handoff-eval compare (CLI)', () => {
  it('writes md, json and html with the models and harness versions in the header and links per flipped cell', async () => {
    const a = base(8);
    const b = a.map((r) =>
      r.arm === 'inline' ? { ...r, scores: { correctness: 1, provenance: 1 }, harness_version: 'test-2' } : r,
    );
    const out = join(root, 'out');
    const code = await main([
      'compare',
      writeRun('a5', a),
      writeRun('b5', b),
      '--format',
      'md,json,html',
      '--out',
      out,
    ]);
    expect(code).toBe(0);
    const files = readdirSync(out).sort();
    expect(files.map((f) => f.split('.').pop())).toEqual(['html', 'json', 'md']);
    const md = readFileSync(join(out, files[2]!), 'utf8');
    expect(md).toContain('sim:sim-large');
    expect(md).toMatch(
      /harness versions differ: A test · B test, test-2|harness versions differ: A test · B test-2/,
    );
    expect(md).toMatch(/\[A\]\(\.\.\/a5\/report\.html#cell%3Asynthetic%2Fcase-\d+%2Finline%2F\d\), \[B\]/);
    const json = JSON.parse(readFileSync(join(out, files[1]!), 'utf8'));
    expect(json.suites[0].flipped.length).toBeGreaterThan(0);
    const html = readFileSync(join(out, files[0]!), 'utf8');
    expect(html).toContain('Content-Security-Policy');
    expect(html).not.toMatch(/<script/i);
  });

  it('exits 2 naming the file for a missing journal or a bad format', async () => {
    const a = writeRun('a6', base(9));
    expect(await main(['compare', a, join(root, 'nope')])).toBe(2);
    expect(await main(['compare', a, a, '--format', 'pdf'])).toBe(2);
  });
});
