import type { ResultRow } from '../core/index.ts';
import type { GateCheck, Baseline, BaselineArm } from './types.ts';

/** `provider:model` per role of an arm's rows, sorted (what a baseline arm records). */
export function armModels(rows: readonly ResultRow[]): {
  source: string[];
  receiver: string[];
  judge: string[];
} {
  const uniq = (f: (r: ResultRow) => string) => [...new Set(rows.map(f))].sort();
  return {
    source: uniq((r) => r.source_model),
    receiver: uniq((r) => r.receiver_model),
    judge: uniq((r) => r.judge_model),
  };
}

/**
 * The source mode of an arm's rows: 'live' when any row ran its source live (an error row of a live
 * cell may lack the column), else 'recorded'.
 */
export function armMode(rows: readonly ResultRow[]): string {
  return rows.find((r) => r.source_mode !== undefined && r.source_mode !== null)?.source_mode ?? 'recorded';
}

/**
 * Arms whose source mode differs from the baseline's arm of the same name: live and recorded cells are
 * different experiments (the source re-runs with tools, or is replayed), so nothing of the run is
 * compared (the gate's identity mismatch, exit 2). Grouped by the pair of modes, naming both.
 */
export function modeMismatch(
  arms: readonly { suite: string; arm: string; rows: readonly ResultRow[] }[],
  baseline: Baseline,
): string[] {
  const pairs = new Map<string, string[]>();
  for (const a of arms) {
    const ba = baseline.suites.find((s) => s.suite === a.suite)?.arms.find((x) => x.arm === a.arm);
    if (!ba) continue;
    const run = armMode(a.rows);
    const base = ba.mode ?? 'recorded';
    if (run === base) continue;
    const key = `run ${run} vs baseline ${base}`;
    pairs.set(key, [...(pairs.get(key) ?? []), `${a.suite}/${a.arm}`]);
  }
  return [...pairs].map(
    ([key, at]) =>
      `mode: ${key} (${at.length > 6 ? `${at.slice(0, 6).join(', ')} … +${at.length - 6}` : at.join(', ')})`,
  );
}

/** JSON with object keys sorted, so equal params compare equal whatever their key order. */
function canonicalJson(value: unknown): string {
  return (
    JSON.stringify(value, (_key, v: unknown) =>
      v && typeof v === 'object' && !Array.isArray(v)
        ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
        : v,
    ) ?? 'undefined'
  );
}

export interface ArmDifferences {
  /** Strategy, param values or models that differ: the arm is not the baseline's arm. */
  differs: string[];
  /** Params on one side only (a param added or removed since): listed, not held against the run. */
  oneSided: string[];
}

/**
 * What separates a run's arm from the baseline's arm of the same name: its strategy, the resolved
 * value of a param both sides have, and — when the baseline records them — the models per role.
 * Scores from a differently configured arm are not a like-for-like comparison, so such an arm's
 * baseline checks cannot evaluate. A param only one side has is most often one added since the
 * baseline, at a default that keeps the old behaviour; it is listed, not failed.
 */
export function armDifferences(
  current: { strategy: string; params: Record<string, unknown> },
  rows: readonly ResultRow[],
  ba: BaselineArm,
): ArmDifferences {
  const differs: string[] = [];
  const oneSided: string[] = [];
  if (current.strategy !== ba.strategy) differs.push(`strategy ${ba.strategy} → ${current.strategy}`);
  for (const key of [...new Set([...Object.keys(ba.params), ...Object.keys(current.params)])].sort()) {
    const inBase = key in ba.params;
    const inRun = key in current.params;
    const show = (v: unknown) => (typeof v === 'string' ? v : canonicalJson(v));
    if (inBase && inRun) {
      if (canonicalJson(ba.params[key]) !== canonicalJson(current.params[key]))
        differs.push(`params.${key} ${show(ba.params[key])} → ${show(current.params[key])}`);
    } else
      oneSided.push(
        `params.${key} only in the ${inRun ? 'run' : 'baseline'} (${canonicalJson(inRun ? current.params[key] : ba.params[key])})`,
      );
  }
  if (ba.models) {
    const models = armModels(rows);
    for (const role of ['source', 'receiver', 'judge'] as const) {
      const b = ba.models[role].join(', ');
      const r = models[role].join(', ');
      if (b !== r) differs.push(`models.${role} ${b || '–'} → ${r || '–'}`);
    }
  }
  return { differs, oneSided };
}

/**
 * The row that lists an arm's change beside its checks. By default the arm is still compared with its
 * baseline by name (a change made in the config is what CI exists to catch: a drop beyond noise is a
 * regression), so the row passes and only says what changed. Under `likeForLike` (gate
 * --like-for-like) a changed arm is not compared and the row cannot evaluate.
 */
export function configCheck(
  at: { suite: string; arm: string },
  differs: string[],
  likeForLike = false,
): GateCheck {
  return {
    ...at,
    kind: 'config',
    criterion: null,
    baseline: null,
    current: null,
    delta: null,
    ci: null,
    limit: null,
    verdict: likeForLike ? 'cannot evaluate' : 'pass',
    reason: likeForLike
      ? `not like-for-like, not compared with the baseline (--like-for-like): ${differs.join('; ')}`
      : `changed since the baseline, compared by name: ${differs.join('; ')}`,
  };
}
