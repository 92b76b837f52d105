import type { ResultRow } from '../../harness/core/index.ts';
import type { PairAccount } from './types.ts';

type Side = 'scored' | 'error' | 'unscored' | 'notJudged' | 'missing';

const key = (r: Pick<ResultRow, 'case_id' | 'rep'>) => `${r.case_id}\u0000${r.rep}`;

function sideOf(r: ResultRow | undefined, criterion: string): Side {
  if (!r) return 'missing';
  if (r.status !== 'ok') return 'error';
  if (!(criterion in r.scores)) return 'notJudged';
  const v = r.scores[criterion];
  return typeof v === 'number' && Number.isFinite(v) ? 'scored' : 'unscored';
}

/**
 * Which case × rep cells of two arms formed a pair on one criterion, and why the others did not: an
 * error row on either side first, then an unscored judgement on either side, then a case that is not
 * judged on the criterion at all (its own `criteria` leave it out), then no cell at all on one side
 * (a filtered or unfinished run). Rows are one per cell (canonicalRows).
 */
export function pairAccount(
  armRows: readonly ResultRow[],
  baselineRows: readonly ResultRow[],
  criterion: string,
): PairAccount {
  const a = new Map(armRows.map((r) => [key(r), r]));
  const b = new Map(baselineRows.map((r) => [key(r), r]));
  const dropped = { error: 0, unscored: 0, notJudged: 0, missing: 0 };
  let pairs = 0;
  for (const k of new Set([...a.keys(), ...b.keys()])) {
    const sides = [sideOf(a.get(k), criterion), sideOf(b.get(k), criterion)];
    if (sides[0] === 'scored' && sides[1] === 'scored') pairs++;
    else if (sides.includes('error')) dropped.error++;
    else if (sides.includes('unscored')) dropped.unscored++;
    else if (sides.includes('notJudged')) dropped.notJudged++;
    else dropped.missing++;
  }
  return { arm: armRows.length, baseline: baselineRows.length, pairs, dropped };
}
