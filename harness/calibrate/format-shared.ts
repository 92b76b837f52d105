import type { SuiteCalibration } from './calibrate.ts';

const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(1)}%` : '–');

/** The shared-seed regime's table (shared.ts): one row per suite that ran it. */
export function formatShared(
  results: readonly SuiteCalibration[],
  missed: (r: SuiteCalibration) => string[],
): string[] {
  const runs = results.filter((r) => r.shared);
  if (runs.length === 0) return [];
  const lines = [
    `Shared-seed regime: the suite's own, different arms at one run seed (common random numbers, as reports compare them). Family-wise error: the arms' labels permuted within each case (a true null between different strategies); coverage: each arm with +1 at probability ${runs[0]!.effect} on its scores, the interval against the arm's pooled true difference + ${runs[0]!.effect}.`,
    '',
    '| suite | arms | replications | FWER primary | FWER secondary | planted: 95% CI covers | planted: found | truth ± SE (primary, per arm) | tests | targets |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | --- | --- | --- |',
  ];
  for (const r of runs) {
    const s = r.shared!;
    const truths = s.arms
      .slice(1)
      .flatMap((a) => {
        const t = s.truth[`${a}/${r.primaryCriterion}`];
        return t ? [`${a} ${t.diff >= 0 ? '+' : ''}${t.diff.toFixed(3)} ± ${t.se.toFixed(3)}`] : [];
      })
      .join('; ');
    const tests = Object.entries(s.tests)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ');
    const miss = missed(r).filter((m) => m.startsWith('shared-seed'));
    lines.push(
      `| ${r.suite} | ${s.arms.join(', ')} | ${s.replications} | ${pct(s.primaryFlagged, s.replications)} | ${r.criteria.length > 1 ? pct(s.secondaryFlagged, s.replications) : '–'} | ${pct(s.covered, s.planted)} (${s.covered}/${s.planted}) | ${pct(s.detected, s.planted)} | ${truths || '–'} | ${tests} | ${miss.length ? `MISSED: ${miss.join('; ')}` : 'met'} |`,
    );
  }
  return [...lines, ''];
}
