import type { ResultRow } from '../../harness/core/index.ts';
import { parseSweepArmName } from '../../harness/config/sweep.ts';
import { clusteredMean, type Observation } from '../stats/clustered.ts';
import { LEVEL } from './scores.ts';
import { SCORE_SCALE } from '../stats/scale.ts';
import type { SweepEstimate, SweepPoint, SweepSummary } from './live-sweep-types.ts';

/**
 * The parameter-response view of a suite's swept arms: for each group of at least two arms named
 * `<base>[…]` with one strategy, and each param in their names, the primary score, the handoff tokens
 * and the payload and answer survival per value of that param (pooled over the other swept params),
 * each a mean over ok cells with a 95% interval clustered by case.
 */
export function sweepSummaries(rows: readonly ResultRow[], criterion: string | null): SweepSummary[] {
  const groups = new Map<string, { strategy: string; arms: Map<string, Record<string, string>> }>();
  for (const arm of [...new Set(rows.map((r) => r.arm))].sort()) {
    const parsed = parseSweepArmName(arm);
    if (!parsed) continue;
    const strategy = rows.find((r) => r.arm === arm)!.strategy;
    const key = `${parsed.base}\u0000${strategy}`;
    const g = groups.get(key) ?? { strategy, arms: new Map() };
    g.arms.set(arm, parsed.values);
    groups.set(key, g);
  }
  const out: SweepSummary[] = [];
  for (const [key, g] of groups) {
    if (g.arms.size < 2) continue;
    const ok = rows.filter((r) => r.status === 'ok' && g.arms.has(r.arm));
    const params = [...new Set([...g.arms.values()].flatMap((v) => Object.keys(v)))];
    out.push({
      base: key.split('\u0000')[0]!,
      strategy: g.strategy,
      arms: [...g.arms.keys()],
      criterion,
      params: params.map((param) => ({ param, points: points(param, g.arms, ok, criterion) })),
    });
  }
  return out;
}

function points(
  param: string,
  arms: Map<string, Record<string, string>>,
  ok: readonly ResultRow[],
  criterion: string | null,
): SweepPoint[] {
  const values = [...new Set([...arms.values()].flatMap((v) => (param in v ? [v[param]!] : [])))];
  if (values.every((v) => Number.isFinite(Number(v)))) values.sort((a, b) => Number(a) - Number(b));
  return values.map((value) => {
    const with_ = [...arms].filter(([, v]) => v[param] === value).map(([arm]) => arm);
    const cells = ok.filter((r) => with_.includes(r.arm));
    return {
      value,
      arms: with_,
      cells: cells.length,
      score: estimate(cells, (r) => (criterion ? r.scores[criterion] : null), SCORE_SCALE),
      handoffTokens: estimate(cells, (r) => r.handoff_tokens, [0, Infinity]),
      payloadSurvival: estimate(cells, (r) => keptShare(r, 'payload'), [0, 1]),
      answerSurvival: estimate(cells, (r) => keptShare(r, 'answer'), [0, 1]),
    };
  });
}

/**
 * A clustered mean; its interval is clipped to what the quantity can be — a score to the 1–5 scale, a
 * share to [0, 1], tokens to ≥ 0 — since the t interval does not know the bounds (with two cases it
 * runs to −8 … 17 on 1–5 scores).
 */
function estimate(
  rows: readonly ResultRow[],
  value: (r: ResultRow) => number | null | undefined,
  bounds?: readonly [number, number],
): SweepEstimate | null {
  const obs: Observation[] = [];
  for (const r of rows) {
    const v = value(r);
    if (typeof v === 'number' && Number.isFinite(v)) obs.push({ cluster: r.case_id, value: v });
  }
  const est = clusteredMean(obs, LEVEL);
  if (!est) return null;
  const clip = (x: number) => (bounds ? Math.min(bounds[1], Math.max(bounds[0], x)) : x);
  return { mean: est.mean, ci: est.ci && [clip(est.ci[0]), clip(est.ci[1])], n: est.n };
}

/** The share of a cell's labelled assertions kept at a stage (null when it has none, or no marks). */
function keptShare(r: ResultRow, stage: 'payload' | 'answer'): number | null {
  const marks = r.detail?.survival;
  if (!marks?.length || marks.some((m) => m[stage] === null)) return null;
  return marks.filter((m) => m[stage] === 'kept').length / marks.length;
}
