import { beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Assertion, ResultRow, SurvivalMark, SurvivalResult } from '../../harness/core/index.ts';
import { indexText, matchClaim } from '../../harness/core/text/cues.ts';
import { spawnSync } from 'node:child_process';
import { cliPath, repoRoot } from '../support/cli.ts';
import { shippedSuites } from '../cases/helpers.ts';
import { recapSignature } from '../../harness/core/text/signals.ts';
import { defaultSimVoice } from '../../harness/providers/sim/wordings.ts';
import { sharedDefaultRun } from '../support/shared-run.ts';

/**
 * The paraphrasing sim (issue 26): the shipped config run twice through the real CLI, with the sim
 * wording every claim from its bank (`sim: { paraphrase: true }`, the default) and with it saying the
 * cases' recorded statements (`false`), the survival classifier on in both (its default). The first is
 * the default experiment exactly (`run --no-cache`), made once for the files that read it
 * (test/support/shared-run.ts); that it paraphrases with the classifier on is asserted below. The survival figures *as
 * the classifier decides them* must agree within noise: whatever depends on a claim's wording rather
 * than on what it says would move them. And the literal cue matcher, run over the same answers, must
 * lose the paraphrased qualifiers — the check that a code path still deciding on cues shows.
 *
 * The classifier's mark is the row's `llm` mark where the row has one (main today: the cue matcher's
 * marks are the row's figures and the classifier's are recorded beside them), else the row's own
 * mark (once the classifier decides the row, issue 26 item 1).
 */
type Stage = 'payload' | 'answer';
type Row = ResultRow & { detail: { survival: SurvivalResult[]; answer?: string } };

