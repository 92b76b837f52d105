import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ResultRow } from '../../harness/core/index.ts';
import { scaffoldCase } from '../../cases/scaffold.ts';
import { runCli } from '../support/cli.ts';

/**
 * A session as `case from-session` scaffolds it, with its proposed labels dropped — the case nobody
 * labelled: no assertions, facts or caveats.
 */
function scaffolded(dir: string): unknown {
  const session = join(dir, 'session.json');
  writeFileSync(
    session,
    JSON.stringify([
      { role: 'user', content: 'Which merchants pin 2023-10?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'query', arguments: '{"sql":"q"}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'm_1, m_2' },
      { role: 'assistant', content: 'Two merchants pin it. I tested it and everything passes.' },
    ]),
  );
  const raw = scaffoldCase({ file: session, task: 'Which merchants break?', direction: 'escalation' });
  return { ...raw, assertions: [] };
}

function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'he-unlabelled-'));
  const suite = join(dir, 'cases', 'scaffolded');
  mkdirSync(join(suite, 'cases'), { recursive: true });
  writeFileSync(
    join(suite, 'suite.json'),
    JSON.stringify({
      id: 'scaffolded',
      title: 'Scaffolded',
      description: 'a case nobody labelled',
      direction: 'escalation',
      criteria: ['correctness', 'caveat_carrying', 'restraint', 'verification_evidence', 'proportional'],
      baselineArm: 'inline',
      arms: [
        { name: 'inline', strategy: 'inline', models: { source: 'large', receiver: 'large' } },
        { name: 'final', strategy: 'final-message', models: { source: 'large', receiver: 'large' } },
      ],
    }),
  );
  writeFileSync(join(suite, 'cases', 'raw.json'), JSON.stringify(scaffolded(dir)));
  writeFileSync(
    join(dir, 'eval.config.ts'),
    `export default { casesDir: ${JSON.stringify(join(dir, 'cases'))}, reps: 2, seed: 3, cache: false };\n`,
  );
  return dir;
}

describe('an unlabelled case is not a perfect score', () => {
  const dir = workspace();

  it('validate warns, names the criteria it cannot score, and still exits 0', () => {
    const r = runCli(['validate', join(dir, 'cases')], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /warn .*raw\.json \(case .*\): assertions: none labelled — correctness, caveat_carrying, restraint, verification_evidence will be unscored/,
    );
    expect(r.stdout).toContain('1 warning(s); nothing invalid');
  });

  it('a run leaves the criteria that need labels unscored with the reason — null, counted, shown, never 5 or 0', () => {
    const r = runCli(['run', '--out', join(dir, 'runs'), '--quiet'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const runDir = join(dir, 'runs', readdirSync(join(dir, 'runs'))[0]!);
    const rows = readFileSync(join(runDir, 'results.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as ResultRow);
    expect(rows).toHaveLength(4);
    for (const row of rows) {
      for (const c of ['correctness', 'caveat_carrying', 'restraint', 'verification_evidence'])
        expect(row.scores[c], `${row.arm} ${c}`).toBeNull();
      expect(row.unscored).toMatchObject({
        correctness: 'unscored: the case lists no reference facts',
        caveat_carrying: 'unscored: the case labels no caveats to carry',
        restraint: 'unscored: the case has no labelled assertions',
        verification_evidence: 'unscored: the case lists no tool evidence',
      });
      expect(typeof row.scores.proportional).toBe('number');
      expect(row.judge_errors).toBe(0);
      const judged = row.detail!.judge.find((j) => j.criterion === 'correctness')!;
      expect(judged).toMatchObject({ score: null, samples: [], unscored: row.unscored!.correctness });
    }
    const report = readFileSync(join(runDir, 'report.md'), 'utf8');
    expect(report).toMatch(/\| correctness \| inline \(baseline\) \| 0 \| – \| 2 \(2 without labels\) \|/);
    expect(report).toContain(
      '- not judged for want of labels: correctness on 4 cells — unscored: the case lists no reference facts',
    );
    const json = JSON.parse(readFileSync(join(runDir, 'report.json'), 'utf8'));
    const inline = json.suites[0].arms.find((a: { arm: string }) => a.arm === 'inline');
    expect(inline.scores.correctness).toMatchObject({ n: 0, unscored: 2, mean: null });
    expect(json.suites[0].judge.errors).toBe(0);
  });
});
