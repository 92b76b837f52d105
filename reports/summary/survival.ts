import type { AssertionKind, ClaimLocation, ResultRow } from '../../harness/core/index.ts';
import { assertionKinds } from '../../harness/core/index.ts';
import type { LocationSurvivalSummary, SurvivalCount, SurvivalSummary } from './types.ts';

type Stage = 'payload' | 'answer';
const stages: Stage[] = ['payload', 'answer'];

/**
 * Survival by kind at both stages. With the per-assertion marks in row.detail the counts are exact
 * and the rate is pooled over assertions (the seed's "hedged statements survived 31%"); rows without
 * detail only carry per-cell rates, so the rate is then their mean over cells and the counts are of
 * cells, which the `source` field says.
 */
export function survivalSummary(ok: readonly ResultRow[]): SurvivalSummary {
  const withMarks = ok.filter((r) => r.detail?.survival);
  if (ok.length > 0 && withMarks.length === ok.length) return fromMarks(ok);
  if (ok.some((r) => Object.keys(r.survival.answer).length > 0 || Object.keys(r.survival.payload).length > 0))
    return fromRates(ok);
  return { source: 'none', payload: {}, answer: {} };
}

function empty(): SurvivalCount {
  return { kept: 0, overstated: 0, absent: 0, total: 0, rate: null };
}

function fromMarks(ok: readonly ResultRow[]): SurvivalSummary {
  const out: SurvivalSummary = { source: 'marks', payload: {}, answer: {} };
  for (const r of ok) {
    for (const m of r.detail!.survival) {
      for (const stage of stages) {
        const mark = m[stage];
        if (mark === null) continue; // unscored: the classifier failed on the stage (counted apart)
        const c = (out[stage][m.kind] ??= empty());
        c[mark]++;
        c.total++;
      }
    }
  }
  for (const stage of stages)
    for (const c of Object.values(out[stage])) c.rate = c.total ? c.kept / c.total : null;
  return out;
}

function fromRates(ok: readonly ResultRow[]): SurvivalSummary {
  const out: SurvivalSummary = { source: 'rates', payload: {}, answer: {} };
  for (const stage of stages) {
    for (const kind of assertionKinds) {
      const rates = ok.map((r) => r.survival[stage][kind]).filter((v): v is number => typeof v === 'number');
      if (rates.length === 0) continue;
      const mean = rates.reduce((a, b) => a + b, 0) / rates.length;
      out[stage][kind as AssertionKind] = {
        kept: 0,
        overstated: 0,
        absent: 0,
        total: rates.length,
        rate: mean,
      };
    }
  }
  return out;
}

/**
 * Survival by kind × location at both stages: pooled over assertions from the marks (exact counts),
 * else the mean of the rows' per-cell `survival_location` rates (counts are then of cells).
 */
export function locationSurvivalSummary(ok: readonly ResultRow[]): LocationSurvivalSummary {
  if (ok.length > 0 && ok.every((r) => r.detail?.survival)) {
    const out: LocationSurvivalSummary = { source: 'marks', payload: {}, answer: {} };
    for (const r of ok)
      for (const m of r.detail!.survival) {
        if (!m.location) continue;
        for (const stage of stages) {
          const mark = m[stage];
          if (mark === null) continue;
          const c = ((out[stage][m.kind] ??= {})[m.location] ??= empty());
          c[mark]++;
          c.total++;
        }
      }
    for (const stage of stages)
      for (const byLoc of Object.values(out[stage]))
        for (const c of Object.values(byLoc)) c.rate = c.total ? c.kept / c.total : null;
    return out;
  }
  return locationFromRates(ok);
}

function locationFromRates(ok: readonly ResultRow[]): LocationSurvivalSummary {
  const out: LocationSurvivalSummary = { source: 'none', payload: {}, answer: {} };
  for (const stage of stages) {
    const sums = new Map<string, { sum: number; n: number }>();
    for (const r of ok)
      for (const [key, v] of Object.entries(r.survival_location?.[stage] ?? {})) {
        const t = sums.get(key) ?? { sum: 0, n: 0 };
        t.sum += v;
        t.n++;
        sums.set(key, t);
      }
    for (const [key, t] of sums) {
      const [kind, location] = key.split(':') as [AssertionKind, ClaimLocation];
      (out[stage][kind] ??= {})[location] = { ...empty(), total: t.n, rate: t.sum / t.n };
      out.source = 'rates';
    }
  }
  return out;
}

/** Cells with at least one overstated assertion in the answer (the seed's "8 of 30 runs"). */
export function overstatedSummary(ok: readonly ResultRow[]): { runs: number; n: number; assertions: number } {
  let runs = 0;
  let assertions = 0;
  for (const r of ok) {
    if (r.overstated_count > 0) runs++;
    assertions += r.overstated_count;
  }
  return { runs, n: ok.length, assertions };
}
