import type { ResultRow } from '../../harness/core/index.ts';
import { judgeReliability as criterionReliability, survivalAgreement } from '../../judges/reliability.ts';
import type { JudgeReliability } from './types.ts';
import { survivalReading } from './survival-reading.ts';

/**
 * Judge errors and unscored counts per criterion; with k ≥ 2 samples per cell, test-retest agreement
 * and Krippendorff's α (ordinal), computed by judges/reliability.ts; and, where the LLM survival
 * classification ran, its agreement with the deterministic matcher.
 */
export function judgeReliability(rows: readonly ResultRow[], criteria: readonly string[]): JudgeReliability {
  const ok = rows.filter((r) => r.status === 'ok');
  const unscored: Record<string, number> = {};
  const unlabelled: Record<string, Record<string, number>> = {};
  let errors = 0;
  for (const c of criteria) {
    const nulls = ok.filter((r) => c in r.scores && r.scores[c] === null);
    unscored[c] = nulls.filter((r) => !r.unscored?.[c]).length;
    errors += unscored[c]!;
    for (const r of nulls) {
      const why = r.unscored?.[c];
      if (why) (unlabelled[c] ??= {})[why] = (unlabelled[c]![why] ?? 0) + 1;
    }
  }
  const surv = survivalAgreement(ok);
  const reading = survivalReading(ok);
  const survival =
    surv.compared > 0 ? { compared: surv.compared, agreement: surv.agreement, kappa: surv.kappa } : null;
  const samples = Math.max(0, ...ok.flatMap((r) => r.detail?.judge.map((j) => j.samples.length) ?? []));
  if (samples < 2) {
    const gap =
      samples === 0
        ? 'rows carry no judge samples (detail.judge missing)'
        : 'one judge sample per cell (judge.samples = 1): agreement needs k ≥ 2';
    return { errors, unscored, unlabelled, samples, agreement: null, gap, survival, reading };
  }
  const agreement: NonNullable<JudgeReliability['agreement']> = {};
  for (const r of criterionReliability(ok)) {
    agreement[r.criterion] = {
      units: r.testRetest.units,
      pairs: r.testRetest.pairs,
      exact: r.testRetest.exact,
      withinOne: r.testRetest.withinOne,
      alpha: r.alpha,
    };
  }
  return { errors, unscored, unlabelled, samples, agreement, gap: null, survival, reading };
}