function readRows(runDir: string): Row[] {
  return readFileSync(join(runDir, 'results.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Row)
    .filter((row) => row.status === 'ok');
}

function run(name: string, paraphrase: boolean): Row[] {
  const dir = mkdtempSync(join(tmpdir(), `he-paraphrase-${name}-`));
  const config = readFileSync(join(repoRoot, 'eval.config.ts'), 'utf8')
    .replace(/^import .*$/m, '')
    .replace(
      'export default defineConfig({',
      `export default ({ casesDir: ${JSON.stringify(join(repoRoot, 'cases'))}, cache: false, sim: { paraphrase: ${paraphrase} },`,
    )
    .replace(
      "judge: { model: 'judge', samples: 1 }",
      "judge: { model: 'judge', samples: 1, classify: 'on' }",
    );
  expect(config).toContain("classify: 'on'");
  writeFileSync(join(dir, 'eval.config.ts'), config);
  // The whole shipped config with the classifier on: longer than runCli's two minutes on a busy machine.
  const r = spawnSync(process.execPath, [cliPath, 'run', '--out', join(dir, 'runs'), '--quiet'], {
    cwd: dir,
    env: { ...process.env, CI: 'true' },
    encoding: 'utf8',
    timeout: 600_000,
  });
  expect(r.status, r.stderr).toBe(0);
  return readRows(join(dir, 'runs', readdirSync(join(dir, 'runs'))[0]!));
}

const classifierMark = (s: SurvivalResult, stage: Stage): SurvivalMark | null =>
  s.llm ? s.llm[stage] : s[stage];

/** Kept shares by suite · kind · stage, as the classifier marks them. */
function figures(rows: Row[]): Map<string, { kept: number; n: number }> {
  const out = new Map<string, { kept: number; n: number }>();
  for (const row of rows)
    for (const s of row.detail.survival)
      for (const stage of ['payload', 'answer'] as const) {
        const mark = classifierMark(s, stage);
        if (mark === null) continue;
        const key = `${row.suite} · ${s.kind} · ${stage}`;
        const f = out.get(key) ?? { kept: 0, n: 0 };
        f.n++;
        if (mark === 'kept') f.kept++;
        out.set(key, f);
      }
  return out;
}

describe('the paraphrasing sim', () => {
  let on: Row[] = [];
  let off: Row[] = [];
  let onConfig: { judge: { classify: string }; sim: { paraphrase?: boolean } };
  beforeAll(async () => {
    const shared = await sharedDefaultRun();
    on = readRows(shared);
    onConfig = JSON.parse(readFileSync(join(shared, 'config.json'), 'utf8'));
    off = run('off', false);
  }, 1_200_000);

  it('compares the default experiment: the sim paraphrases and the classifier is on by default', () => {
    expect(defaultSimVoice.paraphrase).toBe(true);
    expect(onConfig.sim.paraphrase).toBeUndefined();
    expect(onConfig.judge.classify).toBe('on');
  });

  it('gives the same classifier-decided survival figures as the sim that speaks in the cases’ words, within noise', () => {
    const a = figures(on);
    const b = figures(off);
    expect([...a.keys()].sort()).toEqual([...b.keys()].sort());
    expect(a.size).toBeGreaterThanOrEqual(30);
    const outside: string[] = [];
    for (const [key, x] of a) {
      const y = b.get(key)!;
      const p = (x.kept + y.kept) / (x.n + y.n);
      // Two standard errors of the difference of two independent shares (the two runs share their
      // draws, so their real difference is smaller), plus one point for rounding on small cells.
      const tolerance = 2 * Math.sqrt(p * (1 - p) * (1 / x.n + 1 / y.n)) + 0.01;
      const diff = x.kept / x.n - y.kept / y.n;
      if (Math.abs(diff) > tolerance)
        outside.push(
          `${key}: ${(x.kept / x.n).toFixed(3)} vs ${(y.kept / y.n).toFixed(3)} (±${tolerance.toFixed(3)})`,
        );
    }
    expect(outside).toEqual([]);
  });

  it('really paraphrases: no caveat reaches an answer (beyond a recap) in its recorded words when on; many do when off', async () => {
    const statements = new Set(
      (await shippedSuites()).flatMap((s) =>
        s.cases.flatMap((c) => c.assertions.filter((x) => x.kind !== 'confident').map((x) => x.statement)),
      ),
    );
    // A recap quotes the earlier turns as they were written (the source's own words): not the sim's voice.
    const spoken = (r: Row) =>
      (r.detail.answer ?? '')
        .split('\n')
        .filter((l) => !l.startsWith(recapSignature))
        .join('\n');
    const verbatim = (rows: Row[]) =>
      rows.reduce((n, r) => n + [...statements].filter((st) => spoken(r).includes(st)).length, 0);
    expect(verbatim(on)).toBe(0);
    expect(verbatim(off)).toBeGreaterThan(500);
  });

  it('leaves the literal cue matcher behind: over the same answers it loses the qualifiers the classifier keeps', async () => {
    const byCase = new Map(
      (await shippedSuites()).flatMap((s) => s.cases.map((c) => [`${s.id}/${c.id}`, c.assertions] as const)),
    );
    const shares = (rows: Row[]) => {
      let cue = 0;
      let classifier = 0;
      let n = 0;
      for (const row of rows) {
        const assertions = new Map<string, Assertion>(
          (byCase.get(`${row.suite}/${row.case_id}`) ?? []).map((x) => [x.id, x]),
        );
        const answer = indexText(row.detail.answer ?? '');
        for (const s of row.detail.survival) {
          const a = assertions.get(s.assertionId);
          if (!a || a.kind === 'confident') continue;
          n++;
          if (matchClaim(answer, a).qualified) cue++;
          if (classifierMark(s, 'answer') === 'kept') classifier++;
        }
      }
      return { cue: cue / n, classifier: classifier / n };
    };
    const paraphrased = shares(on);
    const recorded = shares(off);
    expect(paraphrased.classifier).toBeGreaterThan(0.3);
    expect(paraphrased.cue).toBeLessThan(0.05);
    // In the cases' own words the matcher and the classifier read the answers alike.
    expect(Math.abs(recorded.cue - recorded.classifier)).toBeLessThan(0.05);
  });
});
