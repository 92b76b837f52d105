import type { AssertionKind, ResultRow, SurvivalStageName } from '../../harness/core/index.ts';

/**
 * What decided a suite's survival figures, and how far the cue matcher's first opinion is from the
 * decision (issue 26): per stage (made by the source — live mode —, payload, answer) the claims on
 * which the two differ, pooled over the ok rows; how many stages the classifier left unscored; and in
 * live mode the labelled claims the live sources did not make (not a location: they are in no
 * kind × location row).
 */
export interface SurvivalReading {
  /** 'classifier' / 'cues' when every row with survival marks says the same; 'mixed' otherwise; null: no marks. */
  decidedBy: 'classifier' | 'cues' | 'mixed' | null;
  disagreement: Partial<Record<SurvivalStageName, { differ: number; compared: number; rate: number | null }>>;
  /** (row, stage) pairs the classifier failed on after its retry. */
  unscored: number;
  notMade: {
    cells: number;
    claims: number;
    labelled: number;
    byKind: Partial<Record<AssertionKind, number>>;
  } | null;
}

const stages: readonly SurvivalStageName[] = ['made', 'payload', 'answer'];

export function survivalReading(ok: readonly ResultRow[]): SurvivalReading {
  const by = new Set(ok.filter((r) => r.detail?.survival.length).map((r) => r.survival_decided_by ?? 'cues'));
  const decidedBy = by.size === 0 ? null : by.size > 1 ? 'mixed' : [...by][0]!;
  const disagreement: SurvivalReading['disagreement'] = {};
  for (const stage of stages) {
    let differ = 0;
    let compared = 0;
    for (const r of ok) {
      const rate = r.survival_disagreement?.[stage];
      if (rate == null) continue;
      const n = stage === 'made' ? (r.detail?.source_claims?.length ?? 0) : (r.detail?.survival.length ?? 0);
      differ += Math.round(rate * n);
      compared += n;
    }
    if (compared) disagreement[stage] = { differ, compared, rate: differ / compared };
  }
  const unscored = ok.reduce((n, r) => n + (r.survival_unscored?.length ?? 0), 0);
  return { decidedBy, disagreement, unscored, notMade: notMadeOf(ok) };
}

function notMadeOf(ok: readonly ResultRow[]): SurvivalReading['notMade'] {
  const read = ok.filter((r) => r.detail?.source_claims);
  if (read.length === 0) return null;
  const byKind: Partial<Record<AssertionKind, number>> = {};
  let claims = 0;
  let labelled = 0;
  for (const r of read)
    for (const c of r.detail!.source_claims!) {
      labelled++;
      if (c.location !== 'not_made') continue;
      claims++;
      byKind[c.kind] = (byKind[c.kind] ?? 0) + 1;
    }
  return { cells: read.length, claims, labelled, byKind };
}
